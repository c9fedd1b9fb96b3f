import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { randomName } from '../src/uploads/keys.js';
import { THUMBNAIL_LIMITS, parseImageProcess } from '../src/uploads/thumbnails.js';
import { postFile, productServer, signIn, uploadToken, type ProductServer } from './product-support.js';

/** A solid image of `width` x `height` in `format`, with an EXIF `orientation` if given. */
async function picture(width: number, height: number, format: 'png' | 'jpeg' | 'gif', orientation?: number) {
  let image = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } }).toFormat(format);
  if (orientation) image = image.withMetadata({ orientation });
  return image.toBuffer();
}

/** Uploads `bytes` as the member, named with `ext`; its URL. */
async function upload(p: ProductServer, token: string, bytes: Buffer, ext: string, type: string) {
  const answer = await uploadToken(p, token);
  const key = `${answer.key_prefix}${randomName()}.${ext}`;
  const posted = await postFile(answer, key, new Blob([new Uint8Array(bytes)], { type }), `a.${ext}`);
  expect(posted.status).toBe(200);
  return { url: `${answer.url_prefix}${key}`, key };
}

/** GETs `url` with `process` as its `x-oss-process`: the answer, and the image's shown size when it is one. */
async function fetchImage(url: string, process?: string, headers: Record<string, string> = {}) {
  const res = await fetch(process === undefined ? url : `${url}?x-oss-process=${process}`, { headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  const meta = await sharp(bytes)
    .metadata()
    .catch(() => undefined);
  return { res, bytes, size: meta && { width: meta.width, height: meta.height, format: meta.format } };
}

describe('UP-20: image resize of the server’s own storage', () => {
  it('parses OSS’s resize, and nothing it cannot do as asked', () => {
    expect(parseImageProcess('image/resize,m_lfit,h_200')).toEqual({ mode: 'lfit', height: 200 });
    expect(parseImageProcess('image/resize,w_100,h_50,m_fill,limit_0')).toEqual({
      mode: 'fill',
      width: 100,
      height: 50,
    });
    expect(parseImageProcess('image/resize,l_300,s_200')).toEqual({
      mode: 'lfit',
      long: 300,
      short: 200,
    });
    // Other operations of the chain are left out; the resize is done.
    expect(parseImageProcess('image/auto-orient,1/resize,h_80/quality,q_90')).toEqual({
      mode: 'lfit',
      height: 80,
    });
    for (const bad of [
      undefined,
      7,
      '',
      'video/snapshot,t_0,f_jpg',
      'image/resize',
      'image/resize,m_lfit',
      'image/resize,h_0',
      `image/resize,h_${THUMBNAIL_LIMITS.sideMax + 1}`,
      'image/resize,h_abc',
      'image/resize,h_-5',
      'image/resize,x_5',
      'image/resize,m_stretch,h_5',
      'image/resize,limit_2,h_5',
      'image/resize,h5',
      'image/crop,w_100',
    ]) {
      expect(parseImageProcess(bad), String(bad)).toBeUndefined();
    }
  });

  it('serves an image resized into the box, kept for the next time, upright, never enlarged', async () => {
    const p = await productServer();
    const { token } = await signIn(p);
    const png = await upload(p, token, await picture(800, 600, 'png'), 'png', 'image/png');
    const whole = await fetchImage(png.url);
    expect(whole.size).toEqual({ width: 800, height: 600, format: 'png' });

    const thumb = await fetchImage(png.url, 'image/resize,m_lfit,h_200');
    expect(thumb.res.status).toBe(200);
    expect(thumb.res.headers.get('content-type')).toBe('image/png');
    expect(thumb.res.headers.get('content-length')).toBe(String(thumb.bytes.length));
    expect(thumb.size).toEqual({ width: 267, height: 200, format: 'png' });
    expect(thumb.bytes.length).toBeLessThan(whole.bytes.length);
    const kept = join(p.dir, '.thumbs', png.key);
    expect(existsSync(kept)).toBe(true);
    // The same size again comes from what was kept: the same bytes; a range of it too.
    expect((await fetchImage(png.url, 'image/resize,m_lfit,h_200')).bytes).toEqual(thumb.bytes);
    const part = await fetch(`${png.url}?x-oss-process=image/resize,m_lfit,h_200`, { headers: { range: 'bytes=0-9' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(thumb.bytes.subarray(0, 10));

    expect((await fetchImage(png.url, 'image/resize,w_100,h_100')).size).toMatchObject({ width: 100, height: 75 });
    expect((await fetchImage(png.url, 'image/resize,m_fill,w_100,h_100')).size).toMatchObject({
      width: 100,
      height: 100,
    });
    expect((await fetchImage(png.url, 'image/resize,m_fixed,w_100,h_30')).size).toMatchObject({
      width: 100,
      height: 30,
    });
    expect((await fetchImage(png.url, 'image/resize,m_pad,w_100,h_100')).size).toMatchObject({
      width: 100,
      height: 100,
    });
    expect((await fetchImage(png.url, 'image/resize,m_mfit,w_100,h_100')).size).toMatchObject({
      width: 133,
      height: 100,
    });
    expect((await fetchImage(png.url, 'image/resize,h_2000')).size).toMatchObject({ width: 800, height: 600 });
    // `limit_0` asks OSS to enlarge; here it does nothing.
    expect((await fetchImage(png.url, 'image/resize,h_1200,limit_0')).size).toMatchObject({
      width: 800,
      height: 600,
    });

    // A photo taken turned (EXIF orientation 6: shown a quarter turned): resized as shown, the long side down.
    const jpeg = await upload(p, token, await picture(800, 600, 'jpeg', 6), 'jpg', 'image/jpeg');
    const upright = await fetchImage(jpeg.url, 'image/resize,l_400');
    expect(upright.res.headers.get('content-type')).toBe('image/jpeg');
    expect(upright.size).toEqual({ width: 300, height: 400, format: 'jpeg' });
  });

  it('serves the original for what it does not resize: other formats, bad queries, too many sizes, not images', async () => {
    const p = await productServer();
    const { token } = await signIn(p);
    const gif = await upload(p, token, await picture(300, 300, 'gif'), 'gif', 'image/gif');
    const whole = await fetchImage(gif.url);
    expect((await fetchImage(gif.url, 'image/resize,h_100')).bytes).toEqual(whole.bytes);

    const png = await upload(p, token, await picture(400, 400, 'png'), 'png', 'image/png');
    const original = await fetchImage(png.url);
    expect((await fetchImage(png.url, 'image/resize,h_abc')).bytes).toEqual(original.bytes);
    for (let h = 1; h <= THUMBNAIL_LIMITS.variantsMax; h++) {
      expect((await fetchImage(png.url, `image/resize,h_${h * 10}`)).size).toMatchObject({ height: h * 10 });
    }
    // Past the bound a new size gets the original; the sizes kept are still served.
    expect((await fetchImage(png.url, 'image/resize,h_333')).bytes).toEqual(original.bytes);
    expect((await fetchImage(png.url, 'image/resize,h_20')).size).toMatchObject({ height: 20 });

    // Not an image, though named one: the file as it is.
    const fake = await upload(p, token, Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), 'png', 'image/png');
    const bytes = await fetchImage(fake.url, 'image/resize,h_100');
    expect(bytes.res.status).toBe(200);
    expect(bytes.bytes).toEqual(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
    // Many asking the same size at once: one is made, all get it.
    const big = await upload(p, token, await picture(1200, 900, 'png'), 'png', 'image/png');
    const together = await Promise.all(Array.from({ length: 6 }, () => fetchImage(big.url, 'image/resize,h_150')));
    for (const one of together) expect(one.bytes).toEqual(together[0]?.bytes);
    expect(together[0]?.size).toMatchObject({ width: 200, height: 150 });
  });
});
