import { Button, Checkbox, Input, List } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { HOME_PATH } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { QUHAO_KEY } from '../../features/member/countries';
import { login, sendCode } from '../../features/member/api';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';

/** Seconds before another code may be asked for; the server refuses sooner requests the same way. */
const RESEND_SECONDS = 60;
const MAINLAND = /^1[2-9]\d{9}$/;

/** Counts down once a second from `from` to 0. */
function useCountdown(): [number, (from: number) => void] {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  return [left, setLeft];
}

/** Login by phone number and SMS code, with agreement to the user and privacy agreements (spec §4, §5). */
export default function Login() {
  const { t, i18n } = useTranslation();
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [agree, setAgree] = useState(false);
  const [busy, setBusy] = useState(false);
  const [left, startCountdown] = useCountdown();
  const [quhao] = useState(() => sessionStorage.getItem(QUHAO_KEY) ?? '86');
  const context = { locale: i18n.language };
  const phoneOk = quhao === '86' ? MAINLAND.test(phone) : /^\d{4,14}$/.test(phone);

  const onSend = async () => {
    if (!phoneOk) return toastError(t('errors.bad_phone'));
    try {
      await sendCode({ phone, quhao }, context);
      startCountdown(RESEND_SECONDS);
      toast(t('login.codeSent'));
    } catch (error) {
      toastError(errorText(error, t));
    }
  };

  const onSubmit = async () => {
    if (!phoneOk) return toastError(t('errors.bad_phone'));
    if (!/^\d{6}$/.test(code)) return toastError(t('errors.bad_code'));
    if (!agree) return toastError(t('errors.agreement_required'));
    setBusy(true);
    try {
      const { user, otp } = await login({ phone, code, agree, quhao }, context);
      signIn(user, otp);
      toast(t('login.success'));
      const redirect = params.get('redirect');
      // Only in-app paths: a redirect to another site would make the login page an open redirect.
      void navigate(redirect?.startsWith('/') && !redirect.startsWith('//') ? redirect : HOME_PATH, { replace: true });
    } catch (error) {
      toastError(errorText(error, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="page">
      <NavBar title={t('login.title')} />
      <div className="login">
        <h2>{t('login.welcome')}</h2>
        <p className="muted">{t('login.hint')}</p>
        <List>
          <List.Item prefix={t('login.countryCode')} onClick={() => void navigate('/user/quhao')} extra={`+${quhao}`} />
          <List.Item>
            <Input
              type="tel"
              inputMode="numeric"
              maxLength={quhao === '86' ? 11 : 14}
              placeholder={t('login.phone')}
              value={phone}
              onChange={(v) => setPhone(v.replace(/\D/g, ''))}
              aria-label={t('login.phone')}
            />
          </List.Item>
          <List.Item
            extra={
              <Button size="small" color="primary" fill="none" disabled={left > 0} onClick={() => void onSend()}>
                {left > 0 ? t('login.resend', { seconds: left }) : t('login.send')}
              </Button>
            }
          >
            <Input
              inputMode="numeric"
              maxLength={6}
              placeholder={t('login.code')}
              value={code}
              onChange={(v) => setCode(v.replace(/\D/g, ''))}
              aria-label={t('login.code')}
            />
          </List.Item>
        </List>
        <Checkbox className="login-agree" checked={agree} onChange={setAgree}>
          {t('login.agreePrefix')}
          <a href="#/public/web-view?title=agreement" onClick={(e) => e.stopPropagation()}>
            {t('login.userAgreement')}
          </a>
          {t('login.and')}
          <a href="#/public/web-view?title=privacy" onClick={(e) => e.stopPropagation()}>
            {t('login.privacyPolicy')}
          </a>
        </Checkbox>
        <Button block color="primary" size="large" loading={busy} onClick={() => void onSubmit()}>
          {t('login.submit')}
        </Button>
      </div>
    </div>
  );
}
