import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { AppRegistry } from '../auth/apps.js';
import type { AppConfig } from '../config.js';
import { silentLogger, type Logger } from '../logger.js';
import { ServiceError } from '../errors.js';
import { CODES, LIMITS, MESSAGES, type AliUploadToken, type UploadToken } from '../protocol.js';
import { trimUrl, type UploadConfig } from './config.js';
import { appTag, declarableTypes, extensionOf, isSafeKey, newStoredName, servedType } from './keys.js';
import { LocalStorage, fileAt, type StoredFile } from './local-storage.js';
import { localRenditionFiles, s3RenditionFiles } from './rendition-files.js';
import { Renditions } from './rendition-worker.js';
import type { VideoSource } from './renditions.js';
import { isVideoExtension, parseVideoSnapshot } from './snapshots.js';
import { Thumbnails, parseImageProcess } from './thumbnails.js';
import { checkPolicy, encodePolicy, signPolicy, signatureMatches, type PolicyDocument } from './policy.js';
import {
  PRODUCT_CONTENT_TYPE_PATTERN,
  PRODUCT_UPLOAD_EXTENSIONS,
  PRODUCT_VIDEO_EXTENSIONS,
  decodeUploadToken,
  encodeUploadToken,
  isProductKey,
  productKeyPattern,
  productKeyPrefix,
  type ProductUploadToken,
} from './product.js';
import { deleteS3Object, presignS3Form, presignS3Post } from './s3.js';

/** How long an upload token may be used: long enough to start a 30 MiB upload on a slow link. */
export const UPLOAD_TOKEN_TTL_MS = 15 * 60_000;

/** Path under the server's public URL where its own storage takes POSTs and serves files. */
export const UPLOAD_PATH = '/uploads';

/** What an upload is for; each purpose has its own directory. IM messages use `im`; product uploads add theirs. */
export type UploadPurpose = 'im' | 'product';

/** A POST form that passed every check; its file may now be stored. */
export interface AcceptedForm {
  key: string;
  minBytes: number;
  maxBytes: number;
  /** The key must not hold a file yet (the policy's `insertOnly`). */
  insertOnly: boolean;
  /**
   * How to answer: `oss` with OSS's `success_action_status` (200, 201 or 204), `token` (the product app's form,
   * UP-17) with 200 and `{key, url}`.
   */
  answer: { form: 'oss'; successStatus: 200 | 201 | 204 } | { form: 'token'; url: string };
}

/** A stored file with how to serve it. */
export interface ServedFile extends StoredFile {
  contentType: string;
  /** Images, audio and video are shown inline; anything else is served as a download. */
  inline: boolean;
}

