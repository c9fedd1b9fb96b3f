import { describe, expect, it } from 'vitest';
import { createOrderService, ORDER_LIMITS } from '../src/shop/orders.js';
import type { AddressStore, OrderRecord, OrderStore } from '../src/store/index.js';

/** An order store whose stale orders come `backlog` at most `limit` at a time; counts the batches asked for. */
function staleStore(backlog: number) {
  let left = backlog;
  const asked: number[] = [];
  const store = {
    settleStale({ limit }: { limit: number }) {
      asked.push(limit);
      const n = Math.min(left, limit);
      left -= n;
      return Promise.resolve(Array.from({ length: n }, () => ({ status: 'cancelled' }) as OrderRecord));
    },
    settleRefunds: () => Promise.resolve([]),
    settleGuarantees: () => Promise.resolve([]),
  };
  return { orders: store as unknown as OrderStore, asked, left: () => left };
}

const service = (orders: OrderStore) =>
  createOrderService({ orders, addresses: {} as AddressStore, now: () => 1_000_000 });

describe('the orders’ sweep', () => {
  it('settles batch after batch while they come back full, and stops at the first that is not', async () => {
    const store = staleStore(ORDER_LIMITS.settleBatch * 2 + 5);
    expect(await service(store.orders).sweep()).toBe(ORDER_LIMITS.settleBatch * 2 + 5);
    expect(store.asked).toHaveLength(3);
    expect(store.left()).toBe(0);
  });

  it('stops after its rounds however much waits, and a call settles one batch only', async () => {
    const store = staleStore(ORDER_LIMITS.settleBatch * (ORDER_LIMITS.sweepRounds + 3));
    const orders = service(store.orders);
    expect(await orders.sweep()).toBe(ORDER_LIMITS.settleBatch * ORDER_LIMITS.sweepRounds);
    expect(store.asked).toHaveLength(ORDER_LIMITS.sweepRounds);
    await orders.settle();
    expect(store.left()).toBe(ORDER_LIMITS.settleBatch * 2);
  });

  it('moves nothing when nothing waits', async () => {
    const store = staleStore(0);
    expect(await service(store.orders).sweep()).toBe(0);
    expect(store.asked).toHaveLength(1);
  });
});
