import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp, { type FitEnum } from 'sharp';
import { ffmpegProbe, run, snapshotArgs, snapshotName, SNAPSHOT_LIMITS, type SnapshotRequest } from './snapshots.js';

/**
 * UP-20: the resize of OSS's image processing (`x-oss-process=image/resize,...`), for the images of the server's own
 * storage, so that a thumbnail URL (UP-5) serves a thumbnail, not the whole photo. Each size of an image is computed
 * once, with sharp, and kept beside the storage; a request that cannot be served so gets the original.
 */

/** How a resize fits the box (OSS's `m_`): sharp's `inside`, `outside`, `cover`, `contain` and `fill`. */
export type ResizeMode = 'lfit' | 'mfit' | 'fill' | 'pad' | 'fixed';

/**
 * A parsed `image/resize`: the box (`w_`, `h_`, or the long and short sides `l_`, `s_`). An image is never enlarged:
 * OSS's `limit_0` is taken and does nothing, so that a small upload cannot be made into files of 4 096 pixels a side.
 */
export interface ResizeRequest {
  mode: ResizeMode;
  width?: number;
  height?: number;
  long?: number;
  short?: number;
}

/** Bounds of image processing (docs/limits.md). */
export const THUMBNAIL_LIMITS = {
  /** A side asked for, in pixels: 1 to this (OSS allows 16 384; thumbnails need far less). */
  sideMax: 4096,
  /** Sizes kept of one image; past them, a new size gets the original. */
  variantsMax: 8,
  /** Pixels of an image resized at most (8 000 x 6 250); a larger one is served whole. */
  inputPixelsMax: 50_000_000,
  /** Resizes running at once on a node; more wait. */
  concurrent: 2,
  /** How long a size or snapshot that could not be made is not tried again (each try may run ffmpeg for seconds). */
  failureRetryMs: 60_000,
  /** Failures remembered at most; the oldest is forgotten first. */
  failuresKept: 1_000,
} as const;

const MODES: Record<ResizeMode, keyof FitEnum> = {
  lfit: 'inside',
  mfit: 'outside',
  fill: 'cover',
  pad: 'contain',
  fixed: 'fill',
};

// Each size is made once and kept on disk: libvips' cache of operations and open files would only hold memory, and
// the files of originals since deleted.
sharp.cache(false);

/** Formats resized, by extension: the same format back. A gif may be animated, and is served whole. */
const FORMATS: Record<string, 'jpeg' | 'png'> = { jpg: 'jpeg', jpeg: 'jpeg', png: 'png' };

/**
 * Parses OSS's `x-oss-process` value: the `resize` of an `image/...` chain (`image/resize,m_lfit,h_200`); other
 * operations of the chain are not done. Undefined when there is no resize, or a parameter is unknown or out of
 * bounds: the original is served then.
 */
export function parseImageProcess(value: unknown): ResizeRequest | undefined {
  if (typeof value !== 'string' || !value.startsWith('image/')) return undefined;
  const resize = value
    .slice('image/'.length)
    .split('/')
    .find((op) => op === 'resize' || op.startsWith('resize,'));
  if (!resize) return undefined;
  const out: ResizeRequest = { mode: 'lfit' };
  for (const param of resize.split(',').slice(1)) {
    const split = param.indexOf('_');
    if (split <= 0) return undefined;
    const name = param.slice(0, split);
    const text = param.slice(split + 1);
    if (name === 'm') {
      if (!Object.hasOwn(MODES, text)) return undefined;
      out.mode = text as ResizeMode;
      continue;
    }
    if (!/^\d{1,5}$/.test(text)) return undefined;
    const n = Number(text);
    if (name === 'limit') {
      if (n > 1) return undefined;
      continue;
    }
    const side = ({ w: 'width', h: 'height', l: 'long', s: 'short' } as const)[name as 'w' | 'h' | 'l' | 's'];
    if (!side || n < 1 || n > THUMBNAIL_LIMITS.sideMax) return undefined;
    out[side] = n;
  }
  const sized = [out.width, out.height, out.long, out.short].some((n) => n !== undefined);
  return sized ? out : undefined;
}

/** The name a size of an image is kept under: every parameter, so that two requests of one size share it. */
function variantName(request: ResizeRequest, ext: string): string {
  const { mode, width = 0, height = 0, long = 0, short = 0 } = request;
  return `${mode}-w${width}-h${height}-l${long}-s${short}.${ext}`;
}

/** The box in pixels: `w_`/`h_` as given, else the long and short sides laid on the image's orientation. */
function boxOf(request: ResizeRequest, landscape: boolean): { width?: number; height?: number } {
  if (request.width !== undefined || request.height !== undefined) {
    return { width: request.width, height: request.height };
  }
  const [across, down] = landscape ? [request.long, request.short] : [request.short, request.long];
  return { width: across, height: down };
}

/** A gate letting `size` tasks run at once. */
function gate(size: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= size) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await task();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
}

/** Sizes of the images and snapshots of the videos under `root`, kept in `<root>/.thumbs/<key>/` (a dot-named dir no key can name). */
export class Thumbnails {
  readonly #root: string;
  readonly #inFlight = new Map<string, Promise<string | undefined>>();
  readonly #gate = gate(THUMBNAIL_LIMITS.concurrent);
  readonly #ffmpeg: string | false;
  readonly #hasFfmpeg: () => Promise<boolean>;
  readonly #snapshotTimeoutMs: number;
  readonly #failureRetryMs: number;
  /** When each path that could not be made failed, oldest first. */
  readonly #failed = new Map<string, number>();

