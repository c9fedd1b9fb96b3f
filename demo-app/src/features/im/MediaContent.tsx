import { Button, ImageViewer, ProgressBar } from 'antd-mobile';
import type { MessageUpload } from 'parley-im';
import { useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fitted, formatDuration, formatSize, mediaView, type MediaKind, type MediaView } from './media';
import { useObjectUrl } from './useObjectUrl';

/** Props of {@link MediaContent}. */
export interface MediaContentProps {
  kind: MediaKind;
  payload: unknown;
  /** The upload while this device sends the message (or after it failed): progress, and the file to preview. */
  upload: MessageUpload | undefined;
  /** Whether the upload is under way (the message is `sending`). */
  uploading: boolean;
  onAbort: () => void;
}

/** Taps on media play or open it; they must not also open the bubble's actions. */
const keep = (event: MouseEvent) => event.stopPropagation();

function ImageContent({ view, preview }: { view: Extract<MediaView, { kind: 'image' }>; preview?: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const src = view.thumbnail ?? preview;
  const size = fitted(view.width, view.height);
  if (!src) return <MediaUnavailable name={view.name} />;
  return (
    <>
      <img
        className="media-image"
        src={src}
        alt={view.name || t('im.attachImage')}
        width={size?.width}
        height={size?.height}
        onClick={(e) => {
          keep(e);
          setOpen(true);
        }}
      />
      <ImageViewer image={view.url ?? src} visible={open} onClose={() => setOpen(false)} />
    </>
  );
}

function VideoContent({ view }: { view: Extract<MediaView, { kind: 'video' }> }) {
  const { t } = useTranslation();
  const [playing, setPlaying] = useState(false);
  // A cover that does not load (a storage without snapshots, UP-21) leaves the plain dark cover, not a broken image.
  const [coverFailed, setCoverFailed] = useState(false);
  const cover = coverFailed ? undefined : view.thumbnail;
  const size = fitted(view.width, view.height) ?? { width: 200, height: 112 };
  if (!view.url) return <MediaUnavailable name={view.name} />;
  if (playing) {
    return (
      <video
        className="media-video"
        src={view.url}
        poster={cover}
        controls
        autoPlay
        playsInline
        width={size.width}
        height={size.height}
        onClick={keep}
      />
    );
  }
  return (
    <button
      type="button"
      className="media-video-cover"
      style={{ width: size.width, height: size.height }}
      aria-label={t('im.playVideo')}
      onClick={(e) => {
        keep(e);
        setPlaying(true);
      }}
    >
      {cover && <img src={cover} alt="" width={size.width} height={size.height} onError={() => setCoverFailed(true)} />}
      <span className="media-play" aria-hidden="true">
        ▶
      </span>
      {view.duration > 0 && <span className="media-duration">{formatDuration(view.duration)}</span>}
    </button>
  );
}

function AudioContent({ view }: { view: Extract<MediaView, { kind: 'audio' }> }) {
  if (!view.url) return <MediaUnavailable name={view.name} />;
  return (
    <span className="media-audio">
      <audio src={view.url} controls preload="none" onClick={keep} />
      {view.duration > 0 && <span className="media-duration">{formatDuration(view.duration)}</span>}
    </span>
  );
}

function FileContent({ view }: { view: Extract<MediaView, { kind: 'file' }> }) {
  const { t } = useTranslation();
  return (
    <span className="media-file">
      <span className="media-file-icon" aria-hidden="true">
        📄
      </span>
      <span className="media-file-text">
        <span className="media-file-name">{view.name}</span>
        <span className="media-file-size">{formatSize(view.size)}</span>
      </span>
      {view.url && (
        <a
          className="media-download"
          href={view.url}
          download={view.name}
          target="_blank"
          rel="noopener noreferrer"
          onClick={keep}
        >
          {t('im.download')}
        </a>
      )}
    </span>
  );
}

function MediaUnavailable({ name }: { name: string }) {
  const { t } = useTranslation();
  return (
    <span className="media-unavailable">
      {name && <span className="media-file-name">{name}</span>}
      <span>{t('im.mediaUnavailable')}</span>
    </span>
  );
}

/**
 * A media message's content: an image (tap to view large), a video cover that plays, an audio player, a file to
 * download. While this device uploads it: the file's name, a local preview of an image, progress and cancel. Names
 * are text and URLs only http(s) (spec: user content as text).
 */
export function MediaContent({ kind, payload, upload, uploading, onAbort }: MediaContentProps) {
  const { t } = useTranslation();
  const view = mediaView(kind, payload);
  const preview = useObjectUrl(kind === 'image' && !view.url ? upload?.file : undefined);
  let content;
  if (uploading || (upload && !view.url)) {
    content =
      view.kind === 'image' && preview ? (
        <ImageContent view={view} preview={preview} />
      ) : (
        <span className="media-file-name">{view.name}</span>
      );
  } else {
    switch (view.kind) {
      case 'image':
        content = <ImageContent view={view} />;
        break;
      case 'video':
        content = <VideoContent view={view} />;
        break;
      case 'audio':
        content = <AudioContent view={view} />;
        break;
      case 'file':
        content = <FileContent view={view} />;
        break;
    }
  }
  return (
    <span className="media" data-testid="media" data-kind={kind}>
      {content}
      {uploading && upload && (
        <span className="media-progress" onClick={keep} role="presentation">
          <ProgressBar percent={upload.progress} />
          <span>{t('im.uploading', { percent: upload.progress })}</span>
          <Button size="mini" fill="none" onClick={onAbort}>
            {t('im.cancelUpload')}
          </Button>
        </span>
      )}
    </span>
  );
}
