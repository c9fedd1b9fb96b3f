import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorBlock, List } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { usePagedList } from '../../features/api/paged';
import { PagedList } from '../../features/api/PagedList';
import { QueryView } from '../../features/api/QueryView';
import { SHOP_QUERY } from '../../features/shop/api';
import {
  requestShopWithdrawal,
  shopWithdrawalInfo,
  shopWithdrawalPage,
  type ShopWithdrawalInfo,
} from '../../features/shop/withdrawals';
import { boundText, firstPayout, PayoutChoice, WithdrawalItem } from '../../features/tasks/PayoutViews';
import type { PayoutType } from '../../features/tasks/withdrawals';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';
import { WithdrawAmount, WithdrawSubmit } from '../renwu/WithdrawFields';
import '../renwu/renwu.css';

/** The query key of the seller's withdrawal data: the info, then the records. */
const WITHDRAW_QUERY = [SHOP_QUERY, 'withdraw'] as const;

/** The form, once the income, the accounts and the rules are known. */
function ShopWithdrawalForm({ info }: { info: ShopWithdrawalInfo }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const { min, max } = info.rules;
  const [amount, setAmount] = useState('');
  const [type, setType] = useState<PayoutType>(firstPayout(info.accounts));
  const [agree, setAgree] = useState(false);
  const [sending, setSending] = useState(false);
  const whole = Math.floor(info.withdrawable);

  const send = async () => {
    if (!agree) return toastError(t('errors.withdraw_agreement_required'));
    if (!/^\d+$/.test(amount.trim())) return toastError(t('errors.withdraw_amount_invalid'));
    const yuan = Number(amount.trim());
    if (yuan < min || yuan > max) return toastError(t('errors.shop_withdraw_amount_range'));
    if (boundText(info.accounts, type, t) === undefined) return toastError(t('errors.withdraw_account_missing'));
    if (yuan > info.withdrawable) return toastError(t('errors.income_insufficient'));
    setSending(true);
    try {
      await requestShopWithdrawal(yuan, type, { token: user?.token, locale: i18n.language });
      toast(t('withdraw.done'));
      setAmount('');
    } catch (error) {
      toastError(errorText(error, t));
    } finally {
      setSending(false);
    }
    await queryClient.invalidateQueries({ queryKey: [SHOP_QUERY] });
  };

  return (
    <>
      <section className="tasks-head">
        <div className="tasks-coins">
          <strong data-testid="withdrawable">{info.withdrawable}</strong>
          <span>{t('shopWithdraw.withdrawable')}</span>
        </div>
        <div className="tasks-streak">{t('shopWithdraw.balance', { balance: info.balance })}</div>
      </section>
      <WithdrawAmount
        value={amount}
        onChange={setAmount}
        all={whole}
        rule={t('shopWithdraw.rule', { min, max })}
        min={min}
        max={max}
      />
      <PayoutChoice accounts={info.accounts} value={type} onChange={setType} />
      <WithdrawSubmit agree={agree} onAgree={setAgree} sending={sending} onSend={() => void send()} />
    </>
  );
}

/** The seller's shop withdrawals, newest first, twenty at a time. */
function ShopWithdrawalRecords() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const context = { token: user?.token, locale: i18n.language };
  const list = usePagedList(
    [...WITHDRAW_QUERY, user?.id, 'records'],
    (before) => shopWithdrawalPage(before, context),
    user !== null,
  );
  return (
    <PagedList list={list} empty={<ErrorBlock status="empty" title={t('shopWithdraw.noRecords')} description="" />}>
      {(items) => (
        <List header={t('shopWithdraw.records')}>
          {items.map((item) => (
            <WithdrawalItem key={item.id} item={item} rejected={t('shopWithdraw.status_rejected')} />
          ))}
        </List>
      )}
    </PagedList>
  );
}

/**
 * Seller withdrawal (spec §2 shop/business-tixian, §5: the withdrawal agreement agreed, the amount a whole number, an
 * account bound): the sales income that may be withdrawn and the balance, the amount in whole yuan with All, Alipay
 * or WeChat as bound for coin withdrawal, the agreement in a sheet; then the seller's withdrawals below, each under
 * review until the operator pays it out or rejects it, which returns the money to the wallet.
 */
export default function ShopWithdraw() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const query = useQuery({
    queryKey: [...WITHDRAW_QUERY, user?.id, 'info'],
    queryFn: () => shopWithdrawalInfo({ token: user?.token, locale: i18n.language }),
    enabled: user !== null,
    retry: false,
  });
  if (!user) return null;
  return (
    <div className="page">
      <NavBar title={t('shopWithdraw.title')} />
      <QueryView query={query}>
        {(data) => (
          <>
            <ShopWithdrawalForm info={data} />
            <ShopWithdrawalRecords />
          </>
        )}
      </QueryView>
    </div>
  );
}
