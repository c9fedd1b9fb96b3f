import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ParleyError, type FilePayload, type ImagePayload, type VideoPayload } from '../../src/index.js';
import { connectedWithStorage, fileOf } from './support.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const tick = async (ms = 0): Promise<void> => {
  await vi.advanceTimersByTimeAsync(ms);
};
const to = { type: 'private' as const, id: 'bob', data: { name: 'Bob' } };
const base = 'https://files.test/uploads/im/abc';

describe('rich messages: upload inside sendMessage', () => {
  it('UP-5, UP-6: an image is uploaded while sending, with progress to 100, then published with its URL', async () => {
    const { im, server, storage } = await connectedWithStorage(tick);
    let release = () => undefined as void;
    storage.script.hold = new Promise<void>((resolve) => (release = resolve));
    const progress: number[] = [];
    const file = fileOf('cat.png', 1234, 'image/png');
    const message = im.createImageMessage({ file, to, width: 800, height: 600, onProgress: (p) => progress.push(p) });
    expect(message).toMatchObject({ type: 'image', status: 'new' });
    const sending = im.sendMessage({ message });
    await tick();
    expect(message.status).toBe('sending');
    expect(server.requests('uploadToken').map((r) => r.params)).toEqual([{ filename: 'cat.png' }]);
    expect(server.requests('publishIM')).toHaveLength(0);
    expect(progress.at(-1)).toBeLessThan(100);
    release();
    await sending;
    expect(message.status).toBe('success');
    expect(progress).toEqual([0, 25, 50, 75, 99, 100]);
    const url = `${base}/parley_${'1'.padStart(32, '0')}.bin`;
    const payload: ImagePayload = {
      url,
      name: 'cat.png',
      size: 1234,
      contentType: 'image/png',
      width: 800,
      height: 600,
      thumbnail: `${url}?x-oss-process=image/resize,m_lfit,h_200`,
    };
    expect(message.payload).toEqual(payload);
    expect(JSON.parse(String(server.requests('publishIM')[0]?.params.p))).toEqual(payload);
    const [post] = storage.posts;
    expect(post?.url).toBe('https://files.test/uploads');
    expect(post?.fields.map(([name]) => name)).toEqual([
      'key',
      'OSSAccessKeyId',
      'policy',
      'signature',
      'success_action_status',
    ]);
    expect(post?.fields[0]).toEqual(['key', `im/abc/parley_${'1'.padStart(32, '0')}.bin`]);
    expect(post?.file).toBe(file);
    expect(post?.fileName).toBe('cat.png');
  });

  it('UP-5: a file message asks for a download (Content-Disposition); audio carries its duration', async () => {
    const { im, storage } = await connectedWithStorage(tick);
    const file = await im.sendMessage({ message: im.createFileMessage({ file: fileOf('notes.pdf', 10), to }) });
    expect(storage.posts[0]?.fields.at(-1)).toEqual(['Content-Disposition', 'attachment;filename=notes.pdf']);
    expect(file.payload).toEqual({
      url: `${base}/parley_${'1'.padStart(32, '0')}.bin`,
      name: 'notes.pdf',
      size: 10,
      contentType: 'application/octet-stream',
    });
    const audio = im.createAudioMessage({ file: fileOf('voice.mp3', 5, 'audio/mpeg'), to, duration: 3.5 });
    await im.sendMessage({ message: audio });
    expect(storage.posts[1]?.fields.map(([n]) => n)).not.toContain('Content-Disposition');
    expect(audio.payload).toMatchObject({ name: 'voice.mp3', contentType: 'audio/mpeg', duration: 3.5, size: 5 });
  });

  it('UP-7: a video uploads itself, then its thumbnail (scaled to 200 high); progress ends at 100', async () => {
    const { im, storage } = await connectedWithStorage(tick);
    const progress: number[] = [];
    const thumbnail = fileOf('frame.jpg', 20, 'image/jpeg');
    const message = im.createVideoMessage({
      file: fileOf('clip.mp4', 100, 'video/mp4'),
      to,
      width: 1280,
      height: 720,
      duration: 12,
      thumbnail,
      onProgress: (p) => progress.push(p),
    });
    await im.sendMessage({ message });
    const video = `${base}/parley_${'1'.padStart(32, '0')}.bin`;
    const thumb = `${base}/parley_${'2'.padStart(32, '0')}.bin`;
    const payload: VideoPayload = {
      video: {
        name: `parley_${'1'.padStart(32, '0')}.bin`,
        url: video,
        width: 1280,
        height: 720,
        contentType: 'video/mp4',
        size: 100,
        duration: 12,
      },
      thumbnail: {
        name: `parley_${'2'.padStart(32, '0')}.bin`,
        url: thumb,
        width: 356,
        height: 200,
        contentType: 'image/jpeg',
      },
    };
    expect(message.payload).toEqual(payload);
    expect(storage.posts.map((p) => p.file)).toEqual([expect.any(File), thumbnail]);
    expect(progress.at(-1)).toBe(100);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    const bare = im.createVideoMessage({ file: fileOf('clip.mp4', 100, 'video/mp4'), to, height: 100, width: 50 });
    await im.sendMessage({ message: bare });
    const url = `${base}/parley_${'3'.padStart(32, '0')}.bin`;
    expect((bare.payload as VideoPayload).thumbnail).toEqual({
      name: `parley_${'3'.padStart(32, '0')}.bin`,
      url: `${url}?x-oss-process=video/snapshot,t_0000,f_jpg,h_100,m_fast,ar_auto`,
      width: 50,
      height: 100,
      contentType: 'image/jpeg',
    });
  });

  it('UP-6: a refused upload leaves the message failed and rejects with 500; nothing is published', async () => {
    const { im, server, storage } = await connectedWithStorage(tick);
    storage.script.status = 403;
    storage.script.body = JSON.stringify({ code: 403, content: 'Invalid according to Policy: Policy expired.' });
    const message = im.createImageMessage({ file: fileOf('a.png', 3, 'image/png'), to });
    const error = await im.sendMessage({ message }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParleyError);
    expect(error).toMatchObject({
      code: 500,
      content: 'Upload failed: HTTP 403 Invalid according to Policy: Policy expired.',
    });
    expect(message.status).toBe('fail');
    expect(server.requests('publishIM')).toHaveLength(0);
    const history = await im.history({ type: 'private', id: 'bob' });
    expect(history.at(-1)).toMatchObject({ messageId: message.messageId, status: 'fail' });
    await expect(im.sendMessage({ message })).rejects.toMatchObject({ code: 400 });
  });

  it('UP-6: a refused upload token fails the message with 500 and the server reason', async () => {
    const { im, server } = await connectedWithStorage(tick);
    server.handle('uploadToken', () => ({ code: 401, resultCode: 401, content: 'No permission' }));
    const message = im.createFileMessage({ file: fileOf('a.txt', 3), to });
    await expect(im.sendMessage({ message })).rejects.toMatchObject({
      code: 500,
      content: 'Upload failed: No permission',
    });
    expect(message.status).toBe('fail');
    server.handle('uploadToken', () => ({ code: 200, resultCode: 200, content: { vendor: 'FTP' } }));
    const other = im.createFileMessage({ file: fileOf('a.txt', 3), to });
    await expect(im.sendMessage({ message: other })).rejects.toMatchObject({
      code: 500,
      content: 'Upload failed: The upload token from the server is not usable.',
    });
  });

  it('UP-6: aborting the upload fails the message with 500 Upload aborted.', async () => {
    const { im, server, storage } = await connectedWithStorage(tick);
    storage.script.hold = new Promise<void>(() => undefined);
    const controller = new AbortController();
    const message = im.createVideoMessage({ file: fileOf('a.mp4', 3, 'video/mp4'), to, signal: controller.signal });
    const sending = im.sendMessage({ message }).catch((e: unknown) => e);
    await tick();
    expect(message.status).toBe('sending');
    controller.abort();
    expect(await sending).toMatchObject({ code: 500, content: 'Upload aborted.' });
    expect(message.status).toBe('fail');
    expect(server.requests('publishIM')).toHaveLength(0);
    const early = new AbortController();
    early.abort();
    const never = im.createImageMessage({ file: fileOf('a.png', 3, 'image/png'), to, signal: early.signal });
    await expect(im.sendMessage({ message: never })).rejects.toMatchObject({ code: 500, content: 'Upload aborted.' });
    expect(storage.posts).toHaveLength(1);
  });

  it('UP-6: a network failure (not an abort) fails the message with 500 Upload failed: <reason>', async () => {
    const { im, server, storage } = await connectedWithStorage(tick);
    storage.script.error = new Error('network error');
    const message = im.createImageMessage({ file: fileOf('a.png', 3, 'image/png'), to });
    await expect(im.sendMessage({ message })).rejects.toMatchObject({
      code: 500,
      content: 'Upload failed: network error',
    });
    expect(message.status).toBe('fail');
    expect(server.requests('publishIM')).toHaveLength(0);
    expect(storage.posts).toHaveLength(1);
  });

  it('IMC-3: sent while reconnecting, a media message waits for the link, however long, then uploads and goes out', async () => {
    const { im, server, storage, client } = await connectedWithStorage(tick);
    server.down = true;
    server.dropAll();
    const message = im.createImageMessage({ file: fileOf('a.png', 3, 'image/png'), to });
    const sending = im.sendMessage({ message });
    // Longer than a request's 12 s: nothing is asked while the link is down, and the message waits.
    await tick(30_000);
    expect(client.getConnectionStatus()).toBe('reconnecting');
    expect(message.status).toBe('sending');
    expect(server.requests('uploadToken')).toHaveLength(0);
    server.down = false;
    await tick(6000);
    await expect(sending).resolves.toMatchObject({ status: 'success' });
    expect(storage.posts).toHaveLength(1);
    expect(server.requests('publishIM')).toHaveLength(1);
  });

  it('IMC-3: an upload cut off by a lost link starts over once the link is back; one that fails while online fails', async () => {
    const { im, server, storage } = await connectedWithStorage(tick);
    let release = () => undefined as void;
    storage.script.hold = new Promise<void>((resolve) => (release = resolve));
    const message = im.createImageMessage({ file: fileOf('a.png', 3, 'image/png'), to });
    const sending = im.sendMessage({ message });
    await tick();
    expect(storage.posts).toHaveLength(1);
    // The link goes, and the POST with it.
    server.down = true;
    server.dropAll();
    storage.script.error = new Error('network error');
    release();
    await tick(10_000);
    expect(message.status).toBe('sending');
    storage.script.error = undefined;
    storage.script.hold = undefined;
    server.down = false;
    await tick(6000);
    await expect(sending).resolves.toMatchObject({ status: 'success' });
    expect(storage.posts).toHaveLength(2);
    expect(server.requests('uploadToken')).toHaveLength(2);
    expect(server.requests('publishIM')).toHaveLength(1);
  });

  it('UP-7: a nameless thumbnail is uploaded under an extension of its own type', async () => {
    const { im, server } = await connectedWithStorage(tick);
    const thumbnail = new Blob([new Uint8Array(20)], { type: 'image/png' });
    const message = im.createVideoMessage({ file: fileOf('clip.mp4', 100, 'video/mp4'), to, thumbnail, height: 10 });
    await im.sendMessage({ message });
    expect(server.requests('uploadToken').map((r) => r.params)).toEqual([
      { filename: 'clip.mp4' },
      { filename: 'clip.png' },
    ]);
    expect((message.payload as VideoPayload).thumbnail.contentType).toBe('image/png');
    const jpeg = new Blob([new Uint8Array(20)], { type: 'image/jpeg' });
    await im.sendMessage({ message: im.createVideoMessage({ file: fileOf('b.mov', 9), to, thumbnail: jpeg }) });
    expect(server.requests('uploadToken').at(-1)?.params).toEqual({ filename: 'b.jpg' });
  });
});

