import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { QueryView } from '../../features/api/QueryView';
import { TASKS_QUERY } from '../../features/tasks/api';
import { boundText, firstPayout, PayoutChoice } from '../../features/tasks/PayoutViews';
import {
  requestWithdrawal,
  withdrawalInfo,
  type PayoutType,
  type WithdrawalInfo,
} from '../../features/tasks/withdrawals';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';
import { WithdrawAmount, WithdrawSubmit } from './WithdrawFields';
import './renwu.css';

/** The form, once the coins, the accounts and the rules are known. */
function WithdrawalForm({ info }: { info: WithdrawalInfo }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const queryClient = useQueryClient();
  const { coins_per_yuan: rate, min, max } = info.rules;
  const [amount, setAmount] = useState('');
  const [type, setType] = useState<PayoutType>(firstPayout(info.accounts));
  const [agree, setAgree] = useState(false);
  const [sending, setSending] = useState(false);
  const worth = Math.floor(info.coins / rate);

  const send = async () => {
    // Spec §5: the withdrawal agreement must be agreed first.
    if (!agree) return toastError(t('errors.withdraw_agreement_required'));
    if (!/^\d+$/.test(amount.trim())) return toastError(t('errors.withdraw_amount_invalid'));
    const yuan = Number(amount.trim());
    if (yuan < min || yuan > max) return toastError(t('errors.withdraw_amount_range'));
    if (yuan > worth) return toastError(t('errors.coins_insufficient'));
    if (boundText(info.accounts, type, t) === undefined) return toastError(t('errors.withdraw_account_missing'));
    setSending(true);
    try {
      await requestWithdrawal(yuan, type, { token: user?.token, locale: i18n.language });
      toast(t('withdraw.done'));
      setAmount('');
      open('renwu/tixian_list');
    } catch (error) {
      toastError(errorText(error, t));
    } finally {
      setSending(false);
    }
    await queryClient.invalidateQueries({ queryKey: [TASKS_QUERY] });
  };

  return (
    <>
      <section className="tasks-head">
        <div className="tasks-coins">
          <strong data-testid="coins">{info.coins}</strong>
          <span>{t('withdraw.coins')}</span>
        </div>
        <div className="tasks-streak">{t('withdraw.worth', { yuan: worth })}</div>
      </section>
      <WithdrawAmount
        value={amount}
        onChange={setAmount}
        all={worth}
        rule={t('withdraw.rate', { coins: rate, min, max })}
        min={min}
        max={max}
      />
      <PayoutChoice accounts={info.accounts} value={type} onChange={setType} />
      <WithdrawSubmit agree={agree} onAgree={setAgree} sending={sending} onSend={() => void send()} />
    </>
  );
}

/**
 * Coin withdrawal (spec §2 renwu/tixian, §5: the amount a whole number, an account bound, the withdrawal agreement
 * agreed): the coins and what they are worth, the amount in whole yuan, Alipay or WeChat with what is bound, and the
 * agreement in a sheet. Submitted, it is under review until the operator pays it out or rejects it.
 */
export default function Withdraw() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const query = useQuery({
    queryKey: [TASKS_QUERY, user?.id, 'withdraw'],
    queryFn: () => withdrawalInfo({ token: user?.token, locale: i18n.language }),
    enabled: user !== null,
    retry: false,
  });
  if (!user) return null;

  return (
    <div className="page">
      <NavBar
        title={t('withdraw.title')}
        right={
          <button type="button" className="feedback-mine" onClick={() => open('renwu/tixian_list')}>
            {t('withdraw.records')}
          </button>
        }
      />
      <QueryView query={query}>{(data) => <WithdrawalForm info={data} />}</QueryView>
    </div>
  );
}
