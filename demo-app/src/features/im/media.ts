import type { AudioPayload, FilePayload, ImagePayload, Message, VideoPayload } from 'parley-im';

/** The kinds of media message the chat sends and shows. */
export type MediaKind = 'image' | 'file' | 'audio' | 'video';

/** Whether a message is a media message. */
export function isMedia(message: Message): message is Message & { type: MediaKind } {
  return message.type === 'image' || message.type === 'file' || message.type === 'audio' || message.type === 'video';
}

/**
 * A payload URL the app may put in `src` or `href`: http(s) only. A message's payload comes from its sender, so a
 * `javascript:` or `data:` URL in it is shown as unavailable rather than used.
 */
export function safeUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const count = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;

/** A media message's payload, read defensively: every field is checked, URLs made safe. */
export type MediaView =
  | { kind: 'image'; url?: string; thumbnail?: string; name: string; width: number; height: number }
  | { kind: 'file'; url?: string; name: string; size: number }
  | { kind: 'audio'; url?: string; name: string; duration: number }
  | { kind: 'video'; url?: string; thumbnail?: string; name: string; width: number; height: number; duration: number };

/** Reads the payload of a media message. */
export function mediaView(kind: MediaKind, payload: unknown): MediaView {
  const p = (typeof payload === 'object' && payload !== null ? payload : {}) as Partial<
    FilePayload & ImagePayload & AudioPayload
  >;
  switch (kind) {
    case 'image':
      return {
        kind,
        url: safeUrl(p.url),
        thumbnail: safeUrl(p.thumbnail) ?? safeUrl(p.url),
        name: text(p.name),
        width: count(p.width),
        height: count(p.height),
      };
    case 'file':
      return { kind, url: safeUrl(p.url), name: text(p.name), size: count(p.size) };
    case 'audio':
      return { kind, url: safeUrl(p.url), name: text(p.name), duration: count(p.duration) };
    case 'video': {
      const v = payload as Partial<VideoPayload> | null;
      const video = (typeof v?.video === 'object' && v.video !== null ? v.video : {}) as Partial<VideoPayload['video']>;
      const thumb = (typeof v?.thumbnail === 'object' && v.thumbnail !== null ? v.thumbnail : {}) as Partial<
        VideoPayload['thumbnail']
      >;
      return {
        kind,
        url: safeUrl(video.url),
        thumbnail: safeUrl(thumb.url),
        name: text(video.name),
        width: count(video.width),
        height: count(video.height),
        duration: count(video.duration),
      };
    }
  }
}

/** Longest side of an image or video thumbnail in a bubble, in CSS pixels. */
const MAX_SIDE = 200;

/** The size to show an image at: its own, scaled down to fit {@link MAX_SIDE}; undefined when it is not known. */
export function fitted(width: number, height: number): { width: number; height: number } | undefined {
  if (width <= 0 || height <= 0) return undefined;
  const scale = Math.min(1, MAX_SIDE / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** A file size for people: bytes, KB or MB. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A duration in seconds as m:ss. */
export function formatDuration(seconds: number): string {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** What the file chooser of each kind offers (spec §5: the types each kind allows; any file for `file`). */
export const ACCEPT: Record<MediaKind, string | undefined> = {
  image: 'image/gif,image/jpeg,image/png',
  video: 'video/*',
  audio: 'audio/*',
  file: undefined,
};
