import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, type StoreConfig } from '../src/store/index.js';
import { defer, storesUnderTest, tempDir } from './helpers.js';
import { rawDatabase } from './migration-support.js';

type Tables = { circle_posts: Record<string, unknown> };

describe.each(storesUnderTest())('migration 0054_circle_titles, on %s', (_name, config) => {
  it('gives the posts there were the empty title, which the store reads and lists, and goes back down', async () => {
    const dir = tempDir();
    const settings = { dataDir: dir, sqlite: join(dir, 'parley.db'), ...config() } as StoreConfig;
    const raw = await rawDatabase<Tables>(settings);
    expect((await raw.migrator.migrateTo('0053_webhook_deliveries')).error).toBeUndefined();
    const old = { id: 'p1', member_id: 'm1', content: 'Spring at the lake', images: '[]', created_at: 10 };
    await raw.db.insertInto('circle_posts').values(old).execute();
    await raw.db.destroy();

    const store = await openStore(settings);
    defer(() => store.close());
    const member = { phone: '13300133000', username: 'user3000', img: '', notifyBadge: 0, usernameChangedAt: null };
    await store.members.insert({ id: 'm1', createdAt: 0, ...member });
    const read = {
      id: 'p1',
      memberId: 'm1',
      title: '',
      content: 'Spring at the lake',
      images: [],
      vote: null,
      video: null,
      topicId: null,
      createdAt: 10,
    };
    expect(await store.circle.byId('p1')).toEqual(read);
    expect(await store.circle.list({ limit: 10 })).toEqual([read]);
    await store.close();

    const again = await rawDatabase<Tables>(settings);
    defer(() => again.db.destroy());
    expect((await again.migrator.migrateTo('0053_webhook_deliveries')).error).toBeUndefined();
    const [row] = await again.db.selectFrom('circle_posts').selectAll().execute();
    expect(row).toMatchObject({ id: 'p1', content: 'Spring at the lake' });
    expect(row).not.toHaveProperty('title');
    expect((await again.migrator.migrateToLatest()).error).toBeUndefined();
  });
});
