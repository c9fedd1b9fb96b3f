import { Button, Checkbox, Input, List } from 'antd-mobile';
import { useCallback, useEffect, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { LanguageSheet } from '../../app/LanguageSheet';
import { HOME_PATH } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { QUHAO_KEY } from '../../features/member/countries';
import { login, sendCode, type StoredUser } from '../../features/member/api';
import { QrLoginPanel } from '../../features/member/QrLoginPanel';
import { isPhoneNumber } from '../../features/member/phone';
import { LANGUAGE_NAMES, currentLanguage } from '../../i18n';
import { NavBar } from '../../ui/NavBar';
import { WIDE_SCREEN, useMediaQuery } from '../../ui/useMediaQuery';
import { toast, toastError } from '../../ui/toast';

/** Seconds before another code may be asked for; the server refuses sooner requests the same way. */
const RESEND_SECONDS = 60;

/**
 * What the user typed, kept in the login page's history entry while they visit the country-code page or read an
 * agreement, so that coming back shows it again. `sentAt` keeps the resend countdown running across the trip.
 */
interface LoginDraft {
  phone: string;
  code: string;
  agree: boolean;
  sentAt: number | null;
}

/** The draft kept in a history entry's state, field by field: the state may come from an older version. */
function draftOf(state: unknown): Partial<LoginDraft> {
  const draft = (state as { loginDraft?: Partial<Record<keyof LoginDraft, unknown>> } | null)?.loginDraft ?? {};
  return {
    ...(typeof draft.phone === 'string' ? { phone: draft.phone } : {}),
    ...(typeof draft.code === 'string' ? { code: draft.code } : {}),
    ...(draft.agree === true ? { agree: true } : {}),
    ...(typeof draft.sentAt === 'number' ? { sentAt: draft.sentAt } : {}),
  };
}

/** Seconds left before a code sent at `sentAt` may be asked for again. */
const secondsLeft = (sentAt: number | null | undefined) =>
  sentAt ? Math.max(0, RESEND_SECONDS - Math.floor((Date.now() - sentAt) / 1000)) : 0;

/** Counts down once a second from `from` to 0. */
function useCountdown(initial: number): [number, (from: number) => void] {
  const [left, setLeft] = useState(initial);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  return [left, setLeft];
}

/**
 * Login by phone number and SMS code, with agreement to the user and privacy agreements (spec §4, §5). Opened from an
 * invitation link (`?invite=<code>`), it says so and sends the code, which counts if the login signs the member up.
 */
export default function Login() {
  const { t, i18n } = useTranslation();
  const { signIn } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const [saved] = useState(() => draftOf(location.state));
  const [phone, setPhone] = useState(saved.phone ?? '');
  const [code, setCode] = useState(saved.code ?? '');
  const [agree, setAgree] = useState(saved.agree === true);
  const [sentAt, setSentAt] = useState(saved.sentAt ?? null);
  const [busy, setBusy] = useState(false);
  const [languages, setLanguages] = useState(false);
  // Sign-in by QR code instead, from a phone where the member is signed in (user/scan-login).
  const [byQr, setByQr] = useState(false);
  // On a wide screen both show side by side, as where a desktop browser is signed in to by a phone.
  const wide = useMediaQuery(WIDE_SCREEN);
  const [left, startCountdown] = useCountdown(secondsLeft(saved.sentAt));
  const [quhao] = useState(() => sessionStorage.getItem(QUHAO_KEY) ?? '86');
  const context = { locale: i18n.language };
  // From an invitation link (renwu/yaoqing): the inviter's code, sent with the login that signs up.
  const invite = /^\d{1,32}$/.test(params.get('invite') ?? '') ? (params.get('invite') ?? undefined) : undefined;
  const phoneOk = isPhoneNumber(phone, quhao);

  /** Opens `path` from the login page, keeping what was typed for the way back. */
  const leave = (path: string) => {
    const loginDraft: LoginDraft = { phone, code, agree, sentAt };
    void navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: { loginDraft } });
    void navigate(path);
  };
  const openDocument = (path: string) => (event: MouseEvent) => {
    // Inside the checkbox's label: the link opens the document and leaves the box as it was.
    event.preventDefault();
    event.stopPropagation();
    leave(path);
  };

  const onSend = async () => {
    if (!phoneOk) return toastError(t('errors.bad_phone'));
    try {
      await sendCode({ phone, quhao }, context);
      setSentAt(Date.now());
      startCountdown(RESEND_SECONDS);
      toast(t('login.codeSent'));
    } catch (error) {
      toastError(errorText(error, t));
    }
  };

  const redirect = params.get('redirect');
  /** Commits a login, by code or by QR code, and opens where the member was going. */
  const finish = useCallback(
    (user: StoredUser, otp: string | null) => {
      signIn(user, otp);
      toast(t('login.success'));
      // Only in-app paths: a redirect to another site would make the login page an open redirect.
      void navigate(redirect?.startsWith('/') && !redirect.startsWith('//') ? redirect : HOME_PATH, { replace: true });
    },
    [signIn, t, navigate, redirect],
  );

  const onSubmit = async () => {
    if (!phoneOk) return toastError(t('errors.bad_phone'));
    if (!/^\d{6}$/.test(code)) return toastError(t('errors.bad_code'));
    if (!agree) return toastError(t('errors.agreement_required'));
    setBusy(true);
    try {
      const { user, otp } = await login({ phone, code, agree, quhao, ...(invite && { invite }) }, context);
      finish(user, otp);
    } catch (error) {
      toastError(errorText(error, t));
    } finally {
      setBusy(false);
    }
  };

  // One box for both ways of signing in: on a wide screen the code beside the form needs it ticked too.
  const agreement = (
    <Checkbox className="login-agree" checked={agree} onChange={setAgree}>
      {t('login.agreePrefix')}
      <a href="#/public/agreement" onClick={openDocument('/public/agreement')}>
        {t('login.userAgreement')}
      </a>
      {t('login.and')}
      <a href="#/public/privacy" onClick={openDocument('/public/privacy')}>
        {t('login.privacyPolicy')}
      </a>
    </Checkbox>
  );

  const form = (
    <>
      <List>
        <List.Item prefix={t('login.countryCode')} onClick={() => leave('/user/quhao')} extra={`+${quhao}`} />
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
      {agreement}
      <Button block color="primary" size="large" loading={busy} onClick={() => void onSubmit()}>
        {t('login.submit')}
      </Button>
    </>
  );

  return (
    <div className="page">
      <NavBar
        title={t('login.title')}
        right={
          <Button size="mini" fill="none" aria-label={t('language.title')} onClick={() => setLanguages(true)}>
            {LANGUAGE_NAMES[currentLanguage(i18n)]}
          </Button>
        }
      />
      <LanguageSheet visible={languages} onClose={() => setLanguages(false)} />
      <div className={wide ? 'login login-wide' : 'login'}>
        <div className="login-main">
          <h2>{byQr && !wide ? t('qrLogin.title') : t('login.welcome')}</h2>
          {(wide || !byQr) && <p className="muted">{t('login.hint')}</p>}
          {invite && (wide || !byQr) && (
            <p className="login-invite" data-testid="invite">
              {t('login.invited', { code: invite })}
            </p>
          )}
          {byQr && !wide ? (
            <>
              <QrLoginPanel agreed={agree} onSignedIn={finish} />
              {agreement}
            </>
          ) : (
            form
          )}
          {!wide && (
            <Button block fill="none" color="primary" onClick={() => setByQr((qr) => !qr)}>
              {byQr ? t('qrLogin.byPhone') : t('qrLogin.byQr')}
            </Button>
          )}
        </div>
        {wide && (
          <aside className="login-side">
            <h2>{t('qrLogin.title')}</h2>
            <QrLoginPanel agreed={agree} onSignedIn={finish} />
          </aside>
        )}
      </div>
    </div>
  );
}
