import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, type StoreConfig } from '../src/store/index.js';
import { defer, storesUnderTest, tempDir } from './helpers.js';
import { migrationBefore, rawDatabase } from './migration-support.js';

type Tables = { orders: Record<string, unknown>; product_categories: Record<string, unknown> };

describe.each(storesUnderTest())('migration 0057_order_claims, on %s', (_name, config) => {
  it('leaves the categories there were not fresh and the orders there were with no claim, which the store reads; goes back down', async () => {
    const dir = tempDir();
    const settings = { dataDir: dir, sqlite: join(dir, 'parley.db'), ...config() } as StoreConfig;
    const raw = await rawDatabase<Tables>(settings);
    const before = await migrationBefore('0057_order_claims');
    expect((await raw.migrator.migrateTo(before)).error).toBeUndefined();
    await raw.db
      .insertInto('product_categories')
      .values({ id: 'c1', name: 'Fruit', position: 0, created_at: 5, deleted_at: null })
      .execute();
    await raw.db
      .insertInto('orders')
      .values({
        id: 'o1',
        code: 'k1',
        buyer_id: 'm3',
        seller_id: 'm1',
        shop_id: 's-m1',
        status: 'completed',
        total: 2_500,
        pay_method: 'balance',
        address: JSON.stringify({ name: 'Li Lei', phone: '13800138000', region: 'Beijing', detail: '1 Road' }),
        created_at: 10,
        paid_at: 20,
        shipped_at: 25,
        completed_at: 30,
        settled_at: 30,
      })
      .execute();
    await raw.db.destroy();

    const store = await openStore(settings);
    defer(() => store.close());
    expect(await store.products.category('c1')).toEqual({
      id: 'c1',
      name: 'Fruit',
      position: 0,
      fresh: false,
      createdAt: 5,
    });
    const order = await store.orders.byId('o1');
    expect(order).toMatchObject({ status: 'completed', claimsDecided: [], fresh: false });
    expect(order).not.toHaveProperty('claim');
    expect(await store.orders.claims({ status: 'pending', limit: 10 })).toEqual([]);
    await store.close();

    const again = await rawDatabase<Tables>(settings);
    defer(() => again.db.destroy());
    expect((await again.migrator.migrateTo(before)).error).toBeUndefined();
    const [row] = await again.db.selectFrom('orders').selectAll().execute();
    expect(row).toMatchObject({ id: 'o1', status: 'completed' });
    expect(row).not.toHaveProperty('claim_status');
    const [category] = await again.db.selectFrom('product_categories').selectAll().execute();
    expect(category).not.toHaveProperty('fresh');
    expect((await again.migrator.migrateToLatest()).error).toBeUndefined();
  });
});
