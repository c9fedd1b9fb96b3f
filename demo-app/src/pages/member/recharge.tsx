import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Input, List, Radio } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { QueryView } from '../../features/api/QueryView';
import {
  WALLET_QUERY,
  goToPayment,
  rechargeProblem,
  requestRecharge,
  wallet,
  yuan,
  type RechargeType,
  type Wallet,
} from '../../features/wallet/api';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';
import { AgreementCheck } from '../public/LegalDocument';
import './wallet.css';

/** The amounts offered with one tap, in yuan; any other whole amount within the rules can be typed. */
const PRESETS = [10, 50, 100, 200, 500, 1000] as const;

/** The form, once the balance and the rules are known. */
function RechargeForm({ data }: { data: Wallet }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const queryClient = useQueryClient();
  const { min, max } = data.rules;
  const [amount, setAmount] = useState('');
  const [type, setType] = useState<RechargeType>('alipay');
  const [agree, setAgree] = useState(false);
  const [sending, setSending] = useState(false);

  const send = async () => {
    const problem = rechargeProblem(amount, data.rules);
    if (problem) return toastError(t(`errors.${problem}`));
    if (!agree) return toastError(t('errors.recharge_agreement_required'));
    setSending(true);
    try {
      const recharge = await requestRecharge(Number(amount.trim()), type, {
        token: user?.token,
        locale: i18n.language,
      });
      setAmount('');
      // With the provider set up on the server, its payment page; it comes back to the records once paid (PAY-1).
      if (recharge.pay_url && goToPayment(recharge.pay_url)) return;
      toast(t('wallet.asked'));
      open('member/recharge-records');
    } catch (error) {
      toastError(errorText(error, t));
    } finally {
      setSending(false);
    }
    await queryClient.invalidateQueries({ queryKey: [WALLET_QUERY] });
  };

  return (
    <>
      <section className="wallet-head">
        <span>{t('wallet.balance')}</span>
        <strong data-testid="balance">{yuan(data.balance)}</strong>
      </section>
      <div className="wallet-presets" role="group" aria-label={t('wallet.amount')}>
        {PRESETS.map((preset) => (
          <button
            key={preset}
            type="button"
            aria-pressed={amount === String(preset)}
            className={amount === String(preset) ? 'wallet-preset wallet-preset-on' : 'wallet-preset'}
            onClick={() => setAmount(String(preset))}
          >
            {t('wallet.preset', { amount: preset })}
          </button>
        ))}
      </div>
      <List header={t('wallet.amount')}>
        <List.Item description={t('wallet.rules', { min, max })}>
          <Input
            aria-label={t('wallet.amount')}
            inputMode="numeric"
            value={amount}
            onChange={setAmount}
            placeholder={t('wallet.amountPlaceholder', { min, max })}
          />
        </List.Item>
      </List>
      <List header={t('wallet.payBy')}>
        <Radio.Group value={type} onChange={(value) => setType(value as RechargeType)}>
          {(['alipay', 'wechat'] as const).map((method) => (
            <List.Item key={method}>
              <Radio value={method}>{t(`wallet.${method}`)}</Radio>
            </List.Item>
          ))}
        </Radio.Group>
      </List>
      <div className="page-actions">
        <AgreementCheck
          doc="rechargeAgreement"
          checked={agree}
          onChange={setAgree}
          lead={t('wallet.agree')}
          name={t('wallet.agreement')}
        />
        <Button block color="primary" loading={sending} onClick={() => void send()}>
          {t('wallet.submit')}
        </Button>
      </div>
    </>
  );
}

/**
 * Recharge (spec §2 member/recharge, §5: "minimum 1 yuan, whole numbers, maximum 100000 yuan; the recharge agreement
 * must be agreed"): the balance, amounts to tap or any whole amount typed, Alipay or WeChat Pay, and the agreement in
 * a sheet. Submitted, the recharge waits for its payment and the records open.
 */
export default function RechargePage() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const query = useQuery({
    queryKey: [WALLET_QUERY, user?.id, 'money'],
    queryFn: () => wallet({ token: user?.token, locale: i18n.language }),
    enabled: user !== null,
    retry: false,
  });
  if (!user) return null;
  return (
    <div className="page">
      <NavBar
        title={t('wallet.recharge')}
        right={
          <button type="button" className="feedback-mine" onClick={() => open('member/recharge-records')}>
            {t('wallet.records')}
          </button>
        }
      />
      <QueryView query={query}>{(data) => <RechargeForm data={data} />}</QueryView>
    </div>
  );
}
