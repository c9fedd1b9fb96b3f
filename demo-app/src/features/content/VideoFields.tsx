import type { TFunction } from 'i18next';
import { Dialog, List, ProgressBar } from 'antd-mobile';
import { useCallback, useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../ui/toast';
import { errorText } from '../api/errors';
import { ApiError } from '../api/request';
import { UPLOAD_MAX_BYTES, useUploadFile } from '../api/upload';
import { isProductImage } from '../member/profile';
import { VIDEO_EXTENSIONS, isVideoFile, videoProgress } from './videos';

/** The size of a file for people: KB under a megabyte, else MB with one decimal. */
function sizeText(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A local preview of a picked file while the page shows it; undefined where the browser makes none. */
function usePreview(file: File | undefined): string | undefined {
  const [url, setUrl] = useState<string | undefined>();
  useEffect(() => {
    if (!file || typeof URL.createObjectURL !== 'function') return setUrl(undefined);
    const made = URL.createObjectURL(file);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [file]);
  return url;
}

/** A video and its cover as a form holds them: picked here, uploaded when the form is sent. */
export interface VideoDraftState {
  video: File | undefined;
  cover: File | undefined;
  setVideo: (file: File | undefined) => void;
  setCover: (file: File | undefined) => void;
  /** The publishing progress, undefined while nothing is sent. */
  progress: number | undefined;
  setProgress: (percent: number | undefined) => void;
  /**
   * Uploads the video (the first 70 of the progress), then the cover (the next 20), each only if it is not stored
   * yet, and resolves with their URLs; on a failure an alert says why with the progress at 100, and it resolves
   * undefined (also when the page was left).
   */
  upload: () => Promise<{ video: string; cover: string } | undefined>;
}

/**
 * The state of a video and its cover in a form (spec §4 "A video is uploaded first, then its cover, then the post.
 * Progress ... video 70, cover 20 ... On an upload failure an alert is shown and progress jumps to 100"). What was
 * uploaded is kept, so sending again after a failure uploads only what is missing; leaving the page stops an upload.
 */
export function useVideoDraft(): VideoDraftState {
  const { t } = useTranslation();
  const uploadFile = useUploadFile();
  const [video, setVideo] = useState<File | undefined>();
  const [cover, setCover] = useState<File | undefined>();
  const [progress, setProgress] = useState<number | undefined>();
  const uploaded = useRef(new WeakMap<File, string>());
  const pending = useRef<AbortController | undefined>(undefined);
  useEffect(() => () => pending.current?.abort(), []);

  const upload = useCallback(async () => {
    if (!video || !cover) return undefined;
    const controller = new AbortController();
    pending.current = controller;
    const stored = async (file: File, part: 'video' | 'cover') => {
      const known = uploaded.current.get(file);
      if (known !== undefined) return known;
      const url = await uploadFile(file, {
        signal: controller.signal,
        onProgress: (percent) => setProgress(videoProgress(part, percent)),
      });
      uploaded.current.set(file, url);
      return url;
    };
    setProgress(0);
    try {
      const videoUrl = await stored(video, 'video');
      setProgress(videoProgress('cover', 0));
      return { video: videoUrl, cover: await stored(cover, 'cover') };
    } catch (error) {
      if (controller.signal.aborted) return undefined;
      setProgress(100);
      const reason = error instanceof ApiError && error.code === 'upload_failed' ? error.message : errorText(error, t);
      await Dialog.alert({ title: t('errors.upload_failed'), content: reason, confirmText: t('common.ok') });
      setProgress(undefined);
      return undefined;
    }
  }, [video, cover, uploadFile, t]);

  return { video, cover, setVideo, setCover, progress, setProgress, upload };
}

/** Checks a picked file: a toast and false when it is not of `kind`, is empty or is over 30 MiB. */
function acceptable(file: File, kind: 'video' | 'image', t: TFunction): boolean {
  if (kind === 'video' && !isVideoFile(file)) {
    toastError(t('videoAdd.videoOnly', { list: VIDEO_EXTENSIONS.join(', ') }));
    return false;
  }
  if (kind === 'image' && !isProductImage(file)) {
    toastError(t('profile.imageOnly'));
    return false;
  }
  if (file.size === 0) {
    toastError(t('videoAdd.empty'));
    return false;
  }
  if (file.size > UPLOAD_MAX_BYTES) {
    toastError(t('errors.upload_too_large'));
    return false;
  }
  return true;
}

/**
 * The video and cover parts of a form (spec §5 video types, 30 MiB, "A video cover is required"): the video picked is
 * shown by name and size with a player to watch it before it is sent (the cover its poster once picked), the cover as
 * picked, each with its Remove; `onRemove` adds a part that drops both (a post
 * that has no video after all). The progress shows while the form is sent.
 */
export function VideoFields({ draft, onRemove }: { draft: VideoDraftState; onRemove?: () => void }) {
  const { t } = useTranslation();
  const { video, cover, progress } = draft;
  const busy = progress !== undefined;
  const coverPreview = usePreview(cover);
  const videoPreview = usePreview(video);
  const pick = (kind: 'video' | 'image') => (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file || !acceptable(file, kind, t)) return;
    if (kind === 'video') draft.setVideo(file);
    else draft.setCover(file);
  };
  const remove = (label: string, onClick: () => void) => (
    <button type="button" className="feedback-mine" disabled={busy} onClick={onClick}>
      {label}
    </button>
  );
  return (
    <>
      <List header={t('videoAdd.video')}>
        <List.Item
          description={t('videoAdd.videoHint', { list: VIDEO_EXTENSIONS.join(', ') })}
          extra={video && remove(t('videoAdd.removeVideo'), () => draft.setVideo(undefined))}
        >
          {video ? (
            <span data-testid="picked-video">
              {video.name} · {sizeText(video.size)}
            </span>
          ) : (
            <label className="feedback-mine">
              {t('videoAdd.pickVideo')}
              <input
                type="file"
                hidden
                disabled={busy}
                accept={`video/*,${VIDEO_EXTENSIONS.map((extension) => `.${extension}`).join(',')}`}
                aria-label={t('videoAdd.pickVideo')}
                onChange={pick('video')}
              />
            </label>
          )}
        </List.Item>
        {videoPreview && (
          <List.Item>
            <video
              className="article-video"
              data-testid="picked-video-preview"
              aria-label={t('videoAdd.preview')}
              controls
              playsInline
              preload="metadata"
              src={videoPreview}
              poster={coverPreview}
            />
          </List.Item>
        )}
      </List>
      <List header={t('videoAdd.cover')}>
        <List.Item extra={cover && remove(t('videoAdd.removeCover'), () => draft.setCover(undefined))}>
          {cover ? (
            coverPreview ? (
              <img className="feedback-thumb" src={coverPreview} alt={t('videoAdd.cover')} />
            ) : (
              <span>{cover.name}</span>
            )
          ) : (
            <label className="feedback-mine">
              {t('videoAdd.pickCover')}
              <input
                type="file"
                hidden
                disabled={busy}
                accept="image/jpeg,image/png,image/gif,.jpg,.jpeg,.png,.gif"
                aria-label={t('videoAdd.pickCover')}
                onChange={pick('image')}
              />
            </label>
          )}
        </List.Item>
        {onRemove && (
          <List.Item onClick={busy ? undefined : onRemove}>
            <span className="post-vote-mine">{t('circle.removeVideo')}</span>
          </List.Item>
        )}
      </List>
      {busy && (
        <div className="feedback-progress" data-testid="video-progress">
          <ProgressBar percent={progress} />
          <span>{t('videoAdd.publishing', { percent: progress })}</span>
        </div>
      )}
    </>
  );
}
