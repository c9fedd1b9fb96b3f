/**
 * What a browser can tell about a media file before it is sent: an image's size, an audio's duration, a video's
 * size, duration and first frame. Each probe resolves with nothing where the platform has no media elements
 * (Node) or the file cannot be decoded, so that the caller falls back to the values it was given.
 */

/** Width and height in pixels. */
export interface Size {
  width: number;
  height: number;
}

/** A video's size, duration (s) and first frame (a JPEG of {@link thumbnailSize}), if the browser decodes it. */
export interface VideoProbe extends Size {
  duration: number;
  frame: Blob | undefined;
}

/** A thumbnail's size: at most 200 pixels high, the width scaled to keep the aspect ratio (product spec §9). */
export function thumbnailSize(width: number, height: number): Size {
  if (height <= 200) return { width, height };
  return { width: Math.round((width * 200) / height), height: 200 };
}

const hasDom = (): boolean => typeof document !== 'undefined' && typeof URL.createObjectURL === 'function';

/** An image's size, from `createImageBitmap` or an `Image` element. */
export async function probeImage(file: Blob): Promise<Size | undefined> {
  if (typeof createImageBitmap === 'function') {
    try {
      const bitmap = await createImageBitmap(file);
      const size = { width: bitmap.width, height: bitmap.height };
      bitmap.close();
      return size;
    } catch {
      // Some formats (e.g. an animated GIF in old engines) decode only through an element: try that below.
    }
  }
  if (!hasDom()) return undefined;
  return withObjectUrl(file, (src) =>
    loaded(
      () => new Image(),
      src,
      'load',
      (img) => ({ width: img.naturalWidth, height: img.naturalHeight }),
    ),
  );
}

/** An audio file's duration in seconds, from an `Audio` element's metadata. */
export async function probeAudio(file: Blob): Promise<number | undefined> {
  if (!hasDom()) return undefined;
  return withObjectUrl(file, (src) =>
    loaded(
      () => document.createElement('audio'),
      src,
      'loadedmetadata',
      (audio) => (Number.isFinite(audio.duration) ? audio.duration : 0),
    ),
  );
}

/**
 * A video's size and duration from its metadata, and its first frame drawn to a canvas of the thumbnail's size, so
 * that the image uploaded as the thumbnail is as large as the payload says.
 */
export async function probeVideo(file: Blob): Promise<VideoProbe | undefined> {
  if (!hasDom()) return undefined;
  return withObjectUrl(file, async (src) => {
    const video = await loaded(
      () => {
        const v = document.createElement('video');
        v.muted = true;
        v.preload = 'auto';
        return v;
      },
      src,
      'loadeddata',
      (v) => v,
    );
    if (!video) return undefined;
    const { videoWidth: width, videoHeight: height } = video;
    const duration = Number.isFinite(video.duration) ? video.duration : 0;
    return { width, height, duration, frame: await captureFrame(video, width, height) };
  });
}

async function captureFrame(
  video: HTMLVideoElement,
  videoWidth: number,
  videoHeight: number,
): Promise<Blob | undefined> {
  if (videoWidth === 0 || videoHeight === 0) return undefined;
  const { width, height } = thumbnailSize(videoWidth, videoHeight);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) return undefined;
  context.drawImage(video, 0, 0, width, height);
  return new Promise((resolve) => canvas.toBlob((blob) => resolve(blob ?? undefined), 'image/jpeg', 0.8));
}

async function withObjectUrl<T>(file: Blob, use: (src: string) => Promise<T>): Promise<T> {
  const src = URL.createObjectURL(file);
  try {
    return await use(src);
  } finally {
    URL.revokeObjectURL(src);
  }
}

/** Loads `src` into a new element and reads it once `event` fires; undefined on error or after 10 s. */
function loaded<E extends HTMLElement & { src: string }, T>(
  create: () => E,
  src: string,
  event: string,
  read: (element: E) => T,
): Promise<T | undefined> {
  return new Promise((resolve) => {
    const element = create();
    const timer = setTimeout(() => resolve(undefined), 10_000);
    element.addEventListener(
      event,
      () => {
        clearTimeout(timer);
        resolve(read(element));
      },
      { once: true },
    );
    element.addEventListener(
      'error',
      () => {
        clearTimeout(timer);
        resolve(undefined);
      },
      { once: true },
    );
    element.src = src;
  });
}
