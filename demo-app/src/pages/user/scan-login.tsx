import { useQuery } from '@tanstack/react-query';
import { Button, ErrorBlock, List, Result } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useClosePage } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { relativeTime } from '../../features/im/time';
import { scanQrCode, settleQrCode } from '../../features/member/qr-login';
import '../../features/member/qr-login.css';
import { DelayedLoading } from '../../ui/DelayedLoading';
import { NavBar } from '../../ui/NavBar';
import { toastError } from '../../ui/toast';

/** A ticket as a sign-in code carries it. */
const TICKET = /^[\w-]{32}$/;

/**
 * Sign-in by QR code, the phone's side (spec §2 user/scan-login): opened from the code another device shows, it says
 * which device asks, from where and since when, and signs that device in to the member's account only when they
 * confirm. Needs the member signed in (the login page brings them back here).
 */
export default function ScanLogin() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const close = useClosePage();
  const [params] = useSearchParams();
  const ticket = params.get('ticket') ?? '';
  const context = { token: user?.token, locale: i18n.language };
  const [outcome, setOutcome] = useState<'confirmed' | 'cancelled'>();
  const [failure, setFailure] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const request = useQuery({
    queryKey: ['qr-login-scan', ticket],
    queryFn: () => scanQrCode(ticket, context),
    enabled: TICKET.test(ticket),
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });
  const device = request.data?.device || t('scanLogin.unknownDevice');

  const settle = async (confirm: boolean) => {
    setBusy(true);
    try {
      await settleQrCode(ticket, confirm, context);
      setOutcome(confirm ? 'confirmed' : 'cancelled');
    } catch (error) {
      toastError(errorText(error, t));
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  const asked = request.data;
  let body;
  if (!TICKET.test(ticket)) {
    body = <ErrorBlock status="empty" title={t('common.linkMissing')} description="" />;
  } else if (request.isPending) {
    body = <DelayedLoading />;
  } else if (request.isError || failure !== undefined) {
    body = (
      <Result status="warning" title={t('scanLogin.failed')} description={errorText(failure ?? request.error, t)} />
    );
  } else if (outcome === 'confirmed') {
    body = <Result status="success" title={t('scanLogin.done', { device })} />;
  } else if (outcome === 'cancelled') {
    body = <Result status="info" title={t('scanLogin.cancelled')} />;
  }

  return (
    <div className="page">
      <NavBar title={t('scanLogin.title')} />
      {body || !asked ? (
        <div className="scan-login">
          {body}
          {TICKET.test(ticket) && !request.isPending && (
            <Button block onClick={close}>
              {t('scanLogin.close')}
            </Button>
          )}
        </div>
      ) : (
        <div className="scan-login">
          <div className="scan-login-head">
            <h2>{t('scanLogin.question')}</h2>
            <p className="muted">{t('scanLogin.account', { name: user?.username ?? '' })}</p>
          </div>
          <List>
            <List.Item extra={device}>{t('scanLogin.device')}</List.Item>
            <List.Item extra={asked.address}>{t('scanLogin.address')}</List.Item>
            <List.Item extra={relativeTime(asked.created_at, Date.now(), t, i18n.language)}>
              {t('scanLogin.time')}
            </List.Item>
          </List>
          <p className="note-warning">{t('scanLogin.warning')}</p>
          <Button block color="primary" size="large" loading={busy} onClick={() => void settle(true)}>
            {t('scanLogin.confirm')}
          </Button>
          <Button block disabled={busy} onClick={() => void settle(false)}>
            {t('scanLogin.cancel')}
          </Button>
        </div>
      )}
    </div>
  );
}
