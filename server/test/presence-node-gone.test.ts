/**
 * PRES-1: when a node stops without cleanup, the node that notices announces its users offline, with the data they
 * last authorized with (the connection that carried it is gone).
 */
import { describe, expect, it } from 'vitest';
import type { Pusher } from '../src/push.js';
import { createMemoryPresenceRegistry, type PresenceRegistry } from '../src/presence/registry.js';
import { createPresenceService } from '../src/presence/service.js';
import { openStore } from '../src/store/index.js';
import { defer } from './helpers.js';

describe('presence after a node died', () => {
  it('PRES-1 PRES-2 PRES-4: users the dead node held go offline to their subscribers and groups', async () => {
    const store = await openStore({
      databaseUrl: undefined,
      databaseSchema: undefined,
      dataDir: '/unused',
      sqlite: ':memory:',
    });
    defer(() => store.close());
    await store.users.upsert({ appkey: 'app', userId: 'alice', data: '{"name":"Alice"}', now: 1 });
    await store.presenceSubscriptions.subscribeUsers({ appkey: 'app', subscriberId: 'bob', userIds: ['alice'] });
    await store.groups.join({ appkey: 'app', userId: 'alice', groupIds: ['g1'], now: 1 });
    await store.presenceSubscriptions.subscribeGroups({ appkey: 'app', subscriberId: 'carol', groupIds: ['g1'] });
    const memory = createMemoryPresenceRegistry();
    const registry: PresenceRegistry = {
      ...memory,
      forgetNode: (nodeId) => Promise.resolve(nodeId === 'dead' ? [{ appkey: 'app', userId: 'alice' }] : []),
    };
    const pushes: Array<Parameters<Pusher['toUsers']>[0]> = [];
    const pusher: Pusher = {
      toUsers: (p) => void pushes.push(p),
      toConnection: () => undefined,
      joinRoom: () => undefined,
      toRoom: () => undefined,
    };
    const told: Array<[string, unknown]> = [];
    const presence = createPresenceService({
      registry,
      users: store.users,
      groups: store.groups,
      subscriptions: store.presenceSubscriptions,
      pusher,
      now: () => 42,
      onPresence: (appkey, event) => void told.push([appkey, event]),
    });
    await presence.nodeGone('alive');
    expect(pushes).toEqual([]);
    await presence.nodeGone('dead');
    const event = { userId: 'alice', userData: '{"name":"Alice"}', time: 42, action: 'offline' };
    // HOOK-6: the app's webhook hears it too, from the node that noticed.
    expect(told).toEqual([['app', event]]);
    expect(pushes).toEqual([
      { appkey: 'app', userIds: ['bob'], event: 'userPresence', payload: { c: JSON.stringify({ events: [event] }) } },
      {
        appkey: 'app',
        userIds: ['carol'],
        event: 'groupPresence',
        payload: { c: JSON.stringify({ groupId: 'g1', userAmount: 0, events: [event] }) },
      },
    ]);
  });
});
