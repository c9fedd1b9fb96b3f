import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { link, mkdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ServiceError } from '../errors.js';
import { CODES, MESSAGES } from '../protocol.js';
import { pathOfKey } from './keys.js';

/** UP-18: what an insert-only upload to a key that holds a file is refused with (Qiniu answers "file exists"). */
export const KEY_EXISTS_MESSAGE = 'The specified key already exists.';

const keyExists = () => new ServiceError(409, KEY_EXISTS_MESSAGE);

/** A stored file, ready to be read. */
export interface StoredFile {
  size: number;
  /** Opens the bytes from `start` to `end` inclusive (the whole file by default). */
  open(this: void, range?: { start: number; end: number }): ReadStream;
}

/**
 * The server's own file storage: a directory, one file per key. Writes go to a temp file first and are renamed into
 * place only once complete and within limits, so a refused or broken upload leaves nothing behind.
 */
export class LocalStorage {
  readonly #root: string;

  constructor(root: string) {
    this.#root = root;
  }

  /**
   * UP-12: stores `stream` under `key`, counting bytes as they arrive and stopping at the first byte over `maxBytes`
   * whatever the request's Content-Length said. With `insertOnly` (UP-18) a key that holds a file is refused, before
   * reading and again, atomically, when the file is put in place.
   */
  async save(
    key: string,
    stream: Readable,
    limits: { minBytes: number; maxBytes: number; insertOnly?: boolean },
  ): Promise<{ size: number }> {
    const path = pathOfKey(this.#root, key);
    if (!path) throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.uploadKeyInvalid);
    if (limits.insertOnly && (await stat(path).catch(() => undefined))) throw keyExists();
    // A dot-named dir: no key can name it (keys' segments never start with a dot).
    const tmpDir = join(this.#root, '.tmp');
    await mkdir(tmpDir, { recursive: true });
    const tmp = join(tmpDir, randomUUID());
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > limits.maxBytes) callback(new ServiceError(413, MESSAGES.uploadTooLarge));
        else callback(null, chunk);
      },
    });
    const out = createWriteStream(tmp, { flags: 'wx' });
    try {
      await pipeline(stream, counter, out);
      if (size < limits.minBytes) throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.uploadTooSmall);
      await mkdir(dirname(path), { recursive: true });
      if (limits.insertOnly) {
        // link() fails when the name exists, where rename() would replace it: of two racing uploads one wins.
        await link(tmp, path).catch((err: unknown) => {
          throw (err as { code?: unknown }).code === 'EEXIST' ? keyExists() : err;
        });
        await rm(tmp, { force: true });
      } else {
        await rename(tmp, path);
      }
    } catch (err) {
      // A failed pipeline can settle before the file is even open; removing it earlier would race its creation.
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      await rm(tmp, { force: true });
      throw err;
    }
    return { size };
  }

  /** The directory files are kept in. */
  get root(): string {
    return this.#root;
  }

  /** Deletes the file stored under `key`; none is no error. Its folder goes too once empty. */
  async remove(key: string): Promise<void> {
    const path = pathOfKey(this.#root, key);
    if (!path) return;
    await rm(path, { force: true });
    await rmdir(dirname(path)).catch(() => undefined);
  }

  /** The file stored under `key`, with its path, or undefined. */
  async read(key: string): Promise<(StoredFile & { path: string }) | undefined> {
    const path = pathOfKey(this.#root, key);
    return path ? fileAt(path) : undefined;
  }
}

/** The file at `path`, ready to be read, or undefined. */
export async function fileAt(path: string): Promise<(StoredFile & { path: string }) | undefined> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  return {
    path,
    size: info.size,
    open: (range) => createReadStream(path, range ? { start: range.start, end: range.end } : {}),
  };
}