describe('rich messages: S3 storage', () => {
  const key = (n: number, ext: string) => `im/0123456789abcdef/parley_${String(n).padStart(32, '0')}.${ext}`;
  const s3Token = (n: number, ext: string) => ({
    vendor: 'S3',
    host: 'https://s3.test/parley-media',
    key: key(n, ext),
    url: `https://cdn.test/media/${key(n, ext)}`,
    fields: {
      key: key(n, ext),
      success_action_status: '200',
      'x-amz-algorithm': 'AWS4-HMAC-SHA256',
      'x-amz-credential': 'AKIA/20300506/eu-west-1/s3/aws4_request',
      'x-amz-date': '20300506T070809Z',
      policy: `cG9saWN5${n}`,
      'x-amz-signature': `5167${n}`,
    },
  });

  it('UP-16: the SDK posts the presigned fields to the S3 host; URLs are <public url>/<key>, with no OSS queries', async () => {
    const { im, server, storage } = await connectedWithStorage(tick);
    let tokens = 0;
    server.handle('uploadToken', (p) => {
      const filename = String(p.filename);
      return { code: 200, resultCode: 200, content: s3Token(++tokens, filename.slice(filename.lastIndexOf('.') + 1)) };
    });

    const image = im.createImageMessage({ file: fileOf('cat.png', 30, 'image/png'), to, width: 40, height: 30 });
    await im.sendMessage({ message: image });
    const [post] = storage.posts;
    expect(post?.url).toBe('https://s3.test/parley-media');
    expect(post?.fields).toEqual(Object.entries(s3Token(1, 'png').fields));
    expect(post?.fileName).toBe('cat.png');
    expect(image.payload).toEqual({
      url: `https://cdn.test/media/${key(1, 'png')}`,
      name: 'cat.png',
      size: 30,
      contentType: 'image/png',
      width: 40,
      height: 30,
      thumbnail: `https://cdn.test/media/${key(1, 'png')}`,
    } satisfies ImagePayload);

    const file = im.createFileMessage({ file: fileOf('notes.pdf', 10), to });
    await im.sendMessage({ message: file });
    expect(storage.posts[1]?.fields).toEqual([
      ...Object.entries(s3Token(2, 'pdf').fields),
      ['Content-Disposition', 'attachment;filename=notes.pdf'],
    ]);
    expect((file.payload as FilePayload).url).toBe(`https://cdn.test/media/${key(2, 'pdf')}`);

    const video = im.createVideoMessage({ file: fileOf('clip.mp4', 50, 'video/mp4'), to, width: 20, height: 10 });
    await im.sendMessage({ message: video });
    expect(storage.posts[2]?.url).toBe('https://s3.test/parley-media');
    expect(video.payload).toEqual({
      video: {
        name: key(3, 'mp4'),
        url: `https://cdn.test/media/${key(3, 'mp4')}`,
        width: 20,
        height: 10,
        contentType: 'video/mp4',
        size: 50,
        duration: 0,
      },
      thumbnail: {
        name: key(3, 'mp4'),
        url: `https://cdn.test/media/${key(3, 'mp4')}`,
        width: 20,
        height: 10,
        contentType: 'image/jpeg',
      },
    } satisfies VideoPayload);

    const framed = im.createVideoMessage({
      file: fileOf('clip.mp4', 50, 'video/mp4'),
      to,
      thumbnail: fileOf('frame.jpg', 5, 'image/jpeg'),
    });
    await im.sendMessage({ message: framed });
    expect((framed.payload as VideoPayload).thumbnail).toMatchObject({
      name: key(5, 'jpg'),
      url: `https://cdn.test/media/${key(5, 'jpg')}`,
    });
    expect(storage.posts.map((p) => p.url)).toEqual(Array(5).fill('https://s3.test/parley-media'));
  });
});

