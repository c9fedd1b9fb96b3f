// @vitest-environment jsdom
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../api/request';
import { fakeProduct, fakeShop } from './fake-shop';
import { daysAgo, markDays, unmarkProducts, type MarkedProduct } from './marks';
import { NO_ADS } from '../../test-utils';

const shop = fakeShop();
const api = setupServer(NO_ADS, ...shop.handlers);
const context = { token: 'member-token', locale: 'en' };

beforeAll(() => api.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => shop.reset());
afterAll(() => api.close());

/** Local time on 2025-03-`day` at `hour`. */
const at = (day: number, hour: number) => new Date(2025, 2, day, hour).getTime();
const marked = (id: string, time: number): MarkedProduct => ({ ...fakeProduct(id), marked_at: time });

describe('the days of a list (spec §2 shop/history)', () => {
  it('groups products by the local day they entered the list, keeping their order', () => {
    const products = [marked('a', at(9, 23)), marked('b', at(9, 0)), marked('c', at(8, 23)), marked('d', at(1, 8))];
    expect(markDays(products).map(({ day, products: ofDay }) => [day, ofDay.map((product) => product.id)])).toEqual([
      [at(9, 0), ['a', 'b']],
      [at(8, 0), ['c']],
      [at(1, 0), ['d']],
    ]);
    expect(markDays([])).toEqual([]);
  });

  it('counts calendar days back from now, not 24-hour spans', () => {
    expect(daysAgo(at(9, 0), at(9, 23))).toBe(0);
    // One minute past midnight, a look of a minute before is yesterday's.
    expect(daysAgo(at(8, 0), new Date(2025, 2, 9, 0, 1).getTime())).toBe(1);
    expect(daysAgo(at(1, 0), at(9, 12))).toBe(8);
    expect(daysAgo(new Date(2024, 11, 31).getTime(), at(1, 1))).toBe(60);
  });
});

describe('taking products out of a list', () => {
  it('sends at most 100 ids a call, and counts what all calls took out', async () => {
    shop.state.favourites = Array.from({ length: 250 }, (_, n) => ({ id: `p${n}`, marked_at: n }));
    const ids = shop.state.favourites.slice(0, 230).map((mark) => mark.id);
    await expect(unmarkProducts('favourites', ids, context)).resolves.toBe(230);
    expect(shop.sent.map((call) => [call.path, (call.body['ids'] as string[]).length])).toEqual([
      ['shop/shoucang_del', 100],
      ['shop/shoucang_del', 100],
      ['shop/shoucang_del', 30],
    ]);
    expect(shop.sent.flatMap((call) => call.body['ids'])).toEqual(ids);
    expect(shop.state.favourites).toHaveLength(20);
  });

  it('clears a whole list with one call without ids, and rejects with the refusal', async () => {
    shop.state.history = [{ id: 'p1', marked_at: 1 }];
    await expect(unmarkProducts('history', 'all', context)).resolves.toBe(1);
    expect(shop.sent.map((call) => call.path)).toEqual(['shop/history_del']);
    expect(shop.sent[0]?.body).not.toHaveProperty('ids');
    expect(shop.state.history).toEqual([]);
    shop.state.refuse['shop/history_del'] = { err: 'account expired', code: 'token_invalid' };
    const refusal = unmarkProducts('history', ['p1'], context);
    await expect(refusal).rejects.toBeInstanceOf(ApiError);
    await expect(refusal).rejects.toMatchObject({ code: 'token_invalid', refused: true, message: 'account expired' });
  });
});
