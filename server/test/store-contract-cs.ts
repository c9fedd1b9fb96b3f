/**
 * The store contract for customer service; registered by `describeStoreContract` so that it runs on SQLite and on
 * PostgreSQL alike.
 */
import { expect, it } from 'vitest';
import type { CsStoredMessage, Store } from '../src/store/index.js';

/** Registers the CS part of the contract; `fresh` opens a fresh store that is closed after the test. */
export function describeCsStoreContract(fresh: () => Promise<{ store: Store; reopen: () => Promise<Store> }>): void {
  const key = { appkey: 'app', teamId: 't1', customerId: 'carol' };
  const message = (overrides: Partial<CsStoredMessage> = {}): CsStoredMessage => ({
    teamId: 't1',
    customerId: 'carol',
    ts: 100,
    messageId: 'm1',
    senderId: 'carol',
    to: 't1',
    type: 'text',
    payload: '{"text":"hi"}',
    senderData: '{"name":"Carol"}',
    accepted: false,
    sessionId: 100,
    ...overrides,
  });

  it('CS-1: agents go online and offline per team, and stay members', async () => {
    const { store } = await fresh();
    const base = { appkey: 'app', agentData: '{"n":"A"}', teamData: '{"n":"T"}' };
    await store.cs.setOnline({ ...base, teamId: 't1', agentId: 'alice', now: 1 });
    await store.cs.setOnline({ ...base, teamId: 't2', agentId: 'alice', now: 2 });
    await store.cs.setOnline({ ...base, teamId: 't1', agentId: 'bob', agentData: '{"n":"B"}', now: 3 });
    expect(await store.cs.onlineTeams('app', 'alice')).toEqual(['t1', 't2']);
    expect((await store.cs.onlineAgents('app', 't1')).map((a) => [a.agentId, a.agentData])).toEqual([
      ['alice', '{"n":"A"}'],
      ['bob', '{"n":"B"}'],
    ]);
    await store.cs.setOffline({ appkey: 'app', teamId: 't1', agentId: 'alice', now: 4 });
    expect(await store.cs.onlineTeams('app', 'alice')).toEqual(['t2']);
    expect(await store.cs.agent('app', 't1', 'alice')).toEqual({
      teamId: 't1',
      agentId: 'alice',
      agentData: '{"n":"A"}',
      teamData: '{"n":"T"}',
      online: false,
    });
    expect(await store.cs.teamData('app', 't1')).toBe('{"n":"T"}');
    expect(await store.cs.teamData('other', 't1')).toBeUndefined();
  });

  it('CS-3: sessions, pending lists and accepted counts survive a reopen', async () => {
    const { store, reopen } = await fresh();
    const session = {
      teamId: 't1',
      customerId: 'carol',
      status: 'PENDING' as const,
      sessionId: 100,
      start: 100,
      agentId: null,
      agentData: null,
      customerData: '{"name":"Carol"}',
      lastTs: 100,
    };
    await store.cs.saveSession('app', session);
    await store.cs.saveSession('app', { ...session, customerId: 'dave', lastTs: 200 });
    expect((await store.cs.pendingSessions('app', ['t1', 't9'])).map((s) => s.customerId)).toEqual(['dave', 'carol']);
    const accepted = { ...session, status: 'ACCEPTED' as const, agentId: 'alice', agentData: '{}', lastTs: 300 };
    await store.cs.saveSession('app', accepted);
    expect(await store.cs.acceptedCount('app', 't1', 'alice')).toBe(1);
    const again = await reopen();
    try {
      expect(await again.cs.session(key)).toEqual(accepted);
      expect((await again.cs.pendingSessions('app', ['t1'])).map((s) => s.customerId)).toEqual(['dave']);
    } finally {
      await again.close();
    }
  });

  it('CS-8: messages page oldest first, exclusive, found by guid, counted by sender', async () => {
    const { store } = await fresh();
    await store.cs.messages.append('app', message());
    await store.cs.messages.append(
      'app',
      message({ ts: 101, messageId: 'm2', senderId: 'alice', to: 'carol', accepted: true }),
    );
    await store.cs.messages.append('app', message({ ts: 102, messageId: 'm3' }));
    await expect(store.cs.messages.append('app', message({ ts: 103 }))).rejects.toThrow();
    expect((await store.cs.messages.page(key, undefined, 2)).map((m) => m.ts)).toEqual([101, 102]);
    expect((await store.cs.messages.page(key, 102, 30)).map((m) => m.messageId)).toEqual(['m1', 'm2']);
    expect(await store.cs.messages.byGuid('app', 'alice', 'm2')).toEqual(
      message({ ts: 101, messageId: 'm2', senderId: 'alice', to: 'carol', accepted: true }),
    );
    expect(await store.cs.messages.at(key, 102)).toMatchObject({ messageId: 'm3' });
    expect(await store.cs.messages.count(key, { after: 0, from: 'carol' })).toBe(2);
    expect(await store.cs.messages.count(key, { after: 100, upTo: 101, notFrom: 'carol' })).toBe(1);
    // IM-24: what came after a time, oldest first, as many as asked.
    expect((await store.cs.messages.since(key, 100, 30)).map((m) => m.messageId)).toEqual(['m2', 'm3']);
    expect((await store.cs.messages.since(key, 0, 2)).map((m) => m.ts)).toEqual([100, 101]);
    expect(await store.cs.messages.since({ ...key, customerId: 'someone else' }, 0, 30)).toEqual([]);
  });

  it('CS-9: conversation rows move forward only, keep or replace data, top and remove', async () => {
    const { store } = await fresh();
    await store.cs.touch(key, 100, [
      { ownerId: 'carol', data: null, fallback: '{"team":1}' },
      { ownerId: 'alice', data: '{"name":"Carol"}' },
    ]);
    await store.cs.touch(key, 50, [{ ownerId: 'carol', data: '{"team":2}' }]);
    expect(await store.cs.conversation(key, 'carol')).toEqual({
      ownerId: 'carol',
      teamId: 't1',
      customerId: 'carol',
      top: false,
      removed: false,
      data: '{"team":2}',
      lastTs: 100,
    });
    expect(await store.cs.setTop(key, 'alice', true)).toBe(true);
    expect(await store.cs.remove(key, 'carol')).toBe(true);
    expect(await store.cs.remove({ ...key, teamId: 'nope' }, 'carol')).toBe(false);
    expect(await store.cs.conversations('app', 'carol', 10)).toEqual([]);
    await store.cs.touch(key, 120, [{ ownerId: 'carol', data: null }]);
    expect((await store.cs.conversations('app', 'carol', 10)).map((c) => [c.lastTs, c.data])).toEqual([
      [120, '{"team":2}'],
    ]);
    expect((await store.cs.conversations('app', 'alice', 10))[0]).toMatchObject({
      top: true,
      data: '{"name":"Carol"}',
    });
  });
}
