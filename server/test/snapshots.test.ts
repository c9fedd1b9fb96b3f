import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MESSAGES, uploadedFileUrl, videoSnapshotQuery } from '../src/protocol.js';
import { SNAPSHOT_LIMITS, parseVideoSnapshot, snapshotArgs } from '../src/uploads/snapshots.js';
import { THUMBNAIL_LIMITS, Thumbnails } from '../src/uploads/thumbnails.js';
import { tempDir } from './helpers.js';
import { aliToken, postWithToken, uploadServer } from './uploads-support.js';

/**
 * A stand-in for ffmpeg: a shell script that logs each call and, by what `mode` holds, writes the frame (`frame`),
 * writes it only for a seek to 0 (`start`: a time past the end), fails (`fail`), or hangs (`hang`).
 */
async function fakeFfmpeg() {
  const dir = tempDir();
  const frame = join(dir, 'frame.jpg');
  writeFileSync(
    frame,
    await sharp({ create: { width: 32, height: 18, channels: 3, background: '#336699' } })
      .jpeg()
      .toBuffer(),
  );
  const log = join(dir, 'calls.log');
  const mode = join(dir, 'mode');
  writeFileSync(mode, 'frame');
  writeFileSync(log, '');
  const path = join(dir, 'ffmpeg');
  writeFileSync(
    path,
    `#!/bin/sh
echo "$*" >> '${log}'
[ "$2" = "-version" ] && exit 0
mode=$(cat '${mode}')
for last; do :; done
target="\${last#file:}"
case "$mode" in
  fail) exit 1 ;;
  hang) sleep 30 ;;
  start) case "$*" in *"-ss 0.000 "*) cp '${frame}' "$target" ;; esac ;;
  *) sleep 0.2; cp '${frame}' "$target" ;;
esac
`,
  );
  chmodSync(path, 0o755);
  return {
    path,
    frame: readFileSync(frame),
    setMode: (m: 'frame' | 'start' | 'fail' | 'hang') => writeFileSync(mode, m),
    /** The calls that took a frame (not the version probe). */
    takes: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((line) => line.includes('-frames:v')),
    probes: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((line) => line.includes('-version')).length,
  };
}

/** Uploads `bytes` over IM's token as `name`; its URL. */
async function upload(url: string, name: string, bytes: Buffer) {
  const token = await aliToken(url, name);
  const posted = await postWithToken(token, new Blob([new Uint8Array(bytes)]), name);
  expect(posted.status).toBeLessThan(300);
  return { url: uploadedFileUrl(token) };
}

const VIDEO = Buffer.from('not decoded by the stand-in');