  /**
   * `ffmpeg`: the program that takes video snapshots (UP-21), or false for none; `snapshotTimeoutMs`: how long it may
   * take for one (@default {@link SNAPSHOT_LIMITS.timeoutMs}).
   */
  constructor(
    root: string,
    options: { ffmpeg: string | false; snapshotTimeoutMs?: number; failureRetryMs?: number } = { ffmpeg: false },
  ) {
    this.#root = root;
    this.#ffmpeg = options.ffmpeg;
    this.#hasFfmpeg = ffmpegProbe(options.ffmpeg);
    this.#snapshotTimeoutMs = options.snapshotTimeoutMs ?? SNAPSHOT_LIMITS.timeoutMs;
    this.#failureRetryMs = options.failureRetryMs ?? THUMBNAIL_LIMITS.failureRetryMs;
  }

  /**
   * The path of the size `request` of the image at `source` (stored under `key`, of extension `ext`), made now if
   * needed; undefined when it is not to be made (a format not resized, an image too large or unreadable, too many
   * sizes of it kept already): the original is served then.
   */
  async variant(key: string, source: string, ext: string, request: ResizeRequest): Promise<string | undefined> {
    const format = FORMATS[ext];
    if (!format) return undefined;
    return this.#kept(key, variantName(request, ext), (path) => this.#make(path, source, format, request));
  }

  /**
   * UP-21: the path of the snapshot `request` of the video at `source` (stored under `key`, of extension `ext`), taken
   * now if needed; undefined when it cannot be (no ffmpeg, a file ffmpeg cannot read or that has no picture, too
   * many sizes of it kept already).
   */
  async snapshot(key: string, source: string, ext: string, request: SnapshotRequest): Promise<string | undefined> {
    if (!(await this.#hasFfmpeg())) return undefined;
    return this.#kept(key, snapshotName(request), (path) => this.#take(path, source, ext, request));
  }

  /** Forgets every size kept of `key`'s image: its file is gone. */
  async forget(key: string): Promise<void> {
    await rm(join(this.#root, '.thumbs', key), { recursive: true, force: true });
  }

  /** The kept file `name` of `key`, made by `make` (once, however many ask at the same time) when it is not kept yet. */
  async #kept(
    key: string,
    name: string,
    make: (path: string) => Promise<string | undefined>,
  ): Promise<string | undefined> {
    const dir = join(this.#root, '.thumbs', key);
    const path = join(dir, name);
    if (await stat(path).catch(() => undefined)) return path;
    const running = this.#inFlight.get(path);
    if (running) return running;
    const failedAt = this.#failed.get(path);
    if (failedAt !== undefined && Date.now() - failedAt < this.#failureRetryMs) return undefined;
    this.#failed.delete(path);
    const made = this.#gate(async () => {
      const kept = (await readdir(dir).catch(() => [] as string[])).filter((n) => !n.startsWith('.'));
      if (kept.length >= THUMBNAIL_LIMITS.variantsMax) return undefined;
      await mkdir(dir, { recursive: true });
      return make(path);
    })
      .catch(() => {
        this.#failed.set(path, Date.now());
        if (this.#failed.size > THUMBNAIL_LIMITS.failuresKept) this.#failed.delete(this.#failed.keys().next().value!);
        return undefined;
      })
      .finally(() => this.#inFlight.delete(path));
    this.#inFlight.set(path, made);
    return made;
  }

  /** Writes what `write` makes at a temporary name beside `path`, then moves it there: never half a file at `path`. */
  async #atomically(path: string, write: (tmp: string) => Promise<void>): Promise<string> {
    const tmp = join(dirname(path), `.${randomUUID()}`);
    try {
      await write(tmp);
      await rename(tmp, path);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    return path;
  }

  async #make(
    path: string,
    source: string,
    format: 'jpeg' | 'png',
    request: ResizeRequest,
  ): Promise<string | undefined> {
    const options = { limitInputPixels: THUMBNAIL_LIMITS.inputPixelsMax, failOn: 'error' as const };
    const meta = await sharp(source, options).metadata();
    // EXIF orientations 5 to 8 turn the image a quarter: its sides swap once it is shown upright.
    const turned = (meta.orientation ?? 1) >= 5;
    const [across, down] = turned ? [meta.height, meta.width] : [meta.width, meta.height];
    const box = boxOf(request, across >= down);
    const resized = sharp(source, options)
      .rotate()
      .resize({
        ...box,
        fit: MODES[request.mode],
        withoutEnlargement: true,
        background: { r: 255, g: 255, b: 255, alpha: 1 },
      })
      .toFormat(format);
    return this.#atomically(path, async (tmp) => {
      await resized.toFile(tmp);
    });
  }

  async #take(path: string, source: string, ext: string, request: SnapshotRequest): Promise<string | undefined> {
    const ffmpeg = this.#ffmpeg;
    if (ffmpeg === false) return undefined;
    return this.#atomically(path, async (tmp) => {
      const frame = async (timeMs: number) => {
        await run(ffmpeg, snapshotArgs(source, ext, tmp, request, timeMs), this.#snapshotTimeoutMs);
        return ((await stat(tmp).catch(() => undefined))?.size ?? 0) > 0;
      };
      // A time past the end gives no frame (ffmpeg still exits 0): the first frame is taken then.
      if (await frame(request.timeMs)) return;
      if (request.timeMs > 0 && (await frame(0))) return;
      throw new Error('no frame');
    });
  }
}
