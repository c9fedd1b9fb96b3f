import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, type StoreConfig } from '../src/store/index.js';
import { defer, storesUnderTest, tempDir } from './helpers.js';
import { migrationBefore, rawDatabase } from './migration-support.js';

type Tables = { member_recharges: Record<string, unknown> };

describe.each(storesUnderTest())('migration 0056_recharge_orders, on %s', (_name, config) => {
  it('leaves the recharges there were paying no orders, which the store reads, and goes back down', async () => {
    const dir = tempDir();
    const settings = { dataDir: dir, sqlite: join(dir, 'parley.db'), ...config() } as StoreConfig;
    const raw = await rawDatabase<Tables>(settings);
    const before = await migrationBefore('0056_recharge_orders');
    expect((await raw.migrator.migrateTo(before)).error).toBeUndefined();
    const old = { id: 'r1', member_id: 'm1', amount: 5_000, method: 'alipay', status: 'unpaid', created_at: 10 };
    await raw.db.insertInto('member_recharges').values(old).execute();
    await raw.db.destroy();

    const store = await openStore(settings);
    defer(() => store.close());
    expect(await store.wallet.find('r1')).toMatchObject({ id: 'r1', amount: 5_000, status: 'unpaid', orderCode: '' });
    expect(await store.wallet.forOrder('m1', '')).toMatchObject({ id: 'r1' });
    await store.close();

    const again = await rawDatabase<Tables>(settings);
    defer(() => again.db.destroy());
    expect((await again.migrator.migrateTo(before)).error).toBeUndefined();
    const [row] = await again.db.selectFrom('member_recharges').selectAll().execute();
    expect({ id: row?.['id'], amount: Number(row?.['amount']) }).toEqual({ id: 'r1', amount: 5_000 });
    expect(row).not.toHaveProperty('order_code');
    expect((await again.migrator.migrateToLatest()).error).toBeUndefined();
  });
});
