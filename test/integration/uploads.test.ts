import { describe, expect, it } from 'vitest';
import type { FilePayload, ImagePayload } from '../../src/index.js';
import { startServer, tempDir } from '../../server/test/helpers.js';
import { imUser, nextIm } from './support.js';

describe('uploads through the real server', () => {
  it("UP-5, UP-8, UP-14: an image message goes up to the server's own storage and the receiver downloads the same bytes", async () => {
    const { url } = await startServer({ uploads: { dir: tempDir(), s3: undefined } });
    const alice = await imUser(url, 'alice');
    const bob = await imUser(url, 'bob');
    const bytes = new Uint8Array(200_000).map((_, i) => (i * 31) % 251);
    const progress: number[] = [];
    const message = alice.im.createImageMessage({
      file: new File([bytes], 'sunset.jpg', { type: 'image/jpeg' }),
      to: { type: 'private', id: 'bob', data: { name: 'Bob' } },
      width: 640,
      height: 480,
      onProgress: (p) => progress.push(p),
    });
    const received = nextIm(bob, 'PRIVATE_MESSAGE_RECEIVED', (m) => m.messageId === message.messageId);
    await alice.im.sendMessage({ message });
    expect(message.status).toBe('success');
    expect(progress.at(-1)).toBe(100);

    const got = await received;
    const payload = got.payload as ImagePayload;
    expect(got.type).toBe('image');
    expect(payload).toMatchObject({ name: 'sunset.jpg', size: bytes.length, contentType: 'image/jpeg', width: 640 });
    expect(payload.url).toMatch(new RegExp(`^${url}/uploads/im/[0-9a-f]{16}/parley_[a-z0-9]{32}\\.jpg$`));
    expect(payload.thumbnail).toBe(`${payload.url}?x-oss-process=image/resize,m_lfit,h_200`);
    const download = await fetch(payload.url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/jpeg');
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);
    expect((await fetch(payload.thumbnail)).status).toBe(200);
  });

  it('UP-5, UP-15: a file message is served back as a download', async () => {
    const { url } = await startServer({ uploads: { dir: tempDir(), s3: undefined } });
    const alice = await imUser(url, 'alice');
    await imUser(url, 'bob');
    const message = alice.im.createFileMessage({
      file: new File(['<html>not rendered</html>'], 'page.html', { type: 'text/html' }),
      to: { type: 'private', id: 'bob' },
    });
    await alice.im.sendMessage({ message });
    const res = await fetch((message.payload as FilePayload).url);
    expect(res.headers.get('content-disposition')).toBe('attachment');
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(await res.text()).toBe('<html>not rendered</html>');
  });
});
