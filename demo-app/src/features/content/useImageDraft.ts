import type { TFunction } from 'i18next';
import { Dialog } from 'antd-mobile';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../ui/toast';
import { errorText } from '../api/errors';
import { ApiError } from '../api/request';
import { UPLOAD_MAX_BYTES, useUploadFile } from '../api/upload';
import { isProductImage } from '../member/profile';
import { IMAGE_PROGRESS_EACH } from './videos';

/** An image a member picked for a post, not necessarily uploaded yet; `id` tells it from others of the same file. */
export interface DraftImage {
  id: number;
  file: File;
}

/** A post's images as its form holds them: picked here, uploaded when the post is published. */
export interface ImageDraftState {
  /** The images in the order they will be posted. */
  images: readonly DraftImage[];
  /** Adds picked files after the others, up to the form's most; one that is not fit is said in a toast and left out. */
  add: (files: readonly File[]) => void;
  /** Drops the image of `id`. */
  remove: (id: number) => void;
  /** The publishing progress, undefined while nothing is sent. */
  progress: number | undefined;
  setProgress: (percent: number | undefined) => void;
  /**
   * Uploads the images one by one, in order, each only if it is not stored yet (10 of the progress each), and resolves
   * with their URLs; on a failure an alert says why with the progress at 100, and it resolves undefined (also when the
   * page was left). Without images it resolves with none and shows no progress.
   */
  upload: () => Promise<string[] | undefined>;
}

/** The overall percentage while the image at `index` (from 0) is `percent` uploaded: 10 per image before it. */
export function imageProgress(index: number, percent: number): number {
  return index * IMAGE_PROGRESS_EACH + Math.round((IMAGE_PROGRESS_EACH * percent) / 100);
}

/** Why a picked file cannot be posted (spec §5 image types, §9 30 MiB), in the member's words; undefined if it can. */
function imageProblem(file: File, t: TFunction): string | undefined {
  if (!isProductImage(file)) return t('profile.imageOnly');
  if (file.size === 0) return t('videoAdd.empty');
  if (file.size > UPLOAD_MAX_BYTES) return t('errors.upload_too_large');
  return undefined;
}

/** The spec's alert for a failed upload (§4, §8 "image, video and video-cover upload failed"), with the reason. */
export async function alertUploadFailed(error: unknown, t: TFunction): Promise<void> {
  // The storage's own refusal says more than the generic message the title already gives.
  const reason = error instanceof ApiError && error.code === 'upload_failed' ? error.message : errorText(error, t);
  await Dialog.alert({ title: t('errors.upload_failed'), content: reason, confirmText: t('common.ok') });
}

/**
 * The images of a post being written (spec §4 "images are uploaded one by one, then the article is posted ...
 * images 10 per image ... On an upload failure an alert is shown and progress jumps to 100"). Picked images stay on
 * the device until the post is published; what was uploaded is kept, so publishing again after a failure uploads
 * only what is missing; leaving the page stops an upload.
 */
export function useImageDraft({ max }: { max: number }): ImageDraftState {
  const { t } = useTranslation();
  const uploadFile = useUploadFile();
  const [images, setImages] = useState<DraftImage[]>([]);
  const [progress, setProgress] = useState<number | undefined>();
  const nextId = useRef(1);
  const uploaded = useRef(new WeakMap<File, string>());
  const pending = useRef<AbortController | undefined>(undefined);
  useEffect(() => () => pending.current?.abort(), []);

  const add = useCallback(
    (files: readonly File[]) => {
      const checked = files.map((file) => ({ file, problem: imageProblem(file, t) }));
      const refused = checked.find(({ problem }) => problem !== undefined);
      if (refused?.problem !== undefined) toastError(refused.problem);
      const picked = checked
        .filter(({ problem }) => problem === undefined)
        .map(({ file }) => ({ id: nextId.current++, file }));
      setImages((list) => [...list, ...picked].slice(0, max));
    },
    [max, t],
  );

  const remove = useCallback((id: number) => setImages((list) => list.filter((image) => image.id !== id)), []);

  const upload = useCallback(async () => {
    if (images.length === 0) return [];
    const controller = new AbortController();
    pending.current = controller;
    const urls: string[] = [];
    setProgress(0);
    try {
      for (const [index, { file }] of images.entries()) {
        let url = uploaded.current.get(file);
        if (url === undefined) {
          url = await uploadFile(file, {
            signal: controller.signal,
            onProgress: (percent) => setProgress(imageProgress(index, percent)),
          });
          uploaded.current.set(file, url);
        }
        urls.push(url);
        setProgress(imageProgress(index + 1, 0));
      }
      return urls;
    } catch (error) {
      if (controller.signal.aborted) return undefined;
      setProgress(100);
      await alertUploadFailed(error, t);
      setProgress(undefined);
      return undefined;
    } finally {
      if (pending.current === controller) pending.current = undefined;
    }
  }, [images, uploadFile, t]);

  return { images, add, remove, progress, setProgress, upload };
}
