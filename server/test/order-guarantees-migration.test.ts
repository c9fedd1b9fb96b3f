import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, type StoreConfig } from '../src/store/index.js';
import { defer, storesUnderTest, tempDir } from './helpers.js';
import { rawDatabase } from './migration-support.js';

type Tables = { orders: Record<string, unknown> };

/** An order as the schema before 0055 held it: m3 bought from m1's shop, paid at 20, then `extra`. */
const order = (id: string, status: string, extra: Record<string, unknown>) => ({
  id,
  code: `c-${id}`,
  buyer_id: 'm3',
  seller_id: 'm1',
  shop_id: 's-m1',
  status,
  total: 2_500,
  pay_method: 'balance',
  address: JSON.stringify({ name: 'Li Lei', phone: '13800138000', region: 'Beijing', detail: '1 Road' }),
  created_at: 10,
  paid_at: 20,
  ...extra,
});

describe.each(storesUnderTest())('migration 0055_order_guarantees, on %s', (_name, config) => {
  it('counts orders completed or refunded before as settled, so their sellers are never paid twice; goes back down', async () => {
    const dir = tempDir();
    const settings = { dataDir: dir, sqlite: join(dir, 'parley.db'), ...config() } as StoreConfig;
    const raw = await rawDatabase<Tables>(settings);
    expect((await raw.migrator.migrateTo('0054_circle_titles')).error).toBeUndefined();
    await raw.db
      .insertInto('orders')
      .values([
        order('o1', 'completed', { shipped_at: 25, completed_at: 30 }),
        order('o2', 'refunded', { closed_at: 40 }),
        order('o3', 'shipped', { shipped_at: 25 }),
      ])
      .execute();
    await raw.db.destroy();

    const store = await openStore(settings);
    defer(() => store.close());
    expect(await store.orders.byId('o1')).toMatchObject({ status: 'completed', settledAt: 30, compensation: 0 });
    expect(await store.orders.byId('o2')).toMatchObject({ status: 'refunded', settledAt: 40 });
    const shipped = await store.orders.byId('o3');
    expect(shipped).toMatchObject({ status: 'shipped', compensation: 0 });
    expect(shipped).not.toHaveProperty('settledAt');
    const all = { returnBefore: 1_000_000, lateBefore: 0, compensation: 300, now: 1_000_000, limit: 10 };
    expect(await store.orders.settleGuarantees(all)).toEqual([]);
    expect((await store.wallet.balance('m1')).balance).toBe(0);
    await store.close();

    const again = await rawDatabase<Tables>(settings);
    defer(() => again.db.destroy());
    expect((await again.migrator.migrateTo('0054_circle_titles')).error).toBeUndefined();
    const rows = await again.db.selectFrom('orders').selectAll().orderBy('id').execute();
    expect(rows.map((row) => row['id'])).toEqual(['o1', 'o2', 'o3']);
    expect(rows[0]).not.toHaveProperty('settled_at');
    expect(rows[0]).not.toHaveProperty('compensation');
    expect((await again.migrator.migrateToLatest()).error).toBeUndefined();
  });
});
