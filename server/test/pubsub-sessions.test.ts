/**
 * Pub/sub sessions kept in the store (PUB-8, PUB-9): what a session holds outlives a restart, ends when the client
 * leaves on purpose, and is forgotten once the session lifetime is long past.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../src/store/index.js';
import { OPEN_APP, request, startServer, tempDir } from './helpers.js';
import { eventually, loseLink, publishParams, rawUser, received, settle } from './pubsub-support.js';

describe('pub/sub sessions in the store', () => {
  it('PUB-8 PUB-9: after a restart, a resumed session has its channels, watches and unacked qos-1 messages', async () => {
    const sqlite = join(tempDir(), 'parley.db');
    const first = await startServer({ sqlite });
    const sub = await rawUser(first.url, 'sub');
    await request(sub.socket, 'subscribe', { channels: ['news'] });
    await request(sub.socket, 'PUBSUB_PRESENCE_SUBSCRIBE', { channel: 'room' });
    await loseLink(sub);
    const pub = await rawUser(first.url, 'pub');
    await request(pub.socket, 'publish', publishParams('news', 'while away', { q: 1 }));
    await first.server.close();

    const second = await startServer({ sqlite, port: first.port });
    const back = await rawUser(second.url, 'sub', { sid: sub.sid });
    expect(back.sid).toBe(sub.sid);
    await eventually(() => received(back, 'message').length === 1, 'redelivery after the restart');
    expect(received(back, 'message')[0]).toMatchObject({ n: 'news', c: 'while away', a: true });
    back.socket.emit('ack', { publishGuid: received(back, 'message')[0]!['i'] });
    // Nothing re-sent by the client: the channel and the presence watch were restored from the store.
    const pubAgain = await rawUser(second.url, 'pub');
    await request(pubAgain.socket, 'publish', publishParams('news', 'live', { q: 0 }));
    const alice = await rawUser(second.url, 'alice');
    await request(alice.socket, 'subscribe', { channels: ['room'], presence: { enable: true } });
    await eventually(() => received(back, 'message').length === 2 && received(back, 'PS_PRESENCE_EVENT').length === 1);
    expect(received(back, 'message')[1]).toMatchObject({ c: 'live', a: false });
    expect(received(back, 'PS_PRESENCE_EVENT')[0]).toMatchObject({ action: 'join', member: { id: 'alice' } });
    // Acked: the next connection of the session gets nothing again.
    await settle(back.socket);
    await loseLink(back);
    const again = await rawUser(second.url, 'sub', { sid: sub.sid });
    await settle(again.socket);
    expect(received(again, 'message')).toEqual([]);
  });

  it('PUB-9: a session a previous run left marked as connected has no connection after a restart', async () => {
    const sqlite = join(tempDir(), 'parley.db');
    // What a node that stopped without cleanup leaves: a session served by a connection that is gone.
    const before = await openStore({ databaseUrl: undefined, databaseSchema: undefined, dataDir: '/unused', sqlite });
    const ghost = { sid: 'ghost', appkey: OPEN_APP.appkey, userId: 'sub', connectionId: 'dead', nodeId: 'gone' };
    await before.pubsubSessions.subscribe({ session: ghost, channels: ['news'], presence: false });
    const message = { n: 'news', c: 'missed', t: 1, i: 'g1', a: true };
    const pending = { appkey: OPEN_APP.appkey, channel: 'news', guid: 'g1', time: 1, body: JSON.stringify(message) };
    await before.pubsubSessions.addPending(pending);
    await before.close();

    const { url } = await startServer({ sqlite });
    const fresh = await rawUser(url, 'sub');
    await request(fresh.socket, 'subscribe', { channels: ['news'], resubscribe: true });
    await eventually(() => received(fresh, 'message').length === 1, 'taken-over redelivery');
    expect(received(fresh, 'message')[0]).toMatchObject({ c: 'missed', i: 'g1' });
  });

  it('PUB-9: a client that leaves on purpose ends its stored session at once', async () => {
    const { url, server } = await startServer();
    const sub = await rawUser(url, 'sub');
    await request(sub.socket, 'subscribe', { channels: ['news'] });
    expect(await server.store.pubsubSessions.load(sub.sid)).toMatchObject({ channels: [{ channel: 'news' }] });
    await request(sub.socket, 'manualDisconnect', {});
    await eventually(() => !sub.socket.connected);
    await server.gateway.drain();
    await expectEventually(async () => (await server.store.pubsubSessions.load(sub.sid)) === undefined);
  });

  it('PUB-9: a session without a connection for longer than the session lifetime is forgotten', async () => {
    let time = Date.now();
    const sessionTtlMs = 60_000;
    const { url, server } = await startServer({ sessionTtlMs }, { now: () => time });
    const sub = await rawUser(url, 'sub');
    await request(sub.socket, 'subscribe', { channels: ['news'] });
    await loseLink(sub);
    const pub = await rawUser(url, 'pub');
    time += sessionTtlMs / 2;
    await request(pub.socket, 'publish', publishParams('news', 'kept a while', { q: 1 }));
    expect(await server.store.pubsubSessions.load(sub.sid)).toBeDefined();
    // Long past the lifetime (and its grace): the next request that runs upkeep forgets the session.
    time += sessionTtlMs * 3;
    await request(pub.socket, 'publish', publishParams('news', 'after', { q: 1 }));
    await expectEventually(async () => (await server.store.pubsubSessions.load(sub.sid)) === undefined);
    expect(await server.store.pubsubSessions.pending({ sid: sub.sid, limit: 10 })).toEqual([]);
  });
});

/** Polls an asynchronous check until it holds (within 5 s). */
async function expectEventually(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('not met within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
