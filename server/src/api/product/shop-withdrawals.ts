import { SHOP_WITHDRAWAL_LIMITS } from '../../shop/withdrawals.js';
import type { ProductApiDeps } from './index.js';
import { refuse, type ProductPost } from './reply.js';
import { yuanOf } from './wallet.js';
import { accountsObject, withdrawalObject } from './withdrawals.js';

/**
 * Seller withdrawal (spec §2 shop/business-tixian), all needing the seller's `token` and an approved shop
 * (`shop_not_open` otherwise):
 * - `shop/business_tixian_info` answers `{ret: {accounts: {alipay_name, alipay_account, wechat_code}, balance,
 *   withdrawable, rules: {min, max}}}`: the accounts bound for withdrawal (renwu/tixian_band), the wallet's balance
 *   and the sales income that may be withdrawn, in yuan, and whole yuan from `min` to `max` at a time.
 * - `shop/business_tixian` (`amount` whole yuan, `type` `alipay` or `wechat`, `agree` true: the withdrawal
 *   agreement) takes the yuan from the wallet and answers `{ret: withdrawal, withdrawable}`, under review in the
 *   operator's withdrawal queue until it is paid out or rejected, which returns the yuan.
 * - `shop/business_tixian_list` (`before?`) answers `{ret: [withdrawal]}`, the seller's shop withdrawals, newest
 *   first, twenty at a time (renwu/tixian_list lists coin withdrawals only).
 *
 * A withdrawal is as renwu/tixian answers it, with `coins` 0.
 */
export function shopWithdrawalRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('shop/business_tixian_info', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const info = await deps.shopWithdrawals.info(me.value.id);
    if (!info.ok) return refuse(info.failure);
    return {
      ret: {
        accounts: accountsObject(info.value.accounts),
        balance: yuanOf(info.value.balance),
        withdrawable: yuanOf(info.value.withdrawable),
        rules: { min: SHOP_WITHDRAWAL_LIMITS.minYuan, max: SHOP_WITHDRAWAL_LIMITS.maxYuan },
      },
    };
  });

  post('shop/business_tixian', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.shopWithdrawals.withdraw(me.value.id, {
      amount: body['amount'],
      type: body['type'],
      agree: body['agree'],
    });
    if (!result.ok) return refuse(result.failure);
    return { ret: withdrawalObject(result.value.withdrawal), withdrawable: yuanOf(result.value.withdrawable) };
  });

  post('shop/business_tixian_list', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.shopWithdrawals.list(me.value.id, body['before']);
    return result.ok ? { ret: result.value.map(withdrawalObject) } : refuse(result.failure);
  });
}
