/**
 * The store contract: one suite every store implementation must pass. Call `describeStoreContract` with a
 * factory that opens a fresh, migrated store and a disposer that removes what it created.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../src/store/index.js';
import { defer } from './helpers.js';
import { describeAnnouncementStoreContract } from './store-contract-announcements.js';
import { describeClaimStoreContract } from './store-contract-claims.js';
import { describeCsStoreContract } from './store-contract-cs.js';
import { describeImStoreContract } from './store-contract-im.js';
import { describeGuaranteeStoreContract } from './store-contract-guarantees.js';
import { describeLiveLinkStoreContract } from './store-contract-live-links.js';
import { describeLiveStoreContract } from './store-contract-live.js';
import { describeMemberStoreContract } from './store-contract-members.js';
import { describeOrderStoreContract } from './store-contract-orders.js';
import { describePubsubMessageStoreContract } from './store-contract-pubsub-messages.js';
import { describePubsubSessionStoreContract } from './store-contract-pubsub.js';

/** Opens a fresh store for one test; `dispose` runs after the store is closed. */
export type StoreFactory = () => Promise<{ store: Store; reopen: () => Promise<Store>; dispose?: () => Promise<void> }>;

/** Registers the contract suite under `name`. */
export function describeStoreContract(name: string, makeStore: StoreFactory, enabled = true): void {
  describe.runIf(enabled)(`store contract: ${name}`, () => {
    async function fresh() {
      const made = await makeStore();
      if (made.dispose) defer(made.dispose);
      defer(() => made.store.close());
      return made;
    }

    it('creates and finds a session, with times as numbers', async () => {
      const { store } = await fresh();
      const created = await store.sessions.create({
        sid: 's1',
        appkey: 'app',
        userId: 'alice',
        now: 1_700_000_000_123,
      });
      expect(created).toEqual({
        sid: 's1',
        appkey: 'app',
        userId: 'alice',
        createdAt: 1_700_000_000_123,
        lastSeenAt: 1_700_000_000_123,
      });
      expect(await store.sessions.find('s1')).toEqual(created);
      expect(await store.sessions.find('nope')).toBeUndefined();
    });

    it('keeps anonymous sessions with a null user', async () => {
      const { store } = await fresh();
      await store.sessions.create({ sid: 'anon', appkey: 'app', userId: null, now: 5 });
      expect((await store.sessions.find('anon'))?.userId).toBeNull();
    });

    it('refuses a duplicate sid', async () => {
      const { store } = await fresh();
      await store.sessions.create({ sid: 'dup', appkey: 'app', userId: 'a', now: 1 });
      await expect(store.sessions.create({ sid: 'dup', appkey: 'app', userId: 'b', now: 2 })).rejects.toThrow();
      expect((await store.sessions.find('dup'))?.userId).toBe('a');
    });

    it('touches one and many sessions', async () => {
      const { store } = await fresh();
      for (const sid of ['a', 'b', 'c']) await store.sessions.create({ sid, appkey: 'app', userId: sid, now: 100 });
      await store.sessions.touch('a', 200);
      await store.sessions.touch('missing', 200);
      await store.sessions.touchMany(['b', 'missing'], 300);
      await store.sessions.touchMany([], 400);
      expect((await store.sessions.find('a'))?.lastSeenAt).toBe(200);
      expect(await store.sessions.find('b')).toMatchObject({ createdAt: 100, lastSeenAt: 300 });
      expect((await store.sessions.find('c'))?.lastSeenAt).toBe(100);
    });

    it('IM-24: keeps where the next replay starts from the time a connection left until one resumes', async () => {
      const { store } = await fresh();
      await store.sessions.create({ sid: 'r', appkey: 'app', userId: 'alice', now: 100 });
      const from = 1_700_000_000_150;
      await store.sessions.left('r', 1_700_000_000_200, { from, except: ['m1', 'm2'] });
      expect(await store.sessions.find('r')).toMatchObject({
        lastSeenAt: 1_700_000_000_200,
        replay: { from, except: ['m1', 'm2'] },
      });
      await store.sessions.left('r', 300, { from: 250, except: [] });
      expect((await store.sessions.find('r'))?.replay).toEqual({ from: 250, except: [] });
      await store.sessions.touch('r', 400);
      expect(await store.sessions.find('r')).toMatchObject({ lastSeenAt: 400, replay: undefined });
      await store.sessions.left('r', 500, { from: 450, except: [] });
      await store.sessions.left('r', 600);
      expect(await store.sessions.find('r')).toMatchObject({ lastSeenAt: 600, replay: undefined });
      await store.sessions.left('missing', 700);
      await store.sessions.left('r', 800, { from: 750, except: ['m3'] });
      await store.sessions.touchMany(['r'], 900);
      expect(await store.sessions.find('r')).toMatchObject({ lastSeenAt: 900, replay: undefined });
    });

    it('deletes sessions last seen before a time', async () => {
      const { store } = await fresh();
      await store.sessions.create({ sid: 'old', appkey: 'app', userId: 'a', now: 100 });
      await store.sessions.create({ sid: 'edge', appkey: 'app', userId: 'b', now: 200 });
      await store.sessions.create({ sid: 'new', appkey: 'app', userId: 'c', now: 300 });
      expect(await store.sessions.deleteExpired(200)).toBe(1);
      expect(await store.sessions.find('old')).toBeUndefined();
      expect(await store.sessions.find('edge')).toBeDefined();
      expect(await store.sessions.deleteExpired(1_000)).toBe(2);
      expect(await store.sessions.deleteExpired(1_000)).toBe(0);
    });

    it('migrates idempotently and keeps data across a reopen', async () => {
      const { store, reopen } = await fresh();
      await store.sessions.create({ sid: 'kept', appkey: 'app', userId: 'a', now: 1 });
      await store.migrate();
      await store.migrate();
      const again = await reopen();
      defer(() => again.close());
      await again.migrate();
      expect(await again.sessions.find('kept')).toMatchObject({ sid: 'kept', userId: 'a' });
    });

    describeImStoreContract(fresh);
    describeCsStoreContract(fresh);
    describeMemberStoreContract(fresh);
    describeOrderStoreContract(fresh);
    describeGuaranteeStoreContract(fresh);
    describeClaimStoreContract(fresh);
    describeAnnouncementStoreContract(fresh);
    describeLiveStoreContract(fresh);
    describeLiveLinkStoreContract(fresh);
    describePubsubMessageStoreContract(fresh);
    describePubsubSessionStoreContract(fresh);

    it('closes twice without error', async () => {
      const { store } = await fresh();
      await store.close();
      await store.close();
    });
  });
}
