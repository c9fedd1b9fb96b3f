import { describe, expect, it } from 'vitest';
import type { AppConfig } from '../src/config.js';
import type { GroupService } from '../src/im/groups.js';
import { createMessageService } from '../src/im/messages.js';
import type { PublishImRequest } from '../src/protocol.js';
import type { Actor, Pusher } from '../src/push.js';
import type { AppendResult, MessageStore, StoredMessage } from '../src/store/index.js';
import { SendsUnderWay } from '../src/im/under-way.js';

type SendParams = Parameters<MessageStore['send']>[0];

const app: AppConfig = {
  appkey: 'app',
  secretKey: 'secret',
  name: 'app',
  requireOtp: false,
  requireAccessToken: false,
};
const alice: Actor = { app, userId: 'alice', userData: {}, connectionId: 'socket-1' };

/**
 * A message service over a store whose sends wait until the test lets them through (`settle`), as a busy server's
 * batch would, and which keeps one message per (sender, guid) as the real stores do (IM-3). `sendsInCallOrder` says
 * what the store promises about order (SQLite's true, PostgreSQL's false).
 */
function slowStore(sendsInCallOrder = false) {
  const sends: SendParams[] = [];
  const waiting: Array<() => void> = [];
  const stored = new Map<string, StoredMessage>();
  let clock = 1_000;
  const store = {
    sendsInCallOrder,
    send(params: SendParams): Promise<AppendResult> {
      sends.push(params);
      return new Promise((resolve) => {
        waiting.push(() => {
          const { message } = params;
          const key = `${message.senderId}\n${message.messageId}`;
          const first = stored.get(key);
          if (first) return resolve({ message: first, duplicate: true });
          const kept: StoredMessage = { ...message, ts: (clock += 1), recalled: false, recaller: null };
          stored.set(key, kept);
          params.stored(kept);
          resolve({ message: kept, duplicate: false });
        });
      });
    },
  } as unknown as MessageStore;
  const pushes: unknown[] = [];
  const pusher = {
    toUsers: ({ payload }: { payload: unknown }) => pushes.push(payload),
  } as unknown as Pusher;
  const groups = {} as GroupService;
  const service = createMessageService({ messages: store, groups, pusher, now: () => clock });
  const release = () => {
    for (const go of waiting.splice(0)) go();
  };
  /** Lets every send through, those queued meanwhile too, until all of `sent` have settled. */
  const settle = async <T>(sent: Array<Promise<T>>): Promise<T[]> => {
    let done = false;
    const all = Promise.all(sent).finally(() => (done = true));
    while (!done) {
      release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    return all;
  };
  return { service, sends, pushes, settle };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

const request = (guid: string, retried?: number): PublishImRequest => ({
  mt: 'text',
  to: 'bob',
  p: JSON.stringify({ text: 'hi' }),
  t: 'private',
  guid,
  ...(retried === undefined ? {} : { retried }),
});

describe('IM-3: a re-send while the first send is under way', () => {
  it('waits for the first send and gets its answer, without going to the store again', async () => {
    const { service, sends, pushes, settle } = slowStore();
    const first = service.publish(alice, request('m-1'));
    const again = service.publish(alice, request('m-1', 1));
    const third = service.publish(alice, request('m-1', 2));
    await turn();
    const [a, b, c] = await settle([first, again, third]);
    expect(sends).toHaveLength(1);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(pushes).toHaveLength(1);
  });

  it('a re-send after the first settled goes to the store, which answers with the first timestamp', async () => {
    const { service, sends, pushes, settle } = slowStore();
    const [a] = await settle([service.publish(alice, request('m-2'))]);
    const [later] = await settle([service.publish(alice, request('m-2', 1))]);
    expect(later).toEqual(a);
    expect(sends).toHaveLength(2);
    expect(pushes).toHaveLength(1);
  });

  it('keys by sender and guid: another sender with the same guid, and another guid, are sends of their own', async () => {
    const { service, sends, settle } = slowStore();
    const bob: Actor = { ...alice, userId: 'bob', connectionId: 'socket-2' };
    const acks = await settle([
      service.publish(alice, request('m-3')),
      service.publish(bob, { ...request('m-3'), to: 'alice' }),
      service.publish(alice, request('m-4')),
    ]);
    expect(sends).toHaveLength(3);
    expect(new Set(acks.map((ack) => ack.timestamp)).size).toBe(3);
  });

  it('more sends under way at once than the slots: each re-send still gets its own first answer', async () => {
    const { service, sends, pushes, settle } = slowStore();
    const guids = ['b-1', 'b-2', 'b-3', 'b-4', 'b-5', 'b-6', 'b-7'];
    const firsts = guids.map((guid) => service.publish(alice, request(guid)));
    const again = [...guids].reverse().map((guid) => service.publish(alice, request(guid, 1)));
    await turn();
    const acks = await settle([...firsts, ...again]);
    expect(sends).toHaveLength(guids.length);
    expect(acks.slice(guids.length)).toEqual(acks.slice(0, guids.length).reverse());
    expect(new Set(acks.map((ack) => ack.timestamp)).size).toBe(guids.length);
    expect(pushes).toHaveLength(guids.length);
  });

  it('a re-send on another connection of the same user goes to the store, which answers with the first', async () => {
    const { service, sends, pushes, settle } = slowStore();
    const otherLink: Actor = { ...alice, connectionId: 'socket-3' };
    const [a, b] = await settle([
      service.publish(alice, request('m-6')),
      service.publish(otherLink, request('m-6', 1)),
    ]);
    expect(b).toEqual(a);
    expect(sends).toHaveLength(2);
    expect(pushes).toHaveLength(1);
  });

  it('a re-send that breaks a rule is refused on its own, not answered with the first send', async () => {
    const { service, sends, settle } = slowStore();
    const first = service.publish(alice, request('m-5'));
    await expect(service.publish(alice, { ...request('m-5'), p: 'not json' })).rejects.toMatchObject({ code: 400 });
    await settle([first]);
    expect(sends).toHaveLength(1);
  });
});

describe("IM-5: a conversation's sends, handed to the store", () => {
  const burst = (service: ReturnType<typeof slowStore>['service']) =>
    ['m-1', 'm-2', 'm-3'].map((guid) => service.publish(alice, request(guid)));

  it('all at once when the store keeps its sends in call order, in the order they came', async () => {
    const { service, sends, pushes, settle } = slowStore(true);
    const sent = burst(service);
    await turn();
    expect(sends.map((s) => s.message.messageId)).toEqual(['m-1', 'm-2', 'm-3']);
    const acks = await settle(sent);
    expect(acks.map((ack) => ack.timestamp)).toEqual([...acks.map((ack) => ack.timestamp)].sort((a, b) => a - b));
    expect(pushes).toHaveLength(3);
  });

  it('one once the one before is stored, when the store does not keep call order', async () => {
    const { service, sends, settle } = slowStore(false);
    const sent = burst(service);
    await turn();
    expect(sends.map((s) => s.message.messageId)).toEqual(['m-1']);
    await settle(sent);
    expect(sends.map((s) => s.message.messageId)).toEqual(['m-1', 'm-2', 'm-3']);
  });
});

describe('SendsUnderWay', () => {
  it('finds a send by guid until it settles, in its slots and past them', () => {
    const underWay = new SendsUnderWay<string>();
    const guids = Array.from({ length: 10 }, (_, i) => `g-${i}`);
    for (const guid of guids) underWay.add(guid, `answer ${guid}`);
    expect(underWay.size).toBe(10);
    for (const guid of guids) expect(underWay.get(guid)).toBe(`answer ${guid}`);
    underWay.settled('g-1', 'answer g-1');
    underWay.settled('g-8', 'answer g-8');
    expect(underWay.get('g-1')).toBeUndefined();
    expect(underWay.get('g-8')).toBeUndefined();
    expect(underWay.get('g-2')).toBe('answer g-2');
    expect(underWay.get('g-9')).toBe('answer g-9');
    expect(underWay.size).toBe(8);
  });

  it('reuses a settled slot, and a settle of an older answer of the same guid leaves the newer one', () => {
    const underWay = new SendsUnderWay<object>();
    const older = {};
    const newer = {};
    underWay.add('g', older);
    underWay.settled('g', older);
    underWay.add('g', newer);
    underWay.settled('g', older);
    expect(underWay.get('g')).toBe(newer);
    underWay.settled('g', newer);
    expect(underWay.get('g')).toBeUndefined();
    expect(underWay.size).toBe(0);
  });
});