describe('UP-21: video snapshots of the server’s own storage', () => {
  it('parses OSS’s video/snapshot, the SDK’s query first, and refuses what it cannot do as asked', () => {
    expect(parseVideoSnapshot(videoSnapshotQuery('ALI', 200).slice('?x-oss-process='.length))).toEqual({
      timeMs: 0,
      format: 'jpg',
      height: 200,
    });
    expect(parseVideoSnapshot('video/snapshot,t_7000,f_png,w_800,h_0')).toEqual({
      timeMs: 7000,
      format: 'png',
      width: 800,
    });
    expect(parseVideoSnapshot('video/snapshot')).toEqual({ timeMs: 0, format: 'jpg' });
    for (const other of [undefined, 3, '', 'image/resize,h_10', 'video/snapshots,t_0', 'video/convert']) {
      expect(parseVideoSnapshot(other), String(other)).toBeUndefined();
    }
    for (const bad of [
      'video/snapshot,t_abc',
      'video/snapshot,t_-1',
      `video/snapshot,t_${SNAPSHOT_LIMITS.timeMaxMs + 1}`,
      `video/snapshot,w_${SNAPSHOT_LIMITS.sideMax + 1}`,
      'video/snapshot,f_gif',
      'video/snapshot,m_slow',
      'video/snapshot,ar_x',
      'video/snapshot,x_1',
      'video/snapshot,t_1,t_2',
      'video/snapshot,t1',
    ]) {
      expect(parseVideoSnapshot(bad), bad).toBe('invalid');
    }
  });

  it('runs ffmpeg on the local file alone, with the demuxer of its extension, one frame scaled without enlarging', () => {
    const args = snapshotArgs('/data/a.mp4', 'mp4', '/data/.x', { timeMs: 1500, format: 'jpg', height: 120 }, 1500);
    const after = (flag: string) => args[args.indexOf(flag) + 1];
    expect(after('-protocol_whitelist')).toBe('file');
    expect(after('-f')).toBe('mov');
    expect(after('-i')).toBe('file:/data/a.mp4');
    expect(after('-ss')).toBe('1.500');
    expect(after('-frames:v')).toBe('1');
    expect(after('-vf')).toBe('scale=w=-2:h=min(ih\\,120)');
    expect(args.at(-1)).toBe('file:/data/.x');
    // The seek and the demuxer come before the input: they are the input's options.
    expect(args.indexOf('-ss')).toBeLessThan(args.indexOf('-i'));
    expect(args.indexOf('-protocol_whitelist')).toBeLessThan(args.indexOf('-i'));
    const png = snapshotArgs('/a.avi', 'avi', '/b', { timeMs: 0, format: 'png', width: 10, height: 20 }, 0);
    expect(png).toContain('avi');
    expect(png[png.indexOf('-c:v') + 1]).toBe('png');
    expect(png[png.indexOf('-vf') + 1]).toBe(
      'scale=w=min(iw\\,10):h=min(ih\\,20):force_original_aspect_ratio=decrease',
    );
    expect(snapshotArgs('/a.mov', 'mov', '/b', { timeMs: 0, format: 'jpg' }, 0)).not.toContain('-vf');
    expect(() => snapshotArgs('/a.txt', 'txt', '/b', { timeMs: 0, format: 'jpg' }, 0)).toThrow();
  });

  it('serves a video’s frame as an image, taken once for each size, and once however many ask at once', async () => {
    const ffmpeg = await fakeFfmpeg();
    const { url } = await uploadServer({ uploads: { dir: tempDir(), s3: undefined, ffmpeg: ffmpeg.path } });
    const video = await upload(url, 'clip.mp4', VIDEO);
    const snapshotUrl = `${video.url}${videoSnapshotQuery('ALI', 200)}`;
    const answers = await Promise.all([1, 2, 3].map(() => fetch(snapshotUrl)));
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(Buffer.from(await res.arrayBuffer())).toEqual(ffmpeg.frame);
    }
    expect(ffmpeg.takes()).toHaveLength(1);
    expect(ffmpeg.takes()[0]).toContain('-ss 0.000');
    expect(ffmpeg.takes()[0]).toContain('h=min(ih\\,200)');
    // Kept: asked again, it is not taken again; another size is.
    expect((await fetch(snapshotUrl)).status).toBe(200);
    expect(ffmpeg.takes()).toHaveLength(1);
    const png = await fetch(`${video.url}?x-oss-process=video/snapshot,t_2500,f_png,w_64`);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(ffmpeg.takes()).toHaveLength(2);
    expect(ffmpeg.takes()[1]).toContain('-ss 2.500');
    // ffmpeg was looked for once.
    expect(ffmpeg.probes()).toBe(1);
    // The video itself, and an image query on it, still serve the video.
    for (const plain of [video.url, `${video.url}?x-oss-process=image/resize,h_10`]) {
      const res = await fetch(plain);
      expect(res.headers.get('content-type')).toBe('video/mp4');
      expect(Buffer.from(await res.arrayBuffer())).toEqual(VIDEO);
    }
  });

  it('takes the first frame when the time asked is past the end', async () => {
    const ffmpeg = await fakeFfmpeg();
    ffmpeg.setMode('start');
    const { url } = await uploadServer({ uploads: { dir: tempDir(), s3: undefined, ffmpeg: ffmpeg.path } });
    const video = await upload(url, 'clip.mov', VIDEO);
    const res = await fetch(`${video.url}?x-oss-process=video/snapshot,t_90000,f_jpg`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(ffmpeg.frame);
    expect(ffmpeg.takes().map((call) => /-ss (\S+)/.exec(call)?.[1])).toEqual(['90.000', '0.000']);
  });

  it('answers 400 for a query it cannot do or a file that is no video, 404 when no frame can be taken, for a while', async () => {
    const ffmpeg = await fakeFfmpeg();
    const { url } = await uploadServer({ uploads: { dir: tempDir(), s3: undefined, ffmpeg: ffmpeg.path } });
    const video = await upload(url, 'clip.mp4', VIDEO);
    const image = await upload(
      url,
      'a.png',
      await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
        .png()
        .toBuffer(),
    );
    const invalid = { code: 400, content: MESSAGES.snapshotInvalid };
    for (const target of [
      `${video.url}?x-oss-process=video/snapshot,t_x`,
      `${image.url}?x-oss-process=video/snapshot,t_0`,
    ]) {
      const res = await fetch(target);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual(invalid);
    }
    ffmpeg.setMode('fail');
    const failed = await fetch(`${video.url}?x-oss-process=video/snapshot,t_0,f_jpg`);
    expect(failed.status).toBe(404);
    expect(await failed.json()).toEqual({ code: 404, content: MESSAGES.snapshotUnavailable });
    // A failure is remembered for a while: asked again at once, ffmpeg is not run again.
    ffmpeg.setMode('frame');
    const takes = ffmpeg.takes().length;
    expect((await fetch(`${video.url}?x-oss-process=video/snapshot,t_0,f_jpg`)).status).toBe(404);
    expect(ffmpeg.takes()).toHaveLength(takes);
    // A missing file is still the storage's own 404.
    const missing = await fetch(`${video.url.replace(/\.mp4$/, 'x.mp4')}?x-oss-process=video/snapshot,t_0`);
    expect(await missing.json()).toEqual({ code: 404, content: MESSAGES.uploadNotFound });
  });

  it('answers 404 without ffmpeg: turned off, or a program that is not there', async () => {
    for (const ffmpeg of [false, join(tempDir(), 'no-such-ffmpeg')] as const) {
      const { url } = await uploadServer({ uploads: { dir: tempDir(), s3: undefined, ffmpeg } });
      const video = await upload(url, 'clip.mp4', VIDEO);
      const res = await fetch(`${video.url}${videoSnapshotQuery('ALI', 100)}`);
      expect(res.status, String(ffmpeg)).toBe(404);
      expect(await res.json()).toEqual({ code: 404, content: MESSAGES.snapshotUnavailable });
    }
  });

  it('stops an ffmpeg that takes too long, keeps no half file, tries again later, and counts snapshots among the sizes kept', async () => {
    const ffmpeg = await fakeFfmpeg();
    const root = tempDir();
    const thumbnails = new Thumbnails(root, { ffmpeg: ffmpeg.path, snapshotTimeoutMs: 300, failureRetryMs: 0 });
    const source = join(root, 'v.mp4');
    writeFileSync(source, VIDEO);
    ffmpeg.setMode('hang');
    const started = Date.now();
    expect(await thumbnails.snapshot('k/v.mp4', source, 'mp4', { timeMs: 0, format: 'jpg' })).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(existsSync(join(root, '.thumbs', 'k/v.mp4', 'snapshot-t0-w0-h0.jpg'))).toBe(false);
    ffmpeg.setMode('frame');
    // Once the failure is old enough (at once here), it is tried again.
    expect(await thumbnails.snapshot('k/v.mp4', source, 'mp4', { timeMs: 0, format: 'jpg' })).toBeDefined();
    for (let i = 1; i < THUMBNAIL_LIMITS.variantsMax; i++) {
      expect(await thumbnails.snapshot('k/v.mp4', source, 'mp4', { timeMs: i, format: 'jpg' })).toBeDefined();
    }
    expect(await thumbnails.snapshot('k/v.mp4', source, 'mp4', { timeMs: 99, format: 'jpg' })).toBeUndefined();
    await thumbnails.forget('k/v.mp4');
    expect(existsSync(join(root, '.thumbs', 'k/v.mp4'))).toBe(false);
  });
});