describe('rich messages from an agent of a customer-service team', () => {
  it('IMC-15, IM-26: csteam makes image, file, audio and video messages to a customer, sent with tid and notification', async () => {
    const { im, server } = await connectedWithStorage(tick);
    const team = im.csteam('team1');
    const customer = { id: 'carol', data: { name: 'Carol' } };
    const notification = { title: 'Support', body: 'A file for you' };
    const made = [
      team.createImageMessage({ file: fileOf('a.png', 3, 'image/png'), to: customer, width: 2, height: 2 }),
      team.createFileMessage({ file: fileOf('a.pdf', 3), to: customer, notification }),
      team.createAudioMessage({ file: fileOf('a.mp3', 3, 'audio/mpeg'), to: customer, duration: 1 }),
      team.createVideoMessage({ file: fileOf('a.mp4', 3, 'video/mp4'), to: customer, width: 4, height: 4 }),
    ];
    expect(made.map((m) => m.type)).toEqual(['image', 'file', 'audio', 'video']);
    for (const message of made) {
      expect(message).toMatchObject({ scene: 'cs', to: 'carol', teamId: 'team1', accepted: true, status: 'new' });
      await im.sendMessage({ message });
      expect(message.status).toBe('success');
    }
    const sent = server.requests('publishIM').map((r) => r.params);
    expect(sent.map((p) => [p.mt, p.t, p.to, p.tid])).toEqual(
      ['image', 'file', 'audio', 'video'].map((mt) => [mt, 'cs', 'carol', 'team1']),
    );
    expect(sent.map((p) => p.nt)).toEqual([undefined, notification, undefined, undefined]);
    expect(() => team.createImageMessage({ file: fileOf('a.png', 3, 'image/png'), to: { id: 'team1' } })).toThrow(
      expect.objectContaining({ code: 400 }),
    );
    expect(() => team.createFileMessage({ file: fileOf('a.pdf', 3), to: undefined as never })).toThrow(
      expect.objectContaining({ code: 400, content: 'message require property to.' }),
    );
  });
});
