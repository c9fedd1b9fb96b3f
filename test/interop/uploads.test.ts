import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createClient, type ImagePayload, type Message, type ParleyClient } from '../../src/index.js';
import { OPEN_APP, defer, startServer, tempDir } from '../../server/test/helpers.js';
import type { UploadProgressEvent } from './browser-globals.js';
import { GoEasy, call, connectReference, eventually, installUploadGlobals } from './support.js';

/** A message as the reference client hands it to the app. */
interface RefMessage {
  messageId: string;
  senderId: string;
  type: string;
  payload: ImagePayload;
  status: string;
  timestamp: number;
}

async function parley(url: string, id: string): Promise<ParleyClient> {
  const client = createClient({ host: url, appkey: OPEN_APP.appkey, modules: ['im'] });
  defer(() => client.disconnect());
  await client.connect({ id, data: { name: id } });
  return client;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A real PNG (8-bit RGB) of noise, so that it neither compresses away nor fits one write. */
function pngOf(width: number, height: number): Uint8Array<ArrayBuffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((width * 3 + 1) * height);
  let seed = 7;
  for (let i = 0; i < rows.length; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    rows[i] = i % (width * 3 + 1) === 0 ? 0 : seed >>> 24;
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const png = Buffer.concat([
    signature,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', new Uint8Array()),
  ]);
  return new Uint8Array(png);
}

describe('reference client: uploads', () => {
  it("INTEROP-14: an image message from the reference client through the local storage's ALI-style fields", async () => {
    installUploadGlobals();
    const { url, port } = await startServer({ apps: [OPEN_APP], uploads: { dir: tempDir(), s3: undefined } });
    await connectReference(port, OPEN_APP.appkey, { id: 'ref', data: { name: 'Ref' } }, ['im']);
    const sdk = await parley(url, 'sdk');
    const atSdk: Message[] = [];
    sdk.im.on('PRIVATE_MESSAGE_RECEIVED', (m) => atSdk.push(m));

    const png = pngOf(151, 97);
    const progress: UploadProgressEvent[] = [];
    const image = GoEasy.im.createImageMessage!({
      file: new File([png], 'noise.png', { type: 'image/png' }),
      to: { type: 'private', id: 'sdk', data: { name: 'SDK' } },
      onProgress: (event: UploadProgressEvent) => progress.push(event),
    });
    const sent = await call<RefMessage>((o) => GoEasy.im.sendMessage!(o), { message: image });
    expect(sent.status, 'sendMessage onSuccess: status').toBe('success');

    // The reference's own fields: the ALI URL `host/dir/newFilename`, its resize query, the size it measured.
    const payload = sent.payload;
    expect(payload.url, 'sendMessage onSuccess: payload.url').toMatch(
      new RegExp(`^${url}/uploads/im/[0-9a-f]{16}/parley_[a-z0-9]{32}\\.png$`),
    );
    expect(payload.thumbnail, 'sendMessage onSuccess: payload.thumbnail').toBe(
      `${payload.url}?x-oss-process=image/resize,m_lfit,h_97`,
    );
    expect([payload.width, payload.height], 'sendMessage onSuccess: payload [width, height]').toEqual([151, 97]);
    expect(progress[0]?.type, 'onProgress: first event').toBe('loadstart');
    expect(progress.at(-1), 'onProgress: last event').toMatchObject({ type: 'loadend' });
    const loaded = progress.filter((e) => e.type === 'progress').map((e) => e.loaded);
    expect(loaded.length, 'onProgress: progress events').toBeGreaterThan(1);
    expect(loaded, 'onProgress: progress loaded').toEqual([...loaded].sort((a, b) => a - b));
    expect(loaded.at(-1), 'onProgress: last loaded').toBe(progress.at(-1)?.total);

    await eventually(() => atSdk.length === 1, 'PRIVATE_MESSAGE_RECEIVED at the SDK');
    const got = atSdk[0]!;
    expect([got.messageId, got.senderId, got.type], 'PRIVATE_MESSAGE_RECEIVED [messageId, senderId, type]').toEqual([
      sent.messageId,
      'ref',
      'image',
    ]);
    expect(got.payload, 'PRIVATE_MESSAGE_RECEIVED payload').toEqual({
      url: payload.url,
      name: 'noise.png',
      size: png.length,
      contentType: 'image/png',
      width: 151,
      height: 97,
      thumbnail: payload.thumbnail,
    });

    const download = await fetch(payload.url);
    expect(download.status, 'GET payload.url: status').toBe(200);
    expect(download.headers.get('content-type'), 'GET payload.url: content-type').toBe('image/png');
    expect(new Uint8Array(await download.arrayBuffer()), 'GET payload.url: body').toEqual(png);
  });
});
