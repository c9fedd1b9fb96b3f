import { describe, expect, it } from 'vitest';
import { USER_BUDGET_FACTOR, UserBudgets } from '../src/gateway/user-budgets.js';

describe('UserBudgets', () => {
  it('WIRE-9: one budget per user of an app, kept while the user has a connection', () => {
    const budgets = new UserBudgets({ perSecond: 1, burst: 1 });
    const a1 = budgets.attach('app', 'alice', 'c1', 0);
    expect(budgets.attach('app', 'alice', 'c2', 0)).toBe(a1);
    expect(budgets.attach('other-app', 'alice', 'c3', 0)).not.toBe(a1);
    expect(budgets.attach('app', 'bob', 'c4', 0)).not.toBe(a1);
    expect(Array.from({ length: USER_BUDGET_FACTOR + 1 }, () => a1.take(0))).toEqual([
      ...Array<boolean>(USER_BUDGET_FACTOR).fill(true),
      false,
    ]);
    budgets.detach('app', 'alice', 'c1');
    expect(budgets.attach('app', 'alice', 'c5', 0)).toBe(a1);
    budgets.detach('app', 'alice', 'c2');
    budgets.detach('app', 'alice', 'c5');
    expect(budgets.size).toBe(2);
    // Gone with the last connection: a new one starts full.
    expect(budgets.attach('app', 'alice', 'c6', 0).take(0)).toBe(true);
    budgets.detach('app', 'ghost', 'c7');
    expect(budgets.size).toBe(3);
  });

  it('WIRE-10: claims a place among the user connections while fewer than the bound are counted', () => {
    const budgets = new UserBudgets({ perSecond: 1, burst: 1 });
    const bucket = budgets.claim('app', 'alice', 'c1', 2, 0);
    expect(bucket).toBeDefined();
    expect(budgets.claim('app', 'alice', 'c2', 2, 0)).toBe(bucket);
    expect(budgets.claim('app', 'alice', 'c3', 2, 0)).toBeUndefined();
    // A counted connection claims again; the refused one was not counted.
    expect(budgets.claim('app', 'alice', 'c1', 2, 0)).toBe(bucket);
    budgets.detach('app', 'alice', 'c3');
    expect(budgets.claim('app', 'alice', 'c4', 2, 0)).toBeUndefined();
    budgets.detach('app', 'alice', 'c1');
    expect(budgets.claim('app', 'alice', 'c4', 2, 0)).toBe(bucket);
    expect(budgets.claim('app', 'bob', 'c5', 2, 0)).toBeDefined();
  });
});
