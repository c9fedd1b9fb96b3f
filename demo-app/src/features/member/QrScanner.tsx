import { Button } from 'antd-mobile';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../ui/toast';
import { qrDetector } from './scan';
import './qr-login.css';

/** How often the camera's picture is looked at for a code. */
const SCAN_EVERY_MS = 250;

/**
 * A full-screen camera view that looks for a QR code (the browser's `BarcodeDetector`) and gives the first one's text
 * to `onScanned`; the camera stops when it closes. A camera that cannot be had says so and closes.
 */
export function QrScanner({ onScanned, onClose }: { onScanned: (text: string) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  // The latest handlers, so that the camera is asked for once.
  const handlers = useRef({ onScanned, onClose });
  handlers.current = { onScanned, onClose };

  useEffect(() => {
    const detector = qrDetector();
    let stream: MediaStream | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let live = true;
    const look = async () => {
      const element = video.current;
      if (!live || !detector || !element) return;
      try {
        const found = element.readyState >= 2 ? await detector.detect(element) : [];
        const text = found[0]?.rawValue;
        if (live && text) {
          live = false;
          handlers.current.onScanned(text);
          return;
        }
      } catch {
        // A frame the detector could not read: try the next.
      }
      if (live) timer = setTimeout(() => void look(), SCAN_EVERY_MS);
    };
    void navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'environment' }, audio: false })
      .then(async (media) => {
        stream = media;
        if (!live || !video.current) return;
        video.current.srcObject = media;
        await video.current.play().catch(() => undefined);
        void look();
      })
      .catch(() => {
        if (!live) return;
        toastError(t('scan.cameraFailed'));
        handlers.current.onClose();
      });
    return () => {
      live = false;
      clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, [t]);

  return (
    <div className="qr-scanner" role="dialog" aria-modal="true" aria-label={t('scan.title')}>
      <video ref={video} className="qr-scanner-video" muted playsInline />
      <div className="qr-scanner-frame" aria-hidden />
      <p className="qr-scanner-hint">{t('scan.hint')}</p>
      <Button className="qr-scanner-close" onClick={onClose}>
        {t('common.cancel')}
      </Button>
    </div>
  );
}
