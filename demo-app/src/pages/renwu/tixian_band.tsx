import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Input, List, Selector } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useClosePage } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { QueryView } from '../../features/api/QueryView';
import { UploadProgress, useImagePicker } from '../../features/api/ImagePicker';
import { TASKS_QUERY } from '../../features/tasks/api';
import {
  alipayProblem,
  bindPayout,
  withdrawalInfo,
  type PayoutAccounts,
  type PayoutBinding,
  type PayoutType,
} from '../../features/tasks/withdrawals';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';
import '../member/feedback.css';
import './renwu.css';

/** The form for one kind of account, filled with what is bound. */
function BindingForm({ accounts, initial }: { accounts: PayoutAccounts; initial: PayoutType }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const close = useClosePage();
  const queryClient = useQueryClient();
  const [type, setType] = useState<PayoutType>(initial);
  const [name, setName] = useState(accounts.alipay_name);
  const [account, setAccount] = useState(accounts.alipay_account);
  const [code, setCode] = useState(accounts.wechat_code);
  const [sending, setSending] = useState(false);

  const { progress, pick, input } = useImagePicker({ onUploaded: setCode, testId: 'payout-picker' });

  const save = async () => {
    let binding: PayoutBinding;
    if (type === 'alipay') {
      const problem = alipayProblem(name, account);
      if (problem === 'name') return toastError(t('errors.payout_name_invalid'));
      if (problem === 'account') return toastError(t('errors.payout_account_invalid'));
      binding = { type, name: name.trim(), account: account.trim() };
    } else {
      if (!code) return toastError(t('errors.payout_code_invalid'));
      binding = { type, img: code };
    }
    setSending(true);
    try {
      await bindPayout(binding, { token: user?.token, locale: i18n.language });
      await queryClient.invalidateQueries({ queryKey: [TASKS_QUERY] });
      toast(t('withdraw.saved'));
      close();
    } catch (error) {
      toastError(errorText(error, t));
      setSending(false);
    }
  };

  return (
    <>
      <List>
        <List.Item>
          <Selector
            columns={2}
            value={[type]}
            onChange={(values) => values[0] && setType(values[0])}
            options={(['alipay', 'wechat'] as const).map((value) => ({ value, label: t(`withdraw.${value}`) }))}
          />
        </List.Item>
      </List>
      {type === 'alipay' ? (
        <List>
          <List.Item title={<label htmlFor="payout-name">{t('withdraw.alipayName')}</label>}>
            <Input
              id="payout-name"
              value={name}
              onChange={setName}
              maxLength={30}
              placeholder={t('withdraw.alipayNamePlaceholder')}
            />
          </List.Item>
          <List.Item title={<label htmlFor="payout-account">{t('withdraw.alipayAccount')}</label>}>
            <Input
              id="payout-account"
              value={account}
              onChange={setAccount}
              maxLength={100}
              placeholder={t('withdraw.alipayAccountPlaceholder')}
            />
          </List.Item>
        </List>
      ) : (
        <List header={t('withdraw.wechatCode')}>
          <List.Item description={t('withdraw.wechatCodeHint')}>
            <button
              type="button"
              className="cert-slot"
              aria-label={t('withdraw.wechatCode')}
              disabled={progress !== undefined}
              onClick={pick}
            >
              {code ? <img className="feedback-thumb" src={code} alt="" /> : <span className="cert-slot-add">+</span>}
            </button>
            <UploadProgress percent={progress} testId="payout-progress" />
          </List.Item>
        </List>
      )}
      {input}
      <div className="page-actions">
        <Button block color="primary" loading={sending} disabled={progress !== undefined} onClick={() => void save()}>
          {t('withdraw.save')}
        </Button>
      </div>
    </>
  );
}

/**
 * The withdrawal account (spec §2 renwu/tixian_band; §3 "Alipay account and real name, or a WeChat receipt code
 * image"; §5 "Alipay real name and receiving account required; the WeChat receipt code must be uploaded"). `type`
 * (`alipay` or `wechat`) picks the form it opens on; saving one keeps the other.
 */
export default function BindPayout() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [params] = useSearchParams();
  const initial: PayoutType = params.get('type') === 'wechat' ? 'wechat' : 'alipay';
  const query = useQuery({
    queryKey: [TASKS_QUERY, user?.id, 'withdraw'],
    queryFn: () => withdrawalInfo({ token: user?.token, locale: i18n.language }),
    enabled: user !== null,
    retry: false,
  });
  if (!user) return null;

  return (
    <div className="page">
      <NavBar title={t('withdraw.bindTitle')} />
      <QueryView query={query}>{(data) => <BindingForm accounts={data.accounts} initial={initial} />}</QueryView>
    </div>
  );
}
