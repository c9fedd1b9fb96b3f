import * as z from 'zod/mini';
import { RENDITION_LIMITS } from './renditions.js';

/** S3-compatible object storage that clients post to directly (an AWS SigV4 presigned POST). */
export interface S3Config {
  /** The S3 endpoint, e.g. `https://s3.eu-west-1.amazonaws.com` or a MinIO URL. Env `PARLEY_S3_ENDPOINT`. */
  endpoint: string;
  /** Env `PARLEY_S3_BUCKET`. */
  bucket: string;
  /** Env `PARLEY_S3_REGION`. @default 'us-east-1' */
  region: string;
  /** Env `PARLEY_S3_ACCESS_KEY`. */
  accessKey: string;
  /** Signs the POST policies; never leaves the server. Env `PARLEY_S3_SECRET_KEY`. */
  secretKey: string;
  /** Where uploaded files are read, e.g. a CDN. Env `PARLEY_S3_PUBLIC_URL`. @default `<endpoint>/<bucket>` */
  publicUrl: string | undefined;
}

/** Upload storage settings. */
export interface UploadConfig {
  /** Where the server's own storage keeps files. Env `PARLEY_UPLOAD_DIR`. @default `<dataDir>/uploads` */
  dir: string | undefined;
  /** When set, files go to this S3 bucket instead of the server's own storage. */
  s3: S3Config | undefined;
  /**
   * UP-21: the ffmpeg program that takes video snapshots for the server's own storage, a path or a name on `PATH`;
   * `false` for none (snapshots are answered 404). Env `PARLEY_FFMPEG` (`off` for false). @default 'ffmpeg'
   */
  ffmpeg?: string | false | undefined;
  /** UP-22: how the renditions of product videos are made in the server's own storage. */
  renditions?: RenditionConfig | undefined;
}

/** UP-22: the background ffmpeg runs that make a product video's lower resolutions. */
export interface RenditionConfig {
  /** ffmpeg runs at once on a node, 0 to 8; 0 makes none. Env `PARLEY_RENDITION_CONCURRENCY`. @default 1 */
  concurrency: number;
  /** How long one rendition may take before ffmpeg is killed, in ms. Env `PARLEY_RENDITION_TIMEOUT_MS`. @default 600000 */
  timeoutMs: number;
}

const nonEmpty = (what: string) => z.string({ error: `must be ${what}` }).check(z.minLength(1, `must be ${what}`));
const httpUrl = z
  .string({ error: 'must be an http(s) URL' })
  .check(z.regex(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, 'must be an http(s) URL'));

const intIn = (min: number, max: number) =>
  z
    .int({ error: `must be an integer from ${min} to ${max}` })
    .check(
      z.gte(min, `must be an integer from ${min} to ${max}`),
      z.lte(max, `must be an integer from ${min} to ${max}`),
    );

/** Validates the `uploads` setting. */
export const uploadConfigSchema = z._default(
  z.object({
    dir: z.optional(nonEmpty('a directory path')),
    s3: z.optional(
      z.object({
        endpoint: httpUrl,
        bucket: z.string().check(z.regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name')),
        region: z._default(nonEmpty('a region name'), 'us-east-1'),
        accessKey: nonEmpty('an access key id'),
        secretKey: nonEmpty('a secret access key'),
        publicUrl: z.optional(httpUrl),
      }),
    ),
    ffmpeg: z._default(z.union([nonEmpty('a program path or name, or off'), z.literal(false)]), 'ffmpeg'),
    renditions: z._default(
      z.object({
        concurrency: z._default(intIn(0, RENDITION_LIMITS.concurrencyMax), RENDITION_LIMITS.concurrency),
        timeoutMs: z._default(intIn(1000, 86_400_000), RENDITION_LIMITS.timeoutMs),
      }),
      { concurrency: RENDITION_LIMITS.concurrency, timeoutMs: RENDITION_LIMITS.timeoutMs },
    ),
  }),
  {
    ffmpeg: 'ffmpeg',
    renditions: { concurrency: RENDITION_LIMITS.concurrency, timeoutMs: RENDITION_LIMITS.timeoutMs },
  },
);

/** Validates `PARLEY_PUBLIC_URL`. */
export const publicUrlSchema = z.optional(httpUrl);

/** Environment variable of each upload setting, to name the source in errors. */
export const UPLOAD_ENV_NAMES: Record<string, string> = {
  publicUrl: 'PARLEY_PUBLIC_URL',
  'uploads.dir': 'PARLEY_UPLOAD_DIR',
  'uploads.s3.endpoint': 'PARLEY_S3_ENDPOINT',
  'uploads.s3.bucket': 'PARLEY_S3_BUCKET',
  'uploads.s3.region': 'PARLEY_S3_REGION',
  'uploads.s3.accessKey': 'PARLEY_S3_ACCESS_KEY',
  'uploads.s3.secretKey': 'PARLEY_S3_SECRET_KEY',
  'uploads.s3.publicUrl': 'PARLEY_S3_PUBLIC_URL',
  'uploads.ffmpeg': 'PARLEY_FFMPEG',
  'uploads.renditions.concurrency': 'PARLEY_RENDITION_CONCURRENCY',
  'uploads.renditions.timeoutMs': 'PARLEY_RENDITION_TIMEOUT_MS',
};

/**
 * Reads the upload settings from the environment, still unvalidated. S3 is on when any `PARLEY_S3_*` is set, so that
 * a missing one is reported rather than silently falling back to the server's own storage.
 */
export function readUploadEnv(get: (name: string) => string | undefined): Record<string, unknown> | undefined {
  const s3 = Object.fromEntries(
    Object.entries({
      endpoint: get('PARLEY_S3_ENDPOINT'),
      bucket: get('PARLEY_S3_BUCKET'),
      region: get('PARLEY_S3_REGION'),
      accessKey: get('PARLEY_S3_ACCESS_KEY'),
      secretKey: get('PARLEY_S3_SECRET_KEY'),
      publicUrl: get('PARLEY_S3_PUBLIC_URL'),
    }).filter(([, v]) => v !== undefined),
  );
  const dir = get('PARLEY_UPLOAD_DIR');
  const ffmpeg = get('PARLEY_FFMPEG');
  const out: Record<string, unknown> = {};
  if (dir !== undefined) out['dir'] = dir;
  if (ffmpeg !== undefined) out['ffmpeg'] = ffmpeg === 'off' ? false : ffmpeg;
  // Kept as text when not a number, so that the error shows what was given.
  const num = (v: string | undefined) => (v !== undefined && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v);
  const renditions = Object.fromEntries(
    Object.entries({
      concurrency: num(get('PARLEY_RENDITION_CONCURRENCY')),
      timeoutMs: num(get('PARLEY_RENDITION_TIMEOUT_MS')),
    }).filter(([, v]) => v !== undefined),
  );
  if (Object.keys(renditions).length > 0) out['renditions'] = renditions;
  if (Object.keys(s3).length > 0) out['s3'] = s3;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Strips trailing slashes, so that URLs are joined with exactly one. */
export function trimUrl(url: string): string {
  return url.replace(/\/+$/, '');
}
