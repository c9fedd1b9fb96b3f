import {
  CODES,
  LIMITS,
  MEDIA_TYPES,
  imageThumbnailQuery,
  unsupportedMediaType,
  videoSnapshotQuery,
} from '../../protocol/index.js';
import { ParleyError } from '../../core/errors.js';
import { probeAudio, probeImage, probeVideo, thumbnailSize } from '../upload/probe.js';
import type { Uploader } from '../upload/uploader.js';
import type { MessageTarget } from './types.js';
import type { PublishNotification } from '../pubsub/types.js';

/** The file payload: where the file is, its original name, size in bytes and MIME type. */
export interface FilePayload {
  url: string;
  name: string;
  size: number;
  contentType: string;
}
/** The image payload: a file with its size in pixels and a thumbnail URL. */
export interface ImagePayload extends FilePayload {
  width: number;
  height: number;
  thumbnail: string;
}
/** The audio payload: a file with its duration in seconds. */
export interface AudioPayload extends FilePayload {
  duration: number;
}
/** The video payload: the video (`name` is the stored file name, as the reference has it) and its thumbnail. */
export interface VideoPayload {
  video: {
    name: string;
    url: string;
    width: number;
    height: number;
    contentType: string;
    size: number;
    duration: number;
  };
  thumbnail: { name: string; url: string; width: number; height: number; contentType: string };
}

/** Options of `createFileMessage`: a File (or a Blob with a `name`) of 1 byte to 30 MiB, and the target. */
export interface FileMessageOptions {
  file: Blob;
  to: MessageTarget;
  /** Upload progress, 0 to 100, while `sendMessage` uploads the file. */
  onProgress?: (percent: number) => void;
  /** Aborts the upload: the message then fails with 500 `Upload aborted.` */
  signal?: AbortSignal;
  /** For native clients' notifications, as `createTextMessage` takes it. */
  notification?: PublishNotification;
}
/** Options of `createImageMessage`. Browsers measure the image; elsewhere pass `width` and `height` (else 0). */
export interface ImageMessageOptions extends FileMessageOptions {
  width?: number;
  height?: number;
}
/** Options of `createAudioMessage`. Browsers read the duration; elsewhere pass `duration` in seconds (else 0). */
export interface AudioMessageOptions extends FileMessageOptions {
  duration?: number;
}
/**
 * Options of `createVideoMessage`. Browsers read size and duration and capture a frame as the thumbnail; elsewhere
 * pass them, and optionally a `thumbnail` image file (else the thumbnail is the storage's snapshot URL).
 */
export interface VideoMessageOptions extends FileMessageOptions {
  width?: number;
  height?: number;
  duration?: number;
  thumbnail?: Blob;
}

/** The kinds of rich message. */
export type RichKind = 'image' | 'file' | 'audio' | 'video';

/** A rich message's upload, run by `sendMessage`: resolves with the final payload. */
export interface PendingUpload {
  run(uploader: Uploader): Promise<unknown>;
}

const KNOWN_TYPES: Record<string, string> = {
  gif: 'image/gif',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  mp3: 'audio/mpeg',
  mpeg: 'audio/mpeg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  quicktime: 'video/quicktime',
  '3gp': 'video/3gpp',
};

