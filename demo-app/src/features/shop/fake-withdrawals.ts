import { http, HttpResponse } from 'msw';
import { PAGE_SIZE } from '../api/paged';
import type { PayoutAccounts, Withdrawal } from '../tasks/withdrawals';
import type { FakeRefundKit } from './fake-refunds';

/** The seller's withdrawal side of the fake shop: bound accounts, money in yuan, their shop withdrawals. */
export interface FakeShopWithdrawals {
  accounts: PayoutAccounts;
  balance: number;
  /** Sales income not yet withdrawn, at most the balance. */
  withdrawable: number;
  /** Newest first. */
  records: Withdrawal[];
}

/** No account bound, no money, no withdrawals. */
export const emptyShopWithdrawals = (): FakeShopWithdrawals => ({
  accounts: { alipay_name: '', alipay_account: '', wechat_code: '' },
  balance: 0,
  withdrawable: 0,
  records: [],
});

/** A shop withdrawal to Alipay, under review unless told. */
export function fakeShopWithdrawal(id: string, extra: Partial<Withdrawal> = {}): Withdrawal {
  return {
    id,
    amount: 10,
    coins: 0,
    type: 'alipay',
    account: '138****8000',
    status: 'pending',
    reason: '',
    created_at: 1_700_000_000_000,
    reviewed_at: null,
    ...extra,
  };
}

/**
 * The seller withdrawal calls of the fake shop (spec §2 shop/business-tixian), answered as the server does: only a
 * seller whose shop is open; a withdrawal is checked in spec §5 order and takes its yuan from the balance and from
 * the withdrawable income at once, one under review at a time. The state is `state.withdrawals`.
 */
export function withdrawalHandlers({ state, record, refused }: FakeRefundKit) {
  const notOpen = () => refused('shop_not_open', 'please open a shop first');
  const open = () => state.myShop?.status === 'approved';
  return [
    http.post('*/index.php/api/shop/business_tixian_info', () => {
      if (!open()) return notOpen();
      const { accounts, balance, withdrawable } = state.withdrawals;
      return HttpResponse.json({ ret: { accounts, balance, withdrawable, rules: { min: 1, max: 50_000 } } });
    }),
    http.post('*/index.php/api/shop/business_tixian', async ({ request }) => {
      const { body, refusal } = await record('shop/business_tixian', request);
      if (refusal) return HttpResponse.json(refusal);
      if (!open()) return notOpen();
      const mine = state.withdrawals;
      const amount = body['amount'];
      if (body['agree'] !== true)
        return refused('withdraw_agreement_required', 'please agree to the withdrawal agreement');
      if (typeof amount !== 'number' || !Number.isInteger(amount))
        return refused('withdraw_amount_invalid', 'the amount must be an integer');
      if (amount < 1 || amount > 50_000)
        return refused('shop_withdraw_amount_range', 'withdraw 1 to 50000 yuan at a time');
      const bound = body['type'] === 'alipay' ? mine.accounts.alipay_account : mine.accounts.wechat_code;
      if (!bound) return refused('withdraw_account_missing', 'please bind the withdrawal account first');
      if (mine.records.some((item) => item.status === 'pending'))
        return refused('withdraw_pending', 'a withdrawal is under review');
      if (amount > mine.withdrawable) return refused('income_insufficient', 'not enough income to withdraw');
      const withdrawal = fakeShopWithdrawal(`sw${mine.records.length + 1}`, {
        amount,
        type: body['type'] as Withdrawal['type'],
        account: body['type'] === 'alipay' ? '138****8000' : '',
      });
      state.withdrawals = {
        ...mine,
        balance: mine.balance - amount,
        withdrawable: mine.withdrawable - amount,
        records: [withdrawal, ...mine.records],
      };
      return HttpResponse.json({ ret: withdrawal, withdrawable: state.withdrawals.withdrawable });
    }),
    http.post('*/index.php/api/shop/business_tixian_list', async ({ request }) => {
      const { body } = await record('shop/business_tixian_list', request);
      if (!open()) return notOpen();
      const { records } = state.withdrawals;
      const from = body['before'] === undefined ? 0 : records.findIndex((item) => item.id === body['before']) + 1;
      return HttpResponse.json({ ret: records.slice(from, from + PAGE_SIZE) });
    }),
  ];
}
