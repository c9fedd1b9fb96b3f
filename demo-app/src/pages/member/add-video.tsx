import { useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, Input, List, ProgressBar, Selector, TextArea } from 'antd-mobile';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useClosePage } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { ApiError } from '../../features/api/request';
import { UPLOAD_MAX_BYTES, useUploadFile } from '../../features/api/upload';
import { ARTICLES_QUERY, ARTICLE_LIMITS, articleProblem } from '../../features/content/articles';
import { useChannels } from '../../features/content/channels';
import {
  VIDEO_EXTENSIONS,
  isVideoFile,
  publishVideo,
  videoProgress,
  type VideoDraft,
} from '../../features/content/videos';
import { isProductImage } from '../../features/member/profile';
import { NavBar } from '../../ui/NavBar';
import { toastError } from '../../ui/toast';
import './feedback.css';

/** The size of a file for people: KB under a megabyte, else MB with one decimal. */
function sizeText(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A local preview of a picked image while the page shows it; undefined where the browser makes none. */
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

/**
 * Publish a video (spec §2 member/add-video; §4 "A video is uploaded first, then its cover, then the post. Progress
 * ... video 70, cover 20 ... On success an alert offers 'view content' ... On an upload failure an alert is shown and
 * progress jumps to 100"; §5 title 5 to 30 characters, text not blank, "A video cover is required", video types and
 * 30 MiB): the title, the text, a video and its cover, picked here and uploaded on Publish, and a channel if the
 * member picks one. What was uploaded is kept, so publishing again after a failure uploads only what is missing;
 * leaving the page stops an upload.
 */
export default function AddVideo() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const navigate = useNavigate();
  const close = useClosePage();
  const queryClient = useQueryClient();
  const uploadFile = useUploadFile();
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [video, setVideo] = useState<File | undefined>();
  const [cover, setCover] = useState<File | undefined>();
  const [typeid, setTypeid] = useState<string | undefined>();
  const [progress, setProgress] = useState<number | undefined>();
  const uploaded = useRef(new WeakMap<File, string>());
  const pending = useRef<AbortController | undefined>(undefined);
  const coverPreview = usePreview(cover);
  const channels = useChannels().query.data;
  const choices = channels ? [...channels.mine, ...channels.more] : [];
  useEffect(() => () => pending.current?.abort(), []);
  if (!user) return null;
  const busy = progress !== undefined;

  const pickVideo = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!isVideoFile(file)) return toastError(t('videoAdd.videoOnly', { list: VIDEO_EXTENSIONS.join(', ') }));
    if (file.size === 0) return toastError(t('videoAdd.empty'));
    if (file.size > UPLOAD_MAX_BYTES) return toastError(t('errors.upload_too_large'));
    setVideo(file);
  };
  const pickCover = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!isProductImage(file)) return toastError(t('profile.imageOnly'));
    if (file.size === 0) return toastError(t('videoAdd.empty'));
    if (file.size > UPLOAD_MAX_BYTES) return toastError(t('errors.upload_too_large'));
    setCover(file);
  };

  /** The URL of `file` in the storage: uploaded before, or now with its share of the progress. */
  const stored = async (file: File, part: 'video' | 'cover', signal: AbortSignal) => {
    const known = uploaded.current.get(file);
    if (known !== undefined) return known;
    const url = await uploadFile(file, { signal, onProgress: (percent) => setProgress(videoProgress(part, percent)) });
    uploaded.current.set(file, url);
    return url;
  };

  const publish = async () => {
    const problem = articleProblem(title, content);
    if (problem === 'title_short') return toastError(t('errors.article_title_short'));
    if (problem === 'title_long') return toastError(t('errors.article_title_long'));
    if (problem === 'content') {
      return toastError(
        content.trim() === ''
          ? t('errors.article_content_invalid')
          : t('article.contentLong', { max: ARTICLE_LIMITS.contentMax }),
      );
    }
    if (!video) return toastError(t('errors.video_invalid'));
    if (!cover) return toastError(t('errors.video_cover_missing'));
    const controller = new AbortController();
    pending.current = controller;
    setProgress(0);
    let draft: VideoDraft;
    try {
      const videoUrl = await stored(video, 'video', controller.signal);
      setProgress(videoProgress('cover', 0));
      const coverUrl = await stored(cover, 'cover', controller.signal);
      draft = { title, content, video: videoUrl, cover: coverUrl, typeid };
    } catch (error) {
      if (controller.signal.aborted) return;
      setProgress(100);
      const reason = error instanceof ApiError && error.code === 'upload_failed' ? error.message : errorText(error, t);
      await Dialog.alert({ title: t('errors.upload_failed'), content: reason, confirmText: t('common.ok') });
      return setProgress(undefined);
    }
    let id: string;
    try {
      id = await publishVideo(draft, { token: user.token, locale: i18n.language });
    } catch (error) {
      setProgress(undefined);
      return toastError(errorText(error, t));
    }
    setProgress(100);
    await queryClient.invalidateQueries({ queryKey: [ARTICLES_QUERY] });
    const view = await Dialog.confirm({
      content: t('article.published'),
      confirmText: t('article.view'),
      cancelText: t('common.close'),
    });
    if (view) void navigate(`/video/view?id=${encodeURIComponent(id)}`, { replace: true });
    else close();
  };

  const length = [...content.trim()].length;
  return (
    <div className="page">
      <NavBar title={t('videoAdd.title')} />
      <List>
        <List.Item title={<label htmlFor="video-title">{t('article.title')}</label>}>
          <Input
            id="video-title"
            value={title}
            onChange={setTitle}
            maxLength={ARTICLE_LIMITS.titleMax}
            placeholder={t('article.titlePlaceholder')}
          />
        </List.Item>
      </List>
      <List header={<label htmlFor="video-content">{t('videoAdd.content')}</label>}>
        <List.Item>
          <TextArea
            id="video-content"
            placeholder={t('videoAdd.contentPlaceholder')}
            value={content}
            onChange={setContent}
            autoSize={{ minRows: 4, maxRows: 12 }}
          />
          <div className={length > ARTICLE_LIMITS.contentMax ? 'feedback-count feedback-count-over' : 'feedback-count'}>
            {length}/{ARTICLE_LIMITS.contentMax}
          </div>
        </List.Item>
      </List>
      <List header={t('videoAdd.video')}>
        <List.Item
          description={t('videoAdd.videoHint', { list: VIDEO_EXTENSIONS.join(', ') })}
          extra={
            video && (
              <button type="button" className="feedback-mine" disabled={busy} onClick={() => setVideo(undefined)}>
                {t('videoAdd.removeVideo')}
              </button>
            )
          }
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
                onChange={pickVideo}
              />
            </label>
          )}
        </List.Item>
      </List>
      <List header={t('videoAdd.cover')}>
        <List.Item
          extra={
            cover && (
              <button type="button" className="feedback-mine" disabled={busy} onClick={() => setCover(undefined)}>
                {t('videoAdd.removeCover')}
              </button>
            )
          }
        >
          {cover ? (
            coverPreview ? (
              <img className="feedback-thumb" src={coverPreview} alt={t('videoAdd.cover')} />
            ) : (
              <span data-testid="picked-cover">{cover.name}</span>
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
                onChange={pickCover}
              />
            </label>
          )}
        </List.Item>
      </List>
      {choices.length > 0 && (
        <List header={t('article.channel')}>
          <List.Item>
            <Selector
              options={choices.map((channel) => ({ label: channel.name, value: channel.id }))}
              value={typeid === undefined ? [] : [typeid]}
              onChange={(value) => setTypeid(value[0])}
            />
          </List.Item>
        </List>
      )}
      {busy && (
        <div className="feedback-progress" data-testid="video-progress">
          <ProgressBar percent={progress} />
          <span>{t('videoAdd.publishing', { percent: progress })}</span>
        </div>
      )}
      <div className="page-actions">
        <Button block color="primary" loading={busy} onClick={() => void publish()}>
          {t('article.publish')}
        </Button>
      </div>
    </div>
  );
}
