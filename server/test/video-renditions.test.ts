import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServerConfig } from '../src/config.js';
import { randomName } from '../src/uploads/keys.js';
import { planRenditions, renditionArgs, shownHeight } from '../src/uploads/renditions.js';
import { signS3Request } from '../src/uploads/s3.js';
import { defer, fromAmzDate, tempDir } from './helpers.js';
import {
  type ProductServer,
  postFile,
  signIn,
  startProductServer,
  uploadImage,
  uploadToken,
  uploadVideo,
} from './product-support.js';

/** A second of 1280x720 test pattern with a tone: the smallest video that has three resolutions. */
let clip: Buffer;
let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'parley-renditions-'));
  const path = join(work, 'clip.mp4');
  // A 1280x720 video, with the side data of a phone held upright when `rotate` is set.
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=1280x720:rate=10'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=22050', '-t', '1'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', path],
  ]);
  clip = readFileSync(path);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A product server whose own storage is a fresh temp dir (`dir`), with `renditions` and `ffmpeg` as given. */
async function server(uploads: Partial<ServerConfig['uploads']> = {}) {
  const dir = tempDir();
  return { ...(await startProductServer(undefined, { uploads: { dir, s3: undefined, ...uploads } })), dir };
}

/** Uploads the 720p clip as the member; its URL. */
async function uploadClip(p: ProductServer, token: string): Promise<string> {
  const answer = await uploadToken(p, token);
  const key = `${answer.key_prefix}${randomName()}.mp4`;
  const posted = await postFile(answer, key, new Blob([new Uint8Array(clip)], { type: 'video/mp4' }), 'clip.mp4');
  expect(posted.status).toBe(200);
  return `${answer.url_prefix}${key}`;
}

/** Publishes `video` with `member/video_add`; the video's id. */
async function publish(p: ProductServer, token: string, video: string): Promise<string> {
  const img = await uploadImage(p, token);
  const answer = await p.call('member/video_add', { token, title: 'A day at the lake', content: 'Calm.', video, img });
  expect(answer.status).toBe(200);
  return answer['vid'] as string;
}

/** The key of the file at `url` in the server's own storage. */
const keyOf = (p: ProductServer, url: string) => url.slice(`${p.url}/uploads/`.length);

/** The `video.sources` of the video `id`, as its page gets them. */
const sourcesOf = async (p: ProductServer, id: string): Promise<Array<{ quality: string; height: number }>> =>
  (await p.call('article/view', { id })).ret.video.sources as Array<{ quality: string; height: number }>;

/** What ffmpeg says of the file at `url`: its video's size, its codecs, and whether the index comes first. */
async function inspect(url: string) {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('video/mp4');
  const bytes = Buffer.from(await res.arrayBuffer());
  const path = join(work, `${randomName()}.mp4`);
  writeFileSync(path, bytes);
  let printed = '';
  try {
    execFileSync('ffmpeg', ['-hide_banner', '-i', path], { stdio: 'pipe' });
  } catch (err) {
    printed = String((err as { stderr: Buffer }).stderr);
  }
  return {
    size: /Video: .*?, (\d+x\d+)/.exec(printed)?.[1],
    h264: printed.includes('Video: h264'),
    aac: printed.includes('Audio: aac'),
    faststart: bytes.indexOf('moov') < bytes.indexOf('mdat'),
  };
}

/** A stand-in for ffmpeg that logs each call with its niceness, waits for `open` to exist, then runs the real one. */
function gatedFfmpeg() {
  const dir = tempDir();
  const log = join(dir, 'calls.log');
  const gate = join(dir, 'open');
  const path = join(dir, 'ffmpeg');
  writeFileSync(log, '');
  writeFileSync(
    path,
    `#!/bin/sh
[ "$2" = "-version" ] && exec ffmpeg "$@"
echo "start $$" >> '${log}'
while [ ! -f '${gate}' ]; do sleep 0.02; done
echo "nice $(awk '{print $19}' /proc/$$/stat)" >> '${log}'
ffmpeg "$@"; rc=$?
echo "end $$" >> '${log}'
exit $rc
`,
  );
  chmodSync(path, 0o755);
  return { path, open: () => writeFileSync(gate, ''), calls: () => readFileSync(log, 'utf8').split('\n') };
}