/** Signed direct uploads: tokens for clients, and the server's own storage that takes their POSTs. */
export interface UploadService {
  /** `ALI` when the server stores files itself, `S3` when an S3 bucket does. */
  readonly vendor: 'ALI' | 'S3';
  /** UP-2: a token to post one file named like `filename` (only its extension is kept). */
  issueToken(params: { app: AppConfig; filename: string; purpose?: UploadPurpose }): UploadToken;
  /** Where clients post files: the server's own `/uploads`, or the S3 bucket. */
  postUrl(): string;
  /** UP-17: a token for the product app's member to post image and video files under their own key prefix. */
  issueProductToken(params: { app: AppConfig; memberId: string }): ProductUploadToken;
  /**
   * Whether `url` is a file the member uploaded through the product app, with one of `extensions`; for the server's
   * own storage the file must also exist (S3 is not asked).
   */
  isProductFile(params: {
    app: AppConfig;
    memberId: string;
    url: unknown;
    extensions: readonly string[];
  }): Promise<boolean>;
  /**
   * MEM-7: deletes the files a cancelled member uploaded through the product app that `refs` (texts: URLs, JSON lists
   * of them) name and `kept` does not; how many. Only keys under the member's own prefix count, whatever the host.
   */
  removeProductFiles(params: {
    app: AppConfig;
    memberId: string;
    refs: readonly string[];
    kept: readonly string[];
  }): Promise<number>;
  /** UP-9..UP-11, UP-17: checks the fields posted before the file (signature, expiry, conditions, key). */
  checkForm(fields: Readonly<Record<string, string>>, fileContentType: string): AcceptedForm;
  /** UP-12: stores the posted file, enforcing the size range while it streams. */
  store(form: AcceptedForm, file: Readable): Promise<{ size: number }>;
  /**
   * UP-14: a stored file, or undefined. With `process`, OSS's `x-oss-process` query, an image of the server's own
   * storage is resized as it asks (UP-20), and a video's snapshot is taken (UP-21).
   * @throws ServiceError 400 for a snapshot query that is not valid or not of a video, 404 for a snapshot that
   * cannot be taken.
   */
  read(key: string, process?: unknown): Promise<ServedFile | undefined>;
  /**
   * UP-22: the resolutions of the product video at `url`, smallest first: its renditions made so far and the original
   * for the quality it stands for; none with S3, for another file, or while nothing is known of it yet.
   */
  videoSources(url: string): Promise<VideoSource[]>;
  /** Resolves once no video waits for its renditions or is worked on. */
  renditionsSettled(): Promise<void>;
  /** Stops making renditions: the ffmpeg running is stopped, the videos waiting are left (taken up when shown). */
  close(): Promise<void>;
}

/** What {@link createUploadService} needs. */
export interface UploadDeps {
  config: UploadConfig;
  dataDir: string;
  apps: AppRegistry;
  /** The server's public base URL without a trailing slash; known only once it listens. */
  publicUrl: () => string;
  now: () => number;
  /** @default {@link LIMITS.fileMaxBytes} */
  maxBytes?: number;
  /** Where failed renditions are told. @default a silent logger */
  logger?: Logger;
}

/** Whether `key` is a video uploaded through the product app, whose renditions are made (UP-22). */
const isProductVideo = (key: string) =>
  key.startsWith('product/') && PRODUCT_VIDEO_EXTENSIONS.includes(extensionOf(key));

const MIME = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$/;

/**
 * UP-19: the posted fields by lower-case name, as OSS reads them and as the policy is checked, with `server` (what the
 * server itself knows) in place of any posted field of the same name. Two posted fields whose names differ only in
 * case are refused: the policy would check one and the storage could act on the other.
 */
function formFields(
  posted: Readonly<Record<string, string>>,
  server: Readonly<Record<string, string>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(posted)) {
    const lower = name.toLowerCase();
    if (Object.hasOwn(out, lower)) throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.uploadFieldRepeated);
    out[lower] = value;
  }
  for (const [name, value] of Object.entries(server)) out[name.toLowerCase()] = value;
  return out;
}

