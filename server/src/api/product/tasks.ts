import type { ProductApiDeps } from './index.js';
import { refuse, type ProductPost } from './reply.js';

/**
 * The task centre (spec §2 renwu): `renwu/index` answers `{ret: {signed_today, streak, coins, rules: {daily,
 * streak_days, streak_bonus}}}`; `renwu/sign` signs the member in for today and answers `{ret: {day, streak, coins,
 * bonus, balance}}` (`coins` and `bonus` what the day paid), or `signed_already`; `renwu/jinbi_list` (`before?`)
 * answers the coin ledger `{ret: [{id, amount, kind, created_at}]}`, newest first, twenty at a time. All need the
 * member's `token`.
 */
export function taskRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('renwu/index', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const { signedToday, streak, coins, rules } = await deps.tasks.overview(me.value.id);
    return {
      ret: {
        signed_today: signedToday,
        streak,
        coins,
        rules: { daily: rules.daily, streak_days: rules.streakDays, streak_bonus: rules.streakBonus },
      },
    };
  });

  post('renwu/sign', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.tasks.signIn(me.value.id);
    if (!result.ok) return refuse(result.failure);
    const { signIn, coins } = result.value;
    return {
      ret: { day: signIn.day, streak: signIn.streak, coins: signIn.coins, bonus: signIn.bonus, balance: coins },
    };
  });

  post('renwu/jinbi_list', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.tasks.coins(me.value.id, body['before']);
    if (!result.ok) return refuse(result.failure);
    return {
      ret: result.value.map((line) => ({
        id: line.id,
        amount: line.amount,
        kind: line.kind,
        created_at: line.createdAt,
      })),
    };
  });
}
