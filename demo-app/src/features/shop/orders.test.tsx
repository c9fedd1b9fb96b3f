// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { linesTotal, logisticsProblem, parsePaymentItems, paymentTarget } from './orders';

describe('orders: what the pages check before calling the server', () => {
  it('carries the payment page lines in its route and reads them back', () => {
    const lines = [
      { id: 'a1b2', num: 2 },
      { id: 'c3', num: 99 },
    ];
    const target = paymentTarget(lines);
    expect(target).toBe(`shop/payment?items=${encodeURIComponent('a1b2:2,c3:99')}`);
    expect(parsePaymentItems(new URLSearchParams(target.split('?')[1]).get('items'))).toEqual(lines);
  });

  it('refuses lines the server would (order_items_invalid): 1 to 20 different products, 1 to 99 of each', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `p${i}:1`).join(',');
    expect(parsePaymentItems(many(20))).toHaveLength(20);
    for (const param of [null, '', 'p1', 'p1:0', 'p1:100', 'p1:-1', 'p1:1.5', ':1', 'p1:1,p1:2', many(21)]) {
      expect(parsePaymentItems(param)).toBeUndefined();
    }
  });

  it('checks logistics as the server does: a company of 1 to 20 characters, a number of 4 to 40 [A-Za-z0-9-]', () => {
    const good = { company: ' SF Express ', number: ' SF-1234 ' };
    expect(logisticsProblem(good)).toBeUndefined();
    expect(logisticsProblem({ ...good, company: '顺'.repeat(20) })).toBeUndefined();
    expect(logisticsProblem({ ...good, company: '顺'.repeat(21) })).toBe('logistics_company_invalid');
    expect(logisticsProblem({ ...good, company: ' ' })).toBe('logistics_company_invalid');
    expect(logisticsProblem({ ...good, company: 'SF\nExpress' })).toBe('logistics_company_invalid');
    expect(logisticsProblem({ ...good, number: 'a'.repeat(40) })).toBeUndefined();
    for (const number of ['abc', 'a'.repeat(41), 'SF 1234', 'SF_1234', '顺丰1234']) {
      expect(logisticsProblem({ ...good, number })).toBe('logistics_number_invalid');
    }
  });

  it('adds money up in fen, so that no cent is lost', () => {
    expect(linesTotal([])).toBe(0);
    expect(linesTotal([{ price: 0.1, num: 3 }])).toBe(0.3);
    expect(
      linesTotal([
        { price: 12.5, num: 3 },
        { price: 8.1, num: 1 },
      ]),
    ).toBe(45.6);
  });
});
