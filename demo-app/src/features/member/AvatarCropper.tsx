import { Button, Slider } from 'antd-mobile';
import { useEffect, useRef, useState } from 'react';
import Cropper from 'react-easy-crop';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../ui/toast';
import { cropImage, type Area } from './crop';
import './avatar-cropper.css';

/** How far the picture may be enlarged. */
const MAX_ZOOM = 4;

/**
 * The avatar cropper (spec §2): the picked picture under a round frame, moved by dragging and scaled by pinching, the
 * wheel or the slider; Use gives the square inside the frame as a new image (`features/member/crop.ts`).
 */
export function AvatarCropper({
  file,
  onCancel,
  onCropped,
}: {
  file: File;
  onCancel: () => void;
  onCropped: (cropped: File) => void;
}) {
  const { t } = useTranslation();
  // The picture's address while the cropper is open: made and let go with the effect, so that a remount (React's
  // strict mode runs effects twice) never shows an address already let go.
  const [src, setSrc] = useState<string | undefined>(undefined);
  useEffect(() => {
    const made = URL.createObjectURL(file);
    setSrc(made);
    return () => URL.revokeObjectURL(made);
  }, [file]);
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  // The part chosen, in the picture's own pixels; known once the picture has loaded.
  const area = useRef<Area | undefined>(undefined);
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);

  const use = async () => {
    if (!area.current) return;
    setBusy(true);
    try {
      onCropped(await cropImage(file, area.current));
    } catch {
      toastError(t('cropper.failed'));
      setBusy(false);
    }
  };

  return (
    <div className="avatar-cropper" role="dialog" aria-modal="true" aria-label={t('cropper.title')}>
      <div className="avatar-cropper-bar">
        <Button fill="none" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <span>{t('cropper.title')}</span>
        <Button color="primary" size="small" disabled={!ready} loading={busy} onClick={() => void use()}>
          {t('cropper.use')}
        </Button>
      </div>
      <div className="avatar-cropper-area">
        {src !== undefined && (
          <Cropper
            image={src}
            crop={crop}
            zoom={zoom}
            maxZoom={MAX_ZOOM}
            aspect={1}
            cropShape="round"
            showGrid={false}
            onCropChange={setCrop}
            onZoomChange={setZoom}
            onCropComplete={(_percentages, pixels) => {
              area.current = pixels;
              setReady(true);
            }}
          />
        )}
      </div>
      <div className="avatar-cropper-zoom">
        <Slider
          min={1}
          max={MAX_ZOOM}
          step={0.01}
          value={zoom}
          onChange={(value) => setZoom(typeof value === 'number' ? value : value[0])}
          aria-label={t('cropper.zoom')}
        />
      </div>
    </div>
  );
}
