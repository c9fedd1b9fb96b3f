import { ProgressBar } from 'antd-mobile';
import { useRef, type ChangeEvent, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../ui/toast';
import { isProductImage } from '../member/profile';
import { useImageUpload } from './useImageUpload';

/** An upload's progress as the forms show it under what is uploading; nothing while none runs. */
export function UploadProgress({ percent, testId }: { percent: number | undefined; testId: string }) {
  const { t } = useTranslation();
  if (percent === undefined) return null;
  return (
    <div className="feedback-progress" data-testid={testId}>
      <ProgressBar percent={percent} />
      <span>{t('profile.uploading', { percent })}</span>
    </div>
  );
}

/**
 * One image a form's member picks and the app uploads at once (a shop's icon, a room's cover, a receipt code): `pick()`
 * opens the device's chooser, `input` is the hidden file field to render once, `progress` the upload's percentage while
 * one runs; `onUploaded` gets the stored image's URL. With `onPicked` a picked image goes there instead (to be cropped
 * first, say), and `upload` stores what comes of it. Files that are no image, and failed uploads, are said in a toast.
 */
export function useImagePicker({
  onUploaded,
  onPicked,
  testId,
}: {
  onUploaded?: (url: string) => void;
  onPicked?: (file: File) => void;
  testId: string;
}): {
  progress: number | undefined;
  pick: () => void;
  input: ReactElement;
  upload: (file: File) => Promise<string | undefined>;
} {
  const { t } = useTranslation();
  const { progress, upload } = useImageUpload();
  const picker = useRef<HTMLInputElement>(null);
  const picked = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (onPicked) {
      if (isProductImage(file)) onPicked(file);
      else toastError(t('profile.imageOnly'));
      return;
    }
    const url = await upload(file);
    if (url !== undefined) onUploaded?.(url);
  };
  const input = (
    <input
      ref={picker}
      type="file"
      accept="image/gif,image/jpeg,image/png"
      hidden
      data-testid={testId}
      onChange={(event) => void picked(event)}
    />
  );
  return { progress, pick: () => picker.current?.click(), input, upload };
}
