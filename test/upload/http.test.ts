import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultUploadHttp, fetchUploadHttp } from '../../src/index.js';
import { fakeIm } from '../support/fake-im.js';
import { fakeSetup } from '../support/setup.js';
import { aliToken, fileOf } from './support.js';

interface Seen {
  names: string[];
  values: Record<string, string>;
  file: File | undefined;
}
const seen: Seen[] = [];
let answer = 200;
const storage = setupServer(
  http.post('https://files.test/uploads', async ({ request }) => {
    const form = await request.formData();
    const names: string[] = [];
    const values: Record<string, string> = {};
    let file: File | undefined;
    form.forEach((value, name) => {
      names.push(name);
      if (typeof value === 'string') values[name] = value;
      else file = value;
    });
    seen.push({ names, values, file });
    return answer === 200 ? new HttpResponse(null, { status: 200 }) : HttpResponse.text('<Error/>', { status: answer });
  }),
);
beforeAll(() => storage.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  seen.length = 0;
  answer = 200;
});
afterAll(() => storage.close());

describe('uploads: the fetch seam (Node)', () => {
  it('UP-5: without XMLHttpRequest the default seam posts with fetch, fields in order, file last; progress 0 then 100', async () => {
    expect(typeof XMLHttpRequest).toBe('undefined');
    const setup = fakeSetup({ modules: ['im'] });
    fakeIm(setup.server, 'me');
    setup.server.handle('uploadToken', () => ({ code: 200, resultCode: 200, content: aliToken(1) }));
    await setup.client.connect({ id: 'me' });
    try {
      const progress: number[] = [];
      const message = setup.client.im.createImageMessage({
        file: fileOf('cat.png', 64, 'image/png'),
        to: { type: 'private', id: 'bob' },
        onProgress: (p) => progress.push(p),
      });
      await setup.client.im.sendMessage({ message });
      expect(message.status).toBe('success');
      expect(progress).toEqual([0, 100]);
      expect(seen[0]?.names).toEqual(['key', 'OSSAccessKeyId', 'policy', 'signature', 'success_action_status', 'file']);
      expect(seen[0]?.values['key']).toBe(`im/abc/parley_${'1'.padStart(32, '0')}.bin`);
      expect(seen[0]?.file?.name).toBe('cat.png');
      expect(seen[0]?.file?.size).toBe(64);
    } finally {
      await setup.client.disconnect();
    }
  });

  it('UP-6: the seam reports any HTTP answer and rejects on abort', async () => {
    answer = 403;
    const request = {
      url: 'https://files.test/uploads',
      fields: [['key', 'k']] as const,
      file: fileOf('a', 1),
      fileName: 'a',
    };
    expect(await defaultUploadHttp(request)).toEqual({ status: 403, body: '<Error/>' });
    const controller = new AbortController();
    controller.abort();
    await expect(fetchUploadHttp({ ...request, signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
