import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { S3Config } from './config.js';
import { extensionOf, pathOfKey } from './keys.js';
import { s3ObjectRequest } from './s3.js';

/**
 * UP-22: where the renditions of videos are read and kept, the server's own storage or S3: the original, the files
 * made beside it and what is known of them (a `RenditionRecord` as JSON). Keys are those of the storage.
 */
export interface RenditionFiles {
  /** Whether the original `key` is stored. */
  exists(key: string): Promise<boolean>;
  /**
   * A local file holding the original `key`, for ffmpeg to read, and what to do once it is read; undefined when it
   * is not stored.
   */
  local(key: string): Promise<{ path: string; release(): Promise<void> } | undefined>;
  /** Stores the local file `file` (made in {@link scratch}, gone after) as `key`. */
  put(key: string, file: string): Promise<void>;
  /** Deletes `key`; one already gone is no error. */
  remove(key: string): Promise<void>;
  /** What is known of the video `key`, as kept; undefined when nothing is. */
  readRecord(key: string): Promise<string | undefined>;
  /** Keeps `text` as what is known of the video `key`, whole or not at all. */
  writeRecord(key: string, text: string): Promise<void>;
  /** Forgets what is known of the video `key`. */
  removeRecord(key: string): Promise<void>;
  /** A local directory for files being made. */
  readonly scratch: string;
}

/** A local name in `dir` for a new file with extension `ext`, the directory made. */
export async function scratchFile(dir: string, ext: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  return join(dir, `${randomUUID()}.${ext}`);
}

/**
 * The server's own storage under `root`: files at their keys, what is known of a video in
 * `<root>/.renditions/<key>.json` (a dot-named dir no key can name), files being made in `<root>/.tmp`.
 */
export function localRenditionFiles(root: string): RenditionFiles {
  const recordPath = (key: string) => pathOfKey(join(root, '.renditions'), `${key}.json`);
  const isFile = async (path: string | undefined) =>
    path ? ((await stat(path).catch(() => undefined))?.isFile() ?? false) : false;
  return {
    scratch: join(root, '.tmp'),
    exists: (key) => isFile(pathOfKey(root, key)),
    async local(key) {
      const path = pathOfKey(root, key);
      return path && (await isFile(path)) ? { path, release: () => Promise.resolve() } : undefined;
    },
    async put(key, file) {
      const path = pathOfKey(root, key);
      if (!path) throw new Error(`not a storage key: ${key}`);
      await rename(file, path);
    },
    async remove(key) {
      const path = pathOfKey(root, key);
      if (path) await rm(path, { force: true });
    },
    async readRecord(key) {
      const path = recordPath(key);
      return path && (await readFile(path, 'utf8').catch(() => undefined));
    },
    async writeRecord(key, text) {
      const path = recordPath(key);
      if (!path) return;
      await mkdir(dirname(path), { recursive: true });
      // A temporary name first, so that a reader never sees half of it.
      const tmp = join(dirname(path), `.${randomUUID()}`);
      await writeFile(tmp, text);
      await rename(tmp, path);
    },
    async removeRecord(key) {
      const path = recordPath(key);
      if (path) await rm(path, { force: true });
    },
  };
}

/** How long moving one video to or from S3 may take. */
const S3_TRANSFER_TIMEOUT_MS = 300_000;

/**
 * The bucket of `config`: the original is read into `scratch` for ffmpeg, each rendition is put beside it, and what
 * is known of a video is the object `.renditions/<key>.json`, out of every member's and app's prefix (UP-16), so that
 * no upload can write it. Every request is signed (SigV4); an answer other than success or "not found" throws.
 */
export function s3RenditionFiles(config: S3Config, scratch: string, now: () => number): RenditionFiles {
  const request = (method: 'GET' | 'HEAD' | 'PUT' | 'DELETE', key: string, extra = {}) =>
    s3ObjectRequest({ config, method, key, now: now(), ...extra });
  /** Throws for an answer that is neither a success nor, where `missingOk`, 404. */
  const check = (response: Response, what: string, missingOk: boolean) => {
    if (response.ok || (missingOk && response.status === 404)) return;
    throw new Error(`S3 ${what} answered ${response.status}`);
  };
  const recordKey = (key: string) => `.renditions/${key}.json`;
  const remove = async (key: string) => {
    const response = await request('DELETE', key);
    await response.body?.cancel();
    check(response, `DELETE ${key}`, true);
  };
  return {
    scratch,
    async exists(key) {
      const response = await request('HEAD', key);
      await response.body?.cancel();
      check(response, `HEAD ${key}`, true);
      return response.ok;
    },
    async local(key) {
      const response = await request('GET', key, { timeoutMs: S3_TRANSFER_TIMEOUT_MS });
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        check(response, `GET ${key}`, true);
        return undefined;
      }
      const path = await scratchFile(scratch, extensionOf(key));
      try {
        await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(path));
      } catch (err) {
        await rm(path, { force: true });
        throw err;
      }
      return { path, release: () => rm(path, { force: true }) };
    },
    async put(key, file) {
      try {
        const body = await readFile(file);
        const response = await request('PUT', key, {
          body,
          contentType: 'video/mp4',
          timeoutMs: S3_TRANSFER_TIMEOUT_MS,
        });
        await response.body?.cancel();
        check(response, `PUT ${key}`, false);
      } finally {
        await rm(file, { force: true });
      }
    },
    remove,
    async readRecord(key) {
      const response = await request('GET', recordKey(key));
      if (!response.ok) {
        await response.body?.cancel();
        check(response, `GET ${recordKey(key)}`, true);
        return undefined;
      }
      return response.text();
    },
    async writeRecord(key, text) {
      const response = await request('PUT', recordKey(key), {
        body: Buffer.from(text),
        contentType: 'application/json',
      });
      await response.body?.cancel();
      check(response, `PUT ${recordKey(key)}`, false);
    },
    removeRecord: (key) => remove(recordKey(key)),
  };
}
