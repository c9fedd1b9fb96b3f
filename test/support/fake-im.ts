/**
 * A small in-memory IM server on the fake server, for unit tests of `client.im`: it stores private messages
 * between the connected user (`me`) and peers, acks publishes with increasing timestamps, and answers history,
 * conversation and change queries from what it stored. Peers "send" with `fromPeer`, pushed or not (a message
 * sent while the link is down is only stored).
 */
import type { WireImMessage } from '../../src/protocol/index.js';
import type { FakeServer } from './fake-server.js';

const ok = (content: unknown) => ({ code: 200, resultCode: 200, content });

export interface FakeIm {
  stored: WireImMessage[];
  offsets: Map<string, number>;
  /** Timestamps I deleted (on any device). */
  deleted: Set<number>;
  changes: { userOffsets: unknown[]; deletedMessageTimes: number[]; recalledMessages: unknown[] };
  /** A private message from `peer` to me; pushed unless `push` is false. */
  fromPeer(peer: string, text: string, push?: boolean): WireImMessage;
}

export function fakeIm(server: FakeServer, me: string): FakeIm {
  let clock = 1000;
  const stored: WireImMessage[] = [];
  const offsets = new Map<string, number>();
  const deleted = new Set<number>();
  const changes = {
    userOffsets: [] as unknown[],
    deletedMessageTimes: [] as number[],
    recalledMessages: [] as unknown[],
  };
  const between = (peer: string) => (m: WireImMessage) =>
    m.t === 'private' && ((m.s === me && m.r === peer) || (m.s === peer && m.r === me));

  server.handle('publishIM', (p) => {
    const existing = stored.find((m) => m.i === p.guid);
    if (existing) return ok({ timestamp: existing.ts });
    const message: WireImMessage = {
      t: p.t as 'private',
      r: String(p.to),
      s: me,
      i: String(p.guid),
      ts: ++clock,
      mt: String(p.mt),
      p: String(p.p),
    };
    stored.push(message);
    return ok({ timestamp: message.ts });
  });
  server.handle('IM_HISTORY', (p) => {
    const before = typeof p.lastTimestamp === 'number' ? p.lastTimestamp : Infinity;
    const limit = Number(p.limit ?? 10);
    const page = stored.filter(between(String(p.id))).filter((m) => m.ts < before && !deleted.has(m.ts));
    const userOffsets = [...offsets].map(([userId, offset]) => ({ userId, offset }));
    return ok({ messages: page.slice(-limit), userOffsets });
  });
  server.handle('IM_HISTORY_CHANGE', () => ok(changes));
  server.handle('imLastConversations', () => {
    const peers = new Set(stored.map((m) => (m.s === me ? m.r : m.s)));
    return ok(
      [...peers].map((peer) => {
        const messages = stored.filter(between(peer));
        const lmsg = messages.at(-1) as WireImMessage;
        const mine = offsets.get(me) ?? 0;
        const unread = messages.filter((m) => m.s !== me && m.ts > mine && !m.rc).length;
        return { t: 'private', top: false, d: JSON.stringify({ name: peer }), userOffsets: [], lmsg, unread };
      }),
    );
  });
  server.handle('IM_DELETE_MESSAGE', (p) => {
    for (const t of p.times as number[]) deleted.add(t);
    return ok(null);
  });
  server.handle('imData', (p) => ok(JSON.stringify({ name: String(p.targetId) })));
  server.handle('IM_MARK_AS_READ', (p) => {
    offsets.set(me, Number(p.lastTimestamp));
    return ok(null);
  });

  return {
    stored,
    offsets,
    deleted,
    changes,
    fromPeer(peer, text, push = true) {
      const message: WireImMessage = {
        t: 'private',
        r: me,
        s: peer,
        i: `${peer}-${clock + 1}`,
        ts: ++clock,
        mt: 'text',
        p: JSON.stringify({ text }),
      };
      stored.push(message);
      if (push) server.push('imMessage', message);
      return message;
    },
  };
}
