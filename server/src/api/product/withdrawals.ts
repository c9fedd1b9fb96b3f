import { WITHDRAWAL_LIMITS } from '../../members/withdrawals.js';
import type { PayoutAccounts, WithdrawalRecord } from '../../store/index.js';
import { ownImages } from './images.js';
import type { ProductApiDeps } from './index.js';
import { refuse, type ProductPost } from './reply.js';

/** The bound accounts as their member sees them: all of it, their own. */
export function accountsObject(accounts: PayoutAccounts) {
  return {
    alipay_name: accounts.alipayName,
    alipay_account: accounts.alipayAccount,
    wechat_code: accounts.wechatCode,
  };
}

/** An account number with its middle hidden (a phone's 4 middle digits, an email's name but its first letter). */
export function maskAccount(account: string): string {
  const at = account.indexOf('@');
  if (at > 0) return `${account[0] ?? ''}***${account.slice(at)}`;
  return account.length > 7 ? `${account.slice(0, 3)}****${account.slice(-4)}` : account;
}

/** A withdrawal as its member lists it: where it went, masked, and where its review stands. */
export function withdrawalObject(record: WithdrawalRecord) {
  return {
    id: record.id,
    amount: record.amount,
    coins: record.coins,
    type: record.method,
    account: record.method === 'alipay' ? maskAccount(record.account) : '',
    status: record.status,
    reason: record.reason,
    created_at: record.createdAt,
    reviewed_at: record.reviewedAt ?? null,
  };
}

/**
 * Coin withdrawal (spec §2 renwu: tixian_band, tixian, tixian_list), all needing the member's `token`:
 * - `renwu/tixian_info` answers `{ret: {accounts: {alipay_name, alipay_account, wechat_code}, coins, rules:
 *   {coins_per_yuan, min, max}}}`: what is bound (empty when not), the member's gold coins, and whole yuan from `min`
 *   to `max` at `coins_per_yuan` coins each.
 * - `renwu/tixian_band` binds `{type: 'alipay', name, account}` (the holder's real name; a mainland mobile number or
 *   an email address) or `{type: 'wechat', img}` (the receipt code, an image the member uploaded); answers `{ret:
 *   accounts}`.
 * - `renwu/tixian` (`amount` whole yuan, `type` `alipay` or `wechat`, `agree` true: the withdrawal agreement) takes
 *   the coins and answers `{ret: withdrawal, balance}`, under review until the operator pays it out or rejects it.
 * - `renwu/tixian_list` (`before?`) answers `{ret: [withdrawal]}`, newest first, twenty at a time.
 *
 * A withdrawal is `{id, amount, coins, type, account (Alipay's, masked), status (pending, paid, rejected), reason,
 * created_at, reviewed_at}`.
 */
export function withdrawalRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('renwu/tixian_info', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const [accounts, overview] = await Promise.all([
      deps.withdrawals.accounts(me.value.id),
      deps.tasks.overview(me.value.id),
    ]);
    return {
      ret: {
        accounts: accountsObject(accounts),
        coins: overview.coins,
        rules: {
          coins_per_yuan: WITHDRAWAL_LIMITS.coinsPerYuan,
          min: WITHDRAWAL_LIMITS.minYuan,
          max: WITHDRAWAL_LIMITS.maxYuan,
        },
      },
    };
  });

  post('renwu/tixian_band', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const code =
      body['type'] === 'wechat' && typeof body['img'] === 'string'
        ? (await ownImages(deps, me.value.id, [body['img']], 1))?.[0]
        : undefined;
    const result = await deps.withdrawals.bind(me.value.id, {
      type: body['type'],
      name: body['name'],
      account: body['account'],
      code,
    });
    return result.ok ? { ret: accountsObject(result.value) } : refuse(result.failure);
  });

  post('renwu/tixian', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.withdrawals.withdraw(me.value.id, {
      amount: body['amount'],
      type: body['type'],
      agree: body['agree'],
    });
    if (!result.ok) return refuse(result.failure);
    const { coins } = await deps.tasks.overview(me.value.id);
    return { ret: withdrawalObject(result.value), balance: coins };
  });

  post('renwu/tixian_list', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.withdrawals.list(me.value.id, body['before']);
    return result.ok ? { ret: result.value.map(withdrawalObject) } : refuse(result.failure);
  });
}