/** Builds the upload service over the server's own storage or, when configured, S3. */
export function createUploadService(deps: UploadDeps): UploadService {
  const maxBytes = deps.maxBytes ?? LIMITS.fileMaxBytes;
  const storage = new LocalStorage(deps.config.dir ?? join(deps.dataDir, 'uploads'));
  const thumbnails = new Thumbnails(storage.root, { ffmpeg: deps.config.ffmpeg ?? 'ffmpeg' });
  const s3 = deps.config.s3;
  const renditions = new Renditions({
    files: s3 ? s3RenditionFiles(s3, join(storage.root, '.tmp'), deps.now) : localRenditionFiles(storage.root),
    ffmpeg: deps.config.ffmpeg ?? 'ffmpeg',
    concurrency: deps.config.renditions?.concurrency,
    timeoutMs: deps.config.renditions?.timeoutMs,
    logger: deps.logger ?? silentLogger(),
  });
  const ownHost = () => `${deps.publicUrl()}${UPLOAD_PATH}`;
  const s3Host = (config: NonNullable<typeof s3>) => `${trimUrl(config.endpoint)}/${config.bucket}`;
  /** Where a stored file is read, followed by its key. */
  const urlPrefix = () => (s3 ? `${trimUrl(s3.publicUrl ?? s3Host(s3))}/` : `${ownHost()}/`);

  return {
    vendor: s3 ? 'S3' : 'ALI',

    postUrl() {
      return s3 ? s3Host(s3) : ownHost();
    },

    issueProductToken({ app, memberId }) {
      const keyPrefix = productKeyPrefix(app.appkey, memberId);
      const now = deps.now();
      const expiresAt = now + UPLOAD_TOKEN_TTL_MS;
      if (s3) {
        const form = presignS3Form({ config: s3, target: { keyPrefix }, now, ttlMs: UPLOAD_TOKEN_TTL_MS, maxBytes });
        return {
          token: form.fields['policy'] ?? '',
          uploadUrl: form.host,
          fields: form.fields,
          keyPrefix,
          urlPrefix: `${form.publicBase}/`,
          expiresAt,
        };
      }
      const doc: PolicyDocument = {
        expiration: new Date(expiresAt).toISOString(),
        conditions: [
          ['content-length-range', 1, maxBytes],
          ['starts-with', '$key', keyPrefix],
          // The app makes the random part; the name's form and extension are still the storage's to decide.
          ['matches', '$key', productKeyPattern(keyPrefix, PRODUCT_UPLOAD_EXTENSIONS)],
          ['matches', '$Content-Type', PRODUCT_CONTENT_TYPE_PATTERN],
        ],
        // The app picks keys, so a token must not be able to replace a file already served as immutable.
        insertOnly: true,
      };
      const policy = encodePolicy(doc);
      const token = encodeUploadToken({
        accessKeyId: app.appkey,
        signature: signPolicy(app.secretKey, policy),
        policy,
      });
      return { token, uploadUrl: ownHost(), fields: { token }, keyPrefix, urlPrefix: urlPrefix(), expiresAt };
    },

    async isProductFile({ app, memberId, url, extensions }) {
      const prefix = urlPrefix();
      if (typeof url !== 'string' || !url.startsWith(prefix)) return false;
      const key = url.slice(prefix.length);
      if (!isProductKey(key, productKeyPrefix(app.appkey, memberId), extensions)) return false;
      return s3 ? true : (await storage.read(key)) !== undefined;
    },

    async removeProductFiles({ app, memberId, refs, kept }) {
      const pattern = new RegExp(
        productKeyPattern(productKeyPrefix(app.appkey, memberId), PRODUCT_UPLOAD_EXTENSIONS),
        'gu',
      );
      const keysIn = (texts: readonly string[]) => new Set(texts.flatMap((text) => text.match(pattern) ?? []));
      const keep = keysIn(kept);
      const gone = [...keysIn(refs)].filter((key) => !keep.has(key));
      for (const key of gone) {
        // Renditions first: the folder goes once the original, the last of its files, has gone.
        if (isProductVideo(key)) await renditions.remove(key);
        if (s3) {
          await deleteS3Object({ config: s3, key, now: deps.now() });
        } else {
          await storage.remove(key);
          await thumbnails.forget(key);
        }
      }
      return gone.length;
    },

    issueToken({ app, filename, purpose = 'im' }) {
      const dir = `${purpose}/${appTag(app.appkey)}`;
      const newFilename = newStoredName(filename);
      const key = `${dir}/${newFilename}`;
      const now = deps.now();
      if (s3) return presignS3Post({ config: s3, key, now, ttlMs: UPLOAD_TOKEN_TTL_MS, maxBytes });
      const contentTypes = declarableTypes(newFilename);
      const doc: PolicyDocument = {
        expiration: new Date(now + UPLOAD_TOKEN_TTL_MS).toISOString(),
        conditions: [
          ['content-length-range', 1, maxBytes],
          ['starts-with', '$key', `${dir}/`],
          // One token, one file: the key is fixed, so a leaked token cannot write anything else.
          ['eq', '$key', key],
          // The file part must declare the type it will be served with (or the generic one); a name without a type
          // of its own is served as a download, whatever it declares.
          contentTypes ? ['in', '$Content-Type', contentTypes] : ['starts-with', '$Content-Type', ''],
        ],
        // Posting the same token again must not replace a file whose URL a receiver already has (served immutable).
        insertOnly: true,
      };
      const policy = encodePolicy(doc);
      const token: AliUploadToken = {
        vendor: 'ALI',
        host: `${deps.publicUrl()}${UPLOAD_PATH}`,
        dir,
        newFilename,
        accessKeyId: app.appkey,
        policy,
        signature: signPolicy(app.secretKey, policy),
      };
      return token;
    },

    checkForm(posted, fileContentType) {
      // UP-17: the product app's form carries the same three parts in one `token` field.
      const tokenField = posted['token'];
      const parts = tokenField === undefined ? undefined : decodeUploadToken(tokenField);
      if (tokenField !== undefined && !parts) throw new ServiceError(403, MESSAGES.uploadSignatureMismatch);
      // The type conditions read what the file part declares, whatever a `Content-Type` field says.
      const fields = formFields(posted, {
        ...(parts && { OSSAccessKeyId: parts.accessKeyId, policy: parts.policy, signature: parts.signature }),
        'Content-Type': fileContentType,
      });
      const { key, ossaccesskeyid: accessKeyId, policy, signature } = fields;
      if (!key || !accessKeyId || !policy || !signature) {
        throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.uploadFormInvalid);
      }
      const app = deps.apps.byAppkey(accessKeyId);
      if (!app || !signatureMatches(app.secretKey, policy, signature)) {
        throw new ServiceError(403, MESSAGES.uploadSignatureMismatch);
      }
      const limits = checkPolicy({ policy, fields, now: deps.now(), maxBytes });
      if (!isSafeKey(key)) throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.uploadKeyInvalid);
      // Even where the policy lets any type through, the declared one must be well formed.
      if (!MIME.test(fileContentType)) throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.uploadFormInvalid);
      if (parts) return { key, ...limits, answer: { form: 'token', url: `${urlPrefix()}${key}` } };
      const status = Number(fields['success_action_status']);
      const successStatus = status === 200 || status === 201 ? status : 204;
      return { key, ...limits, answer: { form: 'oss', successStatus } };
    },

    async store(form, file) {
      const saved = await storage.save(form.key, file, form);
      if (isProductVideo(form.key)) renditions.enqueue(form.key);
      return saved;
    },

    async videoSources(url) {
      const prefix = urlPrefix();
      if (!url.startsWith(prefix)) return [];
      const key = url.slice(prefix.length);
      if (!isSafeKey(key) || !isProductVideo(key)) return [];
      return renditions.sources(key, (k) => `${prefix}${k}`);
    },

    renditionsSettled() {
      return renditions.settled();
    },

    close() {
      return renditions.close();
    },

    async read(key, process) {
      const file = await storage.read(key);
      if (!file) return undefined;
      const ext = extensionOf(key);
      const snapshot = parseVideoSnapshot(process);
      if (snapshot !== undefined) {
        // UP-21: a frame, or nothing: the video's bytes are no image.
        if (snapshot === 'invalid' || !isVideoExtension(ext)) {
          throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.snapshotInvalid);
        }
        const taken = await thumbnails.snapshot(key, file.path, ext, snapshot);
        const frame = taken && (await fileAt(taken));
        if (!frame) throw new ServiceError(404, MESSAGES.snapshotUnavailable);
        return { size: frame.size, open: frame.open, ...servedType(taken) };
      }
      const request = parseImageProcess(process);
      const variant = request && (await thumbnails.variant(key, file.path, ext, request));
      const served = (variant && (await fileAt(variant))) || file;
      return { size: served.size, open: served.open, ...servedType(key) };
    },
  };
}
