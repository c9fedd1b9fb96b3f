import { useQuery } from '@tanstack/react-query';
import { Avatar, Button, DotLoading } from 'antd-mobile';
import QRCode from 'qrcode';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../api/errors';
import type { StoredUser } from './api';
import { QR_POLL_MS, createQrCode, isSettled, pollQrCode, qrLoginLink } from './qr-login';
import './qr-login.css';

/** The code as an SVG image's data URL, drawn here: the link never leaves the page to be drawn. */
function useQrImage(link: string | undefined): string | undefined {
  const [image, setImage] = useState<{ link: string; url: string }>();
  useEffect(() => {
    if (link === undefined) return;
    let live = true;
    void QRCode.toString(link, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then((svg) => {
      if (live) setImage({ link, url: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` });
    });
    return () => {
      live = false;
    };
  }, [link]);
  return image && image.link === link ? image.url : undefined;
}

/**
 * Sign-in by QR code, the device's side (docs/product-app.md): shows a code for the phone where the member is signed
 * in, polls it every {@link QR_POLL_MS}, shows who scanned it, and calls `onSignedIn` once the phone confirms. An
 * expired or cancelled code is replaced with Refresh. Like a code login it needs the user and privacy agreements
 * (spec §5): until `agreed`, no code is asked for and the panel says so.
 */
export function QrLoginPanel({
  agreed,
  onSignedIn,
}: {
  agreed: boolean;
  onSignedIn: (user: StoredUser, otp: string | null) => void;
}) {
  const { t, i18n } = useTranslation();
  const context = { locale: i18n.language };
  // Each Refresh asks for a new code.
  const [round, setRound] = useState(0);
  const code = useQuery({
    queryKey: ['qr-login', round],
    queryFn: () => createQrCode(context),
    enabled: agreed,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  const poll = useQuery({
    queryKey: ['qr-login-status', code.data?.ticket],
    queryFn: () => pollQrCode(code.data as NonNullable<typeof code.data>, context),
    enabled: agreed && code.data !== undefined,
    gcTime: 0,
    retry: false,
    refetchInterval: (query) => (isSettled(query.state.data?.state) ? false : QR_POLL_MS),
  });
  const link = agreed && code.data ? qrLoginLink(code.data.ticket) : undefined;
  const image = useQrImage(link);
  const state = poll.data?.state;

  // Signed in once, even if the answer is rendered again.
  const done = useRef(false);
  useEffect(() => {
    if (state?.status !== 'confirmed' || done.current) return;
    done.current = true;
    onSignedIn(state.user, poll.data?.otp ?? null);
  }, [state, poll.data?.otp, onSignedIn]);

  const failure = code.error ?? poll.error;
  const refresh = () => setRound((r) => r + 1);

  let cover: ReactNode = null;
  if (!agreed) {
    cover = <p>{t('qrLogin.agreeFirst')}</p>;
  } else if (failure) {
    cover = (
      <>
        <p>{errorText(failure, t)}</p>
        <Button size="small" color="primary" onClick={refresh}>
          {t('qrLogin.refresh')}
        </Button>
      </>
    );
  } else if (state?.status === 'expired' || state?.status === 'cancelled') {
    cover = (
      <>
        <p>{t(`qrLogin.${state.status}`)}</p>
        <Button size="small" color="primary" onClick={refresh}>
          {t('qrLogin.refresh')}
        </Button>
      </>
    );
  } else if (state?.status === 'scanned') {
    cover = (
      <>
        <Avatar src={state.user.img} style={{ '--size': '48px', '--border-radius': '50%' }} />
        <p>{t('qrLogin.scanned', { name: state.user.username })}</p>
      </>
    );
  } else if (state?.status === 'confirmed') {
    cover = <p>{t('login.success')}</p>;
  }

  return (
    <div
      className="qr-login"
      data-testid="qr-login"
      data-status={!agreed ? 'unagreed' : failure ? 'failed' : (state?.status ?? 'loading')}
    >
      <div className="qr-login-code">
        {image ? (
          <img src={image} alt={t('qrLogin.alt')} data-link={link} width={200} height={200} />
        ) : (
          agreed && !failure && <DotLoading color="primary" />
        )}
        {cover && (
          <div className="qr-login-cover" role="status">
            {cover}
          </div>
        )}
      </div>
      <p className="qr-login-hint muted">{t('qrLogin.hint')}</p>
    </div>
  );
}