/**
 * A stand-in S3 bucket on loopback, path-style: objects kept in memory by path, PUT, GET, HEAD and DELETE as S3
 * answers them, GET open to anyone (a public bucket). Each request is recorded with whether its SigV4 signature
 * holds (undefined when it carries none), its payload hash checked against what it sent.
 */
async function fakeBucket() {
  const objects = new Map<string, { body: Buffer; type: string }>();
  const requests: Array<{ method: string; path: string; signed: boolean | undefined }> = [];
  /** Set: every request is answered with it, as a bucket that is down. */
  const state: { failing?: number } = {};
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://bucket').pathname);
      requests.push({ method: req.method ?? '', path, signed: signatureHolds(req, body) });
      const found = objects.get(path);
      if (state.failing !== undefined) {
        res.statusCode = state.failing;
        res.end();
      } else if (req.method === 'PUT') {
        objects.set(path, { body, type: String(req.headers['content-type'] ?? 'binary/octet-stream') });
        res.end();
      } else if (req.method === 'DELETE') {
        objects.delete(path);
        res.statusCode = 204;
        res.end();
      } else if (!found) {
        res.statusCode = 404;
        res.end();
      } else {
        res.setHeader('content-type', found.type);
        res.setHeader('content-length', found.body.length);
        res.end(req.method === 'HEAD' ? undefined : found.body);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  defer(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { objects, requests, state, endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Whether `req`'s SigV4 signature is the one the test's keys give; undefined when it carries none. */
function signatureHolds(req: IncomingMessage, body: Buffer): boolean | undefined {
  const authorization = req.headers.authorization;
  if (authorization === undefined) return undefined;
  const payloadHash = String(req.headers['x-amz-content-sha256']);
  if (payloadHash !== createHash('sha256').update(body).digest('hex')) return false;
  const date = String(req.headers['x-amz-date']);
  const named = /SignedHeaders=([^,]+)/.exec(authorization)?.[1]?.split(';') ?? [];
  const own = ['host', 'x-amz-content-sha256', 'x-amz-date'];
  const headers = Object.fromEntries(
    named.filter((name) => !own.includes(name)).map((name) => [name, String(req.headers[name])]),
  );
  const expected = signS3Request({
    method: req.method ?? '',
    host: String(req.headers.host),
    path: decodeURIComponent(new URL(req.url ?? '/', 'http://bucket').pathname),
    headers,
    payloadHash,
    config: { accessKey: 'AKIAPARLEYTEST', secretKey: 'parley-test-secret/key', region: 'eu-west-1' },
    now: fromAmzDate(date),
  });
  return expected.authorization === authorization;
}

/**
 * A product server on a stand-in bucket ({@link fakeBucket}), alice signed in, and the 720p clip in her prefix as her
 * browser would have posted it there itself; `publishIt` publishes it with `member/video_add`, whose answer it gives.
 */
async function s3Video() {
  const bucket = await fakeBucket();
  const s3 = {
    endpoint: bucket.endpoint,
    bucket: 'parley-media',
    region: 'eu-west-1',
    accessKey: 'AKIAPARLEYTEST',
    secretKey: 'parley-test-secret/key',
    publicUrl: undefined,
  };
  const p = await startProductServer(undefined, { uploads: { dir: tempDir(), s3 } });
  const alice = await signIn(p);
  const answer = await uploadToken(p, alice.token);
  const key = `${answer.key_prefix}${randomName()}.mp4`;
  bucket.objects.set(`/parley-media/${key}`, { body: clip, type: 'video/mp4' });
  const url = `${answer.url_prefix}${key}`;
  const publishIt = () =>
    p.call('member/video_add', {
      token: alice.token,
      title: 'A day at the lake',
      content: 'Calm.',
      video: url,
      img: `${answer.url_prefix}${answer.key_prefix}${randomName()}.png`,
    });
  return { bucket, p, alice, key, url, publishIt };
}

describe('UP-22: video resolutions of the server’s own storage', () => {
  it('makes 360p and 480p of a 720p upload, the original standing for HD, and no 1080p', async () => {
    const p = await server();
    const alice = await signIn(p);
    const url = await uploadClip(p, alice.token);
    const id = await publish(p, alice.token, url);
    await p.server.uploads.renditionsSettled();

    const sources = [
      { quality: 'smooth', url: `${url}.360p.mp4`, height: 360 },
      { quality: 'sd', url: `${url}.480p.mp4`, height: 480 },
      { quality: 'hd', url, height: 720 },
    ];
    expect(await sourcesOf(p, id)).toEqual(sources);
    expect((await p.call('video/lists', {})).ret[0].video).toEqual({ url, cover: expect.any(String), sources });
    expect(await inspect(`${url}.360p.mp4`)).toEqual({ size: '640x360', h264: true, aac: true, faststart: true });
    expect(await inspect(`${url}.480p.mp4`)).toMatchObject({ size: '854x480', faststart: true });
    for (const height of [720, 1080]) expect((await fetch(`${url}.${height}p.mp4`)).status).toBe(404);
  });

  it('public/video_sources: the resolutions of a link to an uploaded video, without a token; none for others', async () => {
    const p = await server();
    const alice = await signIn(p);
    const url = await uploadClip(p, alice.token);
    await p.server.uploads.renditionsSettled();
    const sourcesOfLink = async (link: unknown) => p.call('public/video_sources', { url: link });
    expect((await sourcesOfLink(url)).ret).toEqual([
      { quality: 'smooth', url: `${url}.360p.mp4`, height: 360 },
      { quality: 'sd', url: `${url}.480p.mp4`, height: 480 },
      { quality: 'hd', url, height: 720 },
    ]);
    const image = await uploadImage(p, alice.token);
    for (const other of [image, 'https://elsewhere.test/clip.mp4', `${p.url}/uploads/../clip.mp4`]) {
      expect((await sourcesOfLink(other)).ret, other).toEqual([]);
    }
    for (const bad of [undefined, '', 7, ['x'], 'x'.repeat(2049)]) {
      expect(await sourcesOfLink(bad), String(bad)).toMatchObject({ code: 'bad_params' });
    }
  });

  it('serves a circle post’s video with its resolutions', async () => {
    const p = await server();
    const alice = await signIn(p);
    const url = await uploadClip(p, alice.token);
    const img = await uploadImage(p, alice.token);
    const posted = await p.call('member/quanzi_add', {
      token: alice.token,
      title: 'By the lake',
      content: 'Calm.',
      video: url,
      img,
    });
    await p.server.uploads.renditionsSettled();
    const shown = (await p.call('quanzi/view', { id: posted['id'] })).ret.video as {
      sources: Array<{ height: number }>;
    };
    const heights = shown.sources.map((s) => s.height);
    expect(heights).toEqual([360, 480, 720]);
  });

  it('offers renditions made after the record was first served, one ffmpeg at a time, at the lowest priority', async () => {
    const ffmpeg = gatedFfmpeg();
    const p = await server({ ffmpeg: ffmpeg.path });
    const alice = await signIn(p);
    const first = await publish(p, alice.token, await uploadClip(p, alice.token));
    const second = await publish(p, alice.token, await uploadClip(p, alice.token));
    // A process started by a shell script: seconds on a busy machine, not the default second.
    await vi.waitFor(() => expect(ffmpeg.calls()[0]).toMatch(/^start /), { timeout: 15_000, interval: 50 });
    expect(await sourcesOf(p, first)).toEqual([]);
    ffmpeg.open();
    await p.server.uploads.renditionsSettled();
    expect((await sourcesOf(p, first)).map((s) => s.quality)).toEqual(['smooth', 'sd', 'hd']);
    expect(await sourcesOf(p, second)).toHaveLength(3);
    const calls = ffmpeg.calls().filter(Boolean);
    // Two videos, each read then made twice: six runs, each ending before the next starts.
    expect(calls.filter((line) => line.startsWith('start'))).toHaveLength(6);
    const order = calls.filter((line) => !line.startsWith('nice')).map((line) => line.split(' ')[0]);
    expect(order).toEqual(Array.from({ length: 6 }, () => ['start', 'end']).flat());
    expect(new Set(calls.filter((line) => line.startsWith('nice')))).toEqual(new Set(['nice 19']));
  });

  it('leaves the original only when ffmpeg is missing, and the server goes on', async () => {
    const p = await server({ ffmpeg: join(tempDir(), 'no-such-ffmpeg') });
    const alice = await signIn(p);
    const url = await uploadClip(p, alice.token);
    const id = await publish(p, alice.token, url);
    await p.server.uploads.renditionsSettled();
    expect(await sourcesOf(p, id)).toEqual([]);
    expect((await fetch(`${url}.360p.mp4`)).status).toBe(404);
    expect((await fetch(url)).status).toBe(200);
  });

  it('leaves what is made when ffmpeg fails or takes too long, and a file with no picture unread', async () => {
    const dir = tempDir();
    const hang = join(dir, 'ffmpeg');
    // Reads streams as ffmpeg does, then never finishes a rendition.
    writeFileSync(hang, '#!/bin/sh\ncase "$*" in *-movflags*) exec sleep 30 ;; esac\nexec ffmpeg "$@"\n');
    chmodSync(hang, 0o755);
    const p = await server({ ffmpeg: hang, renditions: { concurrency: 1, timeoutMs: 1000 } });
    const alice = await signIn(p);
    const url = await uploadClip(p, alice.token);
    const id = await publish(p, alice.token, url);
    const junk = await publish(p, alice.token, await uploadVideo(p, alice.token));
    await p.server.uploads.renditionsSettled();
    // The 360p run was killed: the original, known to be 720p, is all there is.
    expect(await sourcesOf(p, id)).toEqual([{ quality: 'hd', url, height: 720 }]);
    expect(await sourcesOf(p, junk)).toEqual([]);
    // A file ffmpeg found no picture in is known as such, and not read again each time it is shown.
    expect(readdirSync(join(p.dir, '.renditions', dirname(keyOf(p, url))))).toHaveLength(2);
    await p.server.uploads.renditionsSettled();
  });

  it('deletes the renditions with their video (MEM-7)', async () => {
    const p = await server();
    const alice = await signIn(p);
    const url = await uploadClip(p, alice.token);
    await publish(p, alice.token, url);
    await p.server.uploads.renditionsSettled();
    expect((await fetch(`${url}.360p.mp4`)).status).toBe(200);
    expect(await p.call('member/out', { token: alice.token, reason: 'privacy', agree: true })).toMatchObject({
      ret: true,
    });
    await vi.waitFor(async () => expect(await p.server.store.uploadDeletions.pending(10)).toEqual([]));
    for (const file of [url, `${url}.360p.mp4`, `${url}.480p.mp4`]) expect((await fetch(file)).status).toBe(404);
    expect(existsSync(join(p.dir, '.renditions', `${keyOf(p, url)}.json`))).toBe(false);
  });

  it('makes nothing when concurrency is 0', async () => {
    const p = await server({ renditions: { concurrency: 0, timeoutMs: 60_000 } });
    const alice = await signIn(p);
    const url = await uploadClip(p, alice.token);
    const id = await publish(p, alice.token, url);
    await p.server.uploads.renditionsSettled();
    expect(await sourcesOf(p, id)).toEqual([]);
    expect((await fetch(`${url}.360p.mp4`)).status).toBe(404);
  });

  it('with S3: reads the video from the bucket, puts each rendition beside it, keeps what is known there, deletes them with it', async () => {
    const { bucket, p, alice, key, url, publishIt } = await s3Video();
    expect(url).toBe(`${bucket.endpoint}/parley-media/${key}`);
    const published = await publishIt();
    expect(published.ret.video).toMatchObject({ url, sources: [] });
    await p.server.uploads.renditionsSettled();

    const id = String(published['vid']);
    expect(await sourcesOf(p, id)).toEqual([
      { quality: 'smooth', url: `${url}.360p.mp4`, height: 360 },
      { quality: 'sd', url: `${url}.480p.mp4`, height: 480 },
      { quality: 'hd', url, height: 720 },
    ]);
    expect(await inspect(`${url}.360p.mp4`)).toEqual({ size: '640x360', h264: true, aac: true, faststart: true });
    expect(await inspect(`${url}.480p.mp4`)).toMatchObject({ size: '854x480', faststart: true });
    const record = bucket.objects.get(`/parley-media/.renditions/${key}.json`);
    expect(JSON.parse(String(record?.body))).toEqual({ state: 'done', height: 720, original: 'hd', made: [360, 480] });
    expect(record?.type).toBe('application/json');
    // Every request of the server's is signed; a finished video is shown again without asking the bucket.
    const asked = bucket.requests.length;
    expect(await sourcesOf(p, id)).toHaveLength(3);
    expect(bucket.requests.length).toBe(asked);
    const own = bucket.requests.filter((r) => r.signed !== undefined);
    const original = `/parley-media/${key}`;
    const puts = new Set(own.filter((r) => r.method === 'PUT').map((r) => r.path));
    expect(puts).toEqual(
      new Set([`/parley-media/.renditions/${key}.json`, `${original}.360p.mp4`, `${original}.480p.mp4`]),
    );
    // The video is read from the bucket once.
    expect(own.filter((r) => r.method === 'GET' && r.path === original)).toHaveLength(1);
    expect(own.every((r) => r.signed)).toBe(true);

    expect(await p.call('member/out', { token: alice.token, reason: 'privacy', agree: true })).toMatchObject({
      ret: true,
    });
    await vi.waitFor(async () => expect(await p.server.store.uploadDeletions.pending(10)).toEqual([]));
    expect([...bucket.objects.keys()]).toEqual([]);
    expect(bucket.requests.filter((r) => r.signed !== undefined).every((r) => r.signed)).toBe(true);
  });

  it('with S3 down: the video is shown as it is, and its resolutions are made once the bucket answers again', async () => {
    const { bucket, p, url, publishIt } = await s3Video();
    bucket.state.failing = 503;
    const published = await publishIt();
    expect(published.ret.video).toMatchObject({ url, sources: [] });
    await p.server.uploads.renditionsSettled();
    const id = String(published['vid']);
    expect(await sourcesOf(p, id)).toEqual([]);

    delete bucket.state.failing;
    expect(await sourcesOf(p, id)).toEqual([]);
    await p.server.uploads.renditionsSettled();
    expect((await sourcesOf(p, id)).map((s) => s.height)).toEqual([360, 480, 720]);
  });
});

describe('UP-22: what a video is offered in', () => {
  it('offers the qualities not above its height, the highest being the original, and none below 360p', () => {
    const plan = (height: number) => {
      const { original, make } = planRenditions(height);
      return { original, make: make.map((step) => step.height) };
    };
    expect(plan(240)).toEqual({ original: undefined, make: [] });
    expect(plan(360)).toEqual({ original: 'smooth', make: [] });
    expect(plan(600)).toEqual({ original: 'sd', make: [360] });
    expect(plan(720)).toEqual({ original: 'hd', make: [360, 480] });
    expect(plan(1080)).toEqual({ original: 'bluray', make: [360, 480, 720] });
    expect(plan(2160)).toEqual({ original: 'bluray', make: [360, 480, 720] });
  });

  it('reads the height a video is shown at, turned for a phone held upright, and none without a picture', () => {
    const stream =
      '  Stream #0:0[0x1](und): Video: h264 (High) (avc1 / 0x31637661), yuv420p(progressive), 1920x1080 [SAR 1:1], 30 fps';
    expect(shownHeight(`${stream}\n`)).toBe(1080);
    expect(shownHeight(`${stream}\n    Side data:\n      displaymatrix: rotation of -90.00 degrees\n`)).toBe(1920);
    expect(shownHeight(`${stream}\n      displaymatrix: rotation of 180.00 degrees\n`)).toBe(1080);
    expect(shownHeight('  Stream #0:0: Audio: aac (LC), 44100 Hz, stereo\n')).toBeUndefined();
    expect(shownHeight('Invalid data found when processing input')).toBeUndefined();
  });

  it('makes H.264 and AAC in an MP4 whose index comes first, reading only the named local file', () => {
    const args = renditionArgs('/v/a.flv', 'flv', '/t/x.mp4', 480);
    expect(args.join(' ')).toContain('-protocol_whitelist file -f flv -i file:/v/a.flv');
    expect(args.join(' ')).toContain('-vf scale=w=-2:h=480 -c:v libx264');
    expect(args.join(' ')).toContain('-c:a aac');
    expect(args.join(' ')).toContain('-movflags +faststart -f mp4 -y file:/t/x.mp4');
    expect(() => renditionArgs('/v/a.txt', 'txt', '/t/x.mp4', 480)).toThrow(/not a video/);
  });
});