/** The extension a nameless image is uploaded under: the storage checks the type a file declares against its name. */
function imageExtension(image: Blob): string {
  const subtype = image.type.split(';')[0]!.trim().toLowerCase().split('/')[1];
  return subtype === 'png' || subtype === 'gif' || subtype === 'webp' ? subtype : 'jpg';
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

function nonNegative(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

/**
 * Checks a rich message's options with the reference's rules and words (product spec §5): a real file, not empty,
 * at most 30 MiB, and for image, audio and video one of the listed types (the MIME subtype, as the reference
 * reads it but without parameters, or the name's extension when the file has no type).
 */
export function validateMediaFile(kind: RichKind, options: unknown): { file: Blob; name: string; type: string } {
  if (typeof options !== 'object' || options === null) throw ParleyError.badRequest('emptyMessage');
  const file = (options as { file?: unknown }).file;
  if (file === undefined || file === null) throw ParleyError.badRequest('fileEmpty');
  if (typeof Blob === 'undefined' || !(file instanceof Blob)) throw ParleyError.badRequest('wrongFileType');
  const name = (file as Blob & { name?: unknown }).name;
  if (typeof name !== 'string' || name.trim() === '') throw ParleyError.badRequest('wrongFileType');
  if (file.size === 0) throw ParleyError.badRequest('fileSizeZero');
  if (file.size > LIMITS.fileMaxBytes) throw ParleyError.badRequest('fileTooLarge');
  // The subtype without parameters: a browser's recorder types its files e.g. `video/mp4;codecs=avc1`.
  const essence = file.type.split(';')[0]!.trim().toLowerCase();
  const typeName = essence ? (essence.split('/')[1] ?? '') : extensionOf(name);
  if (kind !== 'file' && !(MEDIA_TYPES[kind] as readonly string[]).includes(typeName)) {
    throw new ParleyError(CODES.BAD_REQUEST, unsupportedMediaType(kind));
  }
  const type = file.type || KNOWN_TYPES[extensionOf(name)] || 'application/octet-stream';
  return { file, name, type };
}

/** Reports overall progress forward only, in whole numbers; each part maps its 0..100 onto `[from, from + span]`. */
function progressOf(
  onProgress: ((p: number) => void) | undefined,
): (from: number, span: number) => (p: number) => void {
  let last = -1;
  return (from, span) => (p) => {
    const overall = Math.floor(from + (p * span) / 100);
    if (overall <= last) return;
    last = overall;
    onProgress?.(overall);
  };
}

/**
 * Builds a rich message's first payload (empty URLs until sent) and its upload. The upload measures the media
 * where the platform allows, posts the file (and a video's thumbnail), and builds the final payload.
 */
export function prepareMedia(
  kind: RichKind,
  options: FileMessageOptions & ImageMessageOptions & AudioMessageOptions & VideoMessageOptions,
): { payload: unknown; upload: PendingUpload } {
  const { file, name, type } = validateMediaFile(kind, options);
  const base: FilePayload = { url: '', name, size: file.size, contentType: type };
  const track = progressOf(options.onProgress);
  const post = (uploader: Uploader, from: number, span: number, attachment = false, what = file, as = name) =>
    uploader.upload({
      file: what,
      fileName: as,
      attachment,
      onProgress: track(from, span),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  switch (kind) {
    case 'file':
      return {
        payload: base,
        upload: { run: async (u) => ({ ...base, url: (await post(u, 0, 100, true)).url }) },
      };
    case 'image': {
      const given = { width: nonNegative(options.width), height: nonNegative(options.height) };
      return {
        payload: { ...base, ...given, thumbnail: '' } satisfies ImagePayload,
        upload: {
          run: async (u) => {
            const size = (await probeImage(file)) ?? given;
            const done = await post(u, 0, 100);
            const query = imageThumbnailQuery(done.token.vendor, size.height || 200);
            return { ...base, url: done.url, ...size, thumbnail: done.url + query } satisfies ImagePayload;
          },
        },
      };
    }
    case 'audio': {
      const given = nonNegative(options.duration);
      return {
        payload: { ...base, duration: given } satisfies AudioPayload,
        upload: {
          run: async (u) => {
            const duration = (await probeAudio(file)) ?? given;
            return { ...base, url: (await post(u, 0, 100)).url, duration } satisfies AudioPayload;
          },
        },
      };
    }
    case 'video':
      return videoMedia(options, { file, name, type }, post);
  }
}

type Post = (
  u: Uploader,
  from: number,
  span: number,
  attachment?: boolean,
  what?: Blob,
  as?: string,
) => ReturnType<Uploader['upload']>;

function videoMedia(
  options: VideoMessageOptions,
  { file, name, type }: { file: Blob; name: string; type: string },
  post: Post,
): { payload: VideoPayload; upload: PendingUpload } {
  const given = {
    width: nonNegative(options.width),
    height: nonNegative(options.height),
    duration: nonNegative(options.duration),
  };
  const givenThumb = options.thumbnail instanceof Blob && options.thumbnail.size > 0 ? options.thumbnail : undefined;
  const payload: VideoPayload = {
    video: { name, url: '', ...given, contentType: type, size: file.size },
    thumbnail: { name: '', url: '', ...thumbnailSize(given.width, given.height), contentType: 'image/jpeg' },
  };
  return {
    payload,
    upload: {
      run: async (u) => {
        const probed = await probeVideo(file);
        const meta = probed ? { width: probed.width, height: probed.height, duration: probed.duration } : given;
        const frame = probed?.frame ?? givenThumb;
        const video = await post(u, 0, frame ? 90 : 100);
        const thumbSize = thumbnailSize(meta.width, meta.height);
        const result: VideoPayload = {
          video: { name: video.storedName, url: video.url, ...meta, contentType: type, size: file.size },
          thumbnail: {
            name: video.storedName,
            url: video.url + videoSnapshotQuery(video.token.vendor, thumbSize.height || 200),
            ...thumbSize,
            contentType: 'image/jpeg',
          },
        };
        if (frame) {
          const own = (frame as Blob & { name?: unknown }).name;
          const thumbName =
            typeof own === 'string' && own !== '' ? own : `${name.replace(/\.[^.]*$/, '')}.${imageExtension(frame)}`;
          const thumb = await post(u, 90, 10, false, frame, thumbName);
          const contentType = frame.type || 'image/jpeg';
          result.thumbnail = { ...result.thumbnail, name: thumb.storedName, url: thumb.url, contentType };
        }
        return result;
      },
    },
  };
}
