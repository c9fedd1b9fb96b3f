/**
 * Upload fixtures for SDK unit tests: a fake IM server that also answers `uploadToken` with an ALI token, and a
 * fake storage behind the `uploadHttp` seam that records each POST and answers as told.
 */
import type { UploadHttp, UploadHttpRequest, UploadHttpResponse } from '../../src/index.js';
import { fakeIm } from '../support/fake-im.js';
import { fakeSetup } from '../support/setup.js';

/** One POST the fake storage received. */
export interface Posted {
  url: string;
  fields: Array<readonly [string, string]>;
  file: Blob;
  fileName: string;
}

/** How the fake storage answers the next POSTs: progress steps, then a status or an error, or hold until released. */
export interface StorageScript {
  progress: number[];
  status: number;
  body: string;
  /** When set, the POST waits for this promise (or an abort) before answering. */
  hold: Promise<void> | undefined;
  /** When set, the POST gets no answer and rejects with this error, as on a network failure. */
  error: Error | undefined;
}

/** A fake storage: records POSTs, reports scripted progress, honours aborts. */
export function fakeStorage(): { http: UploadHttp; posts: Posted[]; script: StorageScript } {
  const posts: Posted[] = [];
  const script: StorageScript = {
    progress: [0, 25, 50, 75, 100],
    status: 200,
    body: '',
    hold: undefined,
    error: undefined,
  };
  const http: UploadHttp = async (request: UploadHttpRequest): Promise<UploadHttpResponse> => {
    posts.push({ url: request.url, fields: [...request.fields], file: request.file, fileName: request.fileName });
    const abortError = () => Object.assign(new Error('aborted'), { name: 'AbortError' });
    if (request.signal?.aborted) throw abortError();
    for (const p of script.progress) request.onProgress?.(p);
    if (script.hold) {
      const aborted = new Promise<never>((_resolve, reject) =>
        request.signal?.addEventListener('abort', () => reject(abortError()), { once: true }),
      );
      await Promise.race([script.hold, aborted]);
    }
    if (script.error) throw script.error;
    return { status: script.status, body: script.body };
  };
  return { http, posts, script };
}

/** An ALI token as the Parley server answers it, with a counter in the name. */
export function aliToken(n: number) {
  return {
    vendor: 'ALI',
    host: 'https://files.test/uploads',
    dir: 'im/abc',
    newFilename: `parley_${String(n).padStart(32, '0')}.bin`,
    accessKeyId: 'app-key',
    policy: 'cG9saWN5',
    signature: 'c2ln',
  };
}

/** A connected IM client (`me`) on the fake server, with the fake storage behind its upload seam. */
export async function connectedWithStorage(tick: (ms?: number) => Promise<void>) {
  const storage = fakeStorage();
  const setup = fakeSetup({ modules: ['im'], random: () => 0.5, uploadHttp: storage.http });
  const fake = fakeIm(setup.server, 'me');
  let tokens = 0;
  setup.server.handle('uploadToken', () => ({ code: 200, resultCode: 200, content: aliToken(++tokens) }));
  await Promise.all([setup.client.connect({ id: 'me', data: { name: 'Me' } }), tick()]);
  return { ...setup, fake, storage, im: setup.client.im };
}

/** A named file of `size` bytes. */
export function fileOf(name: string, size: number, type = ''): File {
  return new File([new Uint8Array(size).fill(7)], name, type ? { type } : {});
}
