import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../ui/toast';
import { isProductImage } from '../member/profile';
import { errorText } from './errors';
import { useUploadFile } from './upload';

/**
 * Uploads images one at a time as a form's member picks them: `upload(file)` resolves with the image's URL, or
 * undefined when the file is no gif, jpg, jpeg or png or the upload failed (each said in a toast). `progress` is the
 * percentage of the upload in flight, undefined when none is; leaving the page stops it.
 */
export function useImageUpload(): {
  progress: number | undefined;
  upload: (file: File) => Promise<string | undefined>;
} {
  const { t } = useTranslation();
  const uploadFile = useUploadFile();
  const [progress, setProgress] = useState<number | undefined>(undefined);
  const pending = useRef<AbortController | undefined>(undefined);

  useEffect(() => () => pending.current?.abort(), []);

  const upload = useCallback(
    async (file: File) => {
      if (!isProductImage(file)) {
        toastError(t('profile.imageOnly'));
        return undefined;
      }
      const controller = new AbortController();
      pending.current = controller;
      setProgress(0);
      try {
        return await uploadFile(file, { onProgress: setProgress, signal: controller.signal });
      } catch (error) {
        if (!controller.signal.aborted) toastError(errorText(error, t));
        return undefined;
      } finally {
        if (pending.current === controller) pending.current = undefined;
        if (!controller.signal.aborted) setProgress(undefined);
      }
    },
    [t, uploadFile],
  );
  return { progress, upload };
}
