/**
 * PUB-9, PUB-13: when a node stops without cleanup, the node that notices tells the watchers its members timed
 * out, and the sessions it served count as disconnected, so that an expired reconnect can take over their messages.
 */
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../src/logger.js';
import type { WireChannelPresenceEvent } from '../src/protocol.js';
import type { ChannelPresence } from '../src/pubsub/presence.js';
import { createPubsubService, type PubsubFanout } from '../src/pubsub/service.js';
import { openStore } from '../src/store/index.js';
import { defer } from './helpers.js';

describe('pub/sub after a node died', () => {
  it('PUB-9 PUB-13: its members time out for the watchers and its sessions lose their connection', async () => {
    const store = await openStore({
      databaseUrl: undefined,
      databaseSchema: undefined,
      dataDir: '/unused',
      sqlite: ':memory:',
    });
    defer(() => store.close());
    const member = { id: 'alice', data: { name: 'Alice' } };
    const presence: ChannelPresence = {
      enter: () => Promise.resolve(undefined),
      exit: () => Promise.resolve(undefined),
      hereNow: () => Promise.resolve({ members: [], amount: 0 }),
      sweep: () => Promise.resolve(),
      forgetNode: (nodeId) =>
        Promise.resolve(
          nodeId === 'dead'
            ? [{ appkey: 'app', channel: 'room', change: { action: 'timeout' as const, member, amount: 0 } }]
            : [],
        ),
    };
    const events: WireChannelPresenceEvent[] = [];
    const fanout: PubsubFanout = {
      joinChannel: () => undefined,
      leaveChannel: () => undefined,
      joinPresence: () => undefined,
      leavePresence: () => undefined,
      message: () => undefined,
      presence: (_appkey, _channel, event) => void events.push(event),
      toConnection: () => undefined,
      redelivered: () => undefined,
      isConnected: () => true,
    };
    const pubsub = createPubsubService({
      store: store.pubsub,
      sessions: store.pubsubSessions,
      presence,
      fanout,
      nodeId: 'alive',
      soleNode: false,
      history: { maxMessages: 100, maxAgeMs: 0 },
      sessionTtlMs: 60_000,
      now: () => 1000,
      logger: silentLogger(),
    });
    const onDead = { sid: 'old', appkey: 'app', userId: 'alice', connectionId: 'c-old', nodeId: 'dead' };
    await store.pubsubSessions.subscribe({ session: onDead, channels: ['news'], presence: false });
    const body = JSON.stringify({ n: 'news', c: 'missed', t: 1, i: 'g1', a: true });
    await store.pubsubSessions.addPending({ appkey: 'app', channel: 'news', guid: 'g1', time: 1, body });
    const fresh = { ...onDead, sid: 'new', connectionId: 'c-new', nodeId: 'alive' };
    await store.pubsubSessions.subscribe({ session: fresh, channels: ['news'], presence: false });
    const takeOver = () =>
      store.pubsubSessions.takeOver({ sid: 'new', appkey: 'app', userId: 'alice', channels: ['news'] });
    expect(await takeOver()).toBe(0);

    await pubsub.nodeGone('dead');
    expect(events).toEqual([{ channel: 'room', action: 'timeout', member, time: 1000, amount: 0 }]);
    expect(await takeOver()).toBe(1);
    await pubsub.close();
  });
});
