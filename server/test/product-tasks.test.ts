import { describe, expect, it } from 'vitest';
import { dayOf } from '../src/members/tasks.js';
import { type ProductServer, productServer, signIn } from './product-support.js';

const DAY = 86_400_000;
const overview = async (p: ProductServer, token: string) => (await p.call('renwu/index', { token })).ret as unknown;
const sign = (p: ProductServer, token: string) => p.call('renwu/sign', { token });

describe('product task centre: renwu', () => {
  it('days begin at the configured offset from UTC', () => {
    const time = Date.UTC(2026, 10, 27, 16, 30);
    expect(dayOf(time, 0)).toBe('2026-11-27');
    expect(dayOf(time, 480)).toBe('2026-11-28');
    expect(dayOf(time, -720)).toBe('2026-11-27');
    expect(dayOf(Date.UTC(2026, 10, 27, 3), -300)).toBe('2026-11-26');
  });

  it('pays 10 coins a day, 50 more on every seventh day in a row, once a day; a missed day starts again', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    expect(await overview(p, alice.token)).toEqual({
      signed_today: false,
      streak: 0,
      coins: 0,
      rules: { daily: 10, streak_days: 7, streak_bonus: 50 },
    });
    const first = await sign(p, alice.token);
    expect(first).toEqual({
      status: 200,
      ret: { day: dayOf(p.now(), 480), streak: 1, coins: 10, bonus: 0, balance: 10 },
    });
    expect(await sign(p, alice.token)).toMatchObject({ err: 'already signed in today', code: 'signed_already' });
    expect(await overview(p, alice.token)).toMatchObject({ signed_today: true, streak: 1, coins: 10 });

    // Six more days in a row: the seventh pays the bonus.
    for (let day = 2; day <= 7; day += 1) {
      p.advance(DAY);
      expect(await overview(p, alice.token)).toMatchObject({ signed_today: false, streak: day - 1 });
      expect((await sign(p, alice.token)).ret).toMatchObject({ streak: day, bonus: day === 7 ? 50 : 0 });
    }
    expect(await overview(p, alice.token)).toMatchObject({ streak: 7, coins: 7 * 10 + 50 });
    const ledger = (await p.call('renwu/jinbi_list', { token: alice.token })).ret as Array<Record<string, unknown>>;
    expect(ledger.slice(0, 3).map((line) => [line['kind'], line['amount']])).toEqual([
      ['streak', 50],
      ['signin', 10],
      ['signin', 10],
    ]);
    expect(ledger).toHaveLength(8);
    const rest = await p.call('renwu/jinbi_list', { token: alice.token, before: ledger[1]?.['id'] });
    expect(rest.ret).toHaveLength(6);

    // A day missed: the streak is broken, and the next sign-in starts at 1.
    p.advance(2 * DAY);
    expect(await overview(p, alice.token)).toMatchObject({ streak: 0, signed_today: false });
    expect((await sign(p, alice.token)).ret).toMatchObject({ streak: 1, bonus: 0, balance: 130 });
  });

  it('refuses a bad page and a missing token; a cancelled account takes its coins', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    for (const before of ['unknown', 7, '']) {
      expect(await p.call('renwu/jinbi_list', { token: alice.token, before }), String(before)).toMatchObject({
        code: 'bad_params',
      });
    }
    for (const path of ['renwu/index', 'renwu/sign', 'renwu/jinbi_list']) {
      expect(await p.call(path, { token: 'nope' }), path).toMatchObject({ code: 'token_invalid' });
    }
    await sign(p, alice.token);
    await p.call('member/out', { token: alice.token, reason: 'moving', agree: true });
    const again = await signIn(p);
    expect(await overview(p, again.token)).toMatchObject({ coins: 0, streak: 0 });
  });
});
