import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MEMBER_LIMITS } from '../src/members/service.js';
import { LIMITS, MESSAGES } from '../src/protocol.js';
import { randomName } from '../src/uploads/keys.js';
import { KEY_EXISTS_MESSAGE } from '../src/uploads/local-storage.js';
import { signPolicy } from '../src/uploads/policy.js';
import { decodeUploadToken, encodeUploadToken } from '../src/uploads/product.js';
import { signPolicyV4 } from '../src/uploads/s3.js';
import { UPLOAD_TOKEN_TTL_MS } from '../src/uploads/service.js';
import { SECURE_APP } from './helpers.js';
import { png, pngBytes, postFile, productServer, signIn, startProductServer, uploadToken } from './product-support.js';
import { multipartFrame, rawPost } from './uploads-support.js';

/** Stored files under the storage root, temp files excluded. */
function stored(root: string, sub = ''): string[] {
  if (!existsSync(join(root, sub))) return [];
  return readdirSync(join(root, sub), { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === '.tmp') return [];
    return entry.isDirectory() ? stored(root, join(sub, entry.name)) : [join(sub, entry.name)];
  });
}

describe('product uploads: member/qiniu_token', () => {
  it('UP-17: the token and the profile update need a logged-in member ("account expired")', async () => {
    const p = await productServer();
    for (const body of [{}, { token: '' }, { token: 'not-a-token' }, { token: 42 }]) {
      expect(await p.call('member/qiniu_token', body)).toMatchObject({ err: 'account expired', code: 'token_invalid' });
      expect(await p.call('member/profile_update', { ...body, username: 'x' })).toMatchObject({
        code: 'token_invalid',
      });
    }
  });

  it('UP-17: index/config names the storage; a file posted with token, key and file comes back byte for byte', async () => {
    const p = await productServer();
    const { token, id } = await signIn(p);
    const config = await p.call('index/config', {});
    expect(config.ret.aliyun.upload_url).toBe(`${p.url}/uploads`);

    const answer = await uploadToken(p, token);
    expect(answer.upload_url).toBe(config.ret.aliyun.upload_url);
    expect(answer.fields).toEqual({ token: answer.ret });
    expect(answer.key_prefix).toMatch(new RegExp(`^product/[0-9a-f]{16}/${id}/parley_$`));
    expect(answer.url_prefix).toBe(`${p.url}/uploads/`);
    expect(answer.expires_at).toBe(p.now() + UPLOAD_TOKEN_TTL_MS);
    const parts = decodeUploadToken(answer.ret);
    expect(parts?.accessKeyId).toBe(SECURE_APP.appkey);
    expect(parts?.signature).toBe(signPolicy(SECURE_APP.secretKey, parts?.policy ?? ''));

    const key = `${answer.key_prefix}${randomName()}.png`;
    const res = await postFile(answer, key);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { key: string; url: string };
    expect(body).toEqual({ key, url: `${answer.url_prefix}${key}` });
    const got = await fetch(body.url);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await got.arrayBuffer())).toEqual(pngBytes());

    // A video goes the same way, with the same token.
    const clip = `${answer.key_prefix}${randomName()}.mp4`;
    expect((await postFile(answer, clip, new Blob(['mp4 body'], { type: 'video/mp4' }), 'clip.mp4')).status).toBe(200);
  });

  it('UP-17: a tampered token is refused as a signature mismatch, an expired one as expired; nothing is stored', async () => {
    const p = await productServer();
    const answer = await uploadToken(p, (await signIn(p)).token);
    const key = `${answer.key_prefix}${randomName()}.png`;
    const parts = decodeUploadToken(answer.ret);
    if (!parts) throw new Error('token does not parse');
    const policy = JSON.parse(Buffer.from(parts.policy, 'base64').toString('utf8')) as { conditions: unknown[] };
    policy.conditions[0] = ['content-length-range', 1, 10 * LIMITS.fileMaxBytes];
    const tampered = [
      encodeUploadToken({ ...parts, policy: Buffer.from(JSON.stringify(policy)).toString('base64') }),
      encodeUploadToken({ ...parts, signature: signPolicy('not-the-secret', parts.policy) }),
      encodeUploadToken({ ...parts, accessKeyId: 'open-appkey' }),
      'no-colons-at-all',
    ];
    for (const token of tampered) {
      const res = await postFile({ ...answer, fields: { token } }, key);
      expect(res.status, token).toBe(403);
      expect(await res.json()).toEqual({ code: 403, content: MESSAGES.uploadSignatureMismatch });
    }

    p.advance(UPLOAD_TOKEN_TTL_MS + 1);
    const expired = await postFile(answer, key);
    expect(expired.status).toBe(403);
    expect(await expired.json()).toEqual({ code: 403, content: MESSAGES.uploadPolicyExpired });
    expect(stored(p.dir)).toEqual([]);
  });

  it("UP-17: keys outside the member's prefix or of another form, and files that are not images or videos, are refused", async () => {
    const p = await productServer();
    const alice = await uploadToken(p, (await signIn(p)).token);
    const bob = await uploadToken(p, (await signIn(p, '13900139000')).token);
    const random = randomName();
    const refusals: Array<[string, Blob, string]> = [
      [`${bob.key_prefix}${random}.png`, png(), "another member's prefix"],
      [`im/${alice.key_prefix.split('/')[1]}/parley_${random}.png`, png(), 'the IM folder'],
      [`${alice.key_prefix}${random.slice(1)}.png`, png(), '31 random characters'],
      [`${alice.key_prefix}${random.toUpperCase()}.png`, png(), 'upper case'],
      [`${alice.key_prefix}${random}`, png(), 'no extension'],
      [`${alice.key_prefix}${random}.html`, png(), 'an HTML name'],
      [`${alice.key_prefix}${random}.svg`, png(), 'an SVG name'],
      [`${alice.key_prefix}${random}.png`, new Blob(['<html>'], { type: 'text/html' }), 'an HTML file'],
      [`${alice.key_prefix}${random}.png`, new Blob(['%PDF'], { type: 'application/pdf' }), 'a PDF file'],
    ];
    for (const [key, file, what] of refusals) {
      const res = await postFile(alice, key, file);
      expect(res.status, what).toBe(403);
      const body = (await res.json()) as { code: number; content: string };
      expect(body.content, what).toContain(MESSAGES.uploadPolicyFailed);
    }
    const climbing = await postFile(alice, `${alice.key_prefix}../../../${random}.png`);
    expect(climbing.status).toBe(403);
    expect(stored(p.dir)).toEqual([]);
  });

  it('UP-12, UP-17: an over-size file is stopped while it streams, whatever the request declares', async () => {
    const p = await productServer();
    const answer = await uploadToken(p, (await signIn(p)).token);
    const key = `${answer.key_prefix}${randomName()}.mp4`;
    const frame = multipartFrame([...Object.entries(answer.fields), ['key', key]], 'big.mp4');
    const head = frame.head.replace('application/octet-stream', 'video/mp4');
    const port = Number(new URL(p.url).port);
    const chunk = Buffer.alloc(256 * 1024, 7);
    const total = LIMITS.fileMaxBytes + 16 * 1024 * 1024;
    const framed = (b: Buffer) => Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')]);
    const result = await rawPost(
      port,
      { 'content-type': `multipart/form-data; boundary=${frame.boundary}`, 'transfer-encoding': 'chunked' },
      function* () {
        yield framed(Buffer.from(head));
        for (let sent = 0; sent < total; sent += chunk.length) yield framed(chunk);
        yield framed(Buffer.from(frame.tail));
        yield Buffer.from('0\r\n\r\n');
      },
    );
    expect(result.status).toBe(413);
    expect(result.written).toBeLessThan(total);
    expect((await fetch(`${answer.url_prefix}${key}`)).status).toBe(404);
  });

  it('UP-18: a key that holds a file is not replaced', async () => {
    const p = await productServer();
    const answer = await uploadToken(p, (await signIn(p)).token);
    const key = `${answer.key_prefix}${randomName()}.png`;
    expect((await postFile(answer, key)).status).toBe(200);
    const again = await postFile(answer, key, new Blob(['other bytes'], { type: 'image/png' }));
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ code: 409, content: KEY_EXISTS_MESSAGE });
    const got = await fetch(`${answer.url_prefix}${key}`);
    expect(Buffer.from(await got.arrayBuffer())).toEqual(pngBytes());
  });

  it('UP-17: without the product app to sign with, the token is refused with the upload failure', async () => {
    const p = await productServer({ productAppkey: 'no-such-app' });
    const { token } = await signIn(p);
    expect(await p.call('member/qiniu_token', { token })).toMatchObject({
      err: 'image, video and video-cover upload failed',
      code: 'upload_unavailable',
    });
  });

  it("UP-17: with S3, the token is a presigned POST for the member's prefix", async () => {
    const s3 = {
      endpoint: 'https://s3.fake-storage.test',
      bucket: 'parley-media',
      region: 'eu-west-1',
      accessKey: 'AKIAPARLEYTEST',
      secretKey: 'parley-test-secret/key',
      publicUrl: 'https://cdn.fake-storage.test/media/',
    };
    const p = await startProductServer(undefined, { uploads: { dir: undefined, s3 } });
    const config = await p.call('index/config', {});
    expect(config.ret.aliyun).toEqual({ upload_url: `${s3.endpoint}/${s3.bucket}`, image_resize: false });
    const answer = await uploadToken(p, (await signIn(p)).token);
    expect(answer.upload_url).toBe(`${s3.endpoint}/${s3.bucket}`);
    expect(answer.url_prefix).toBe('https://cdn.fake-storage.test/media/');
    expect(answer.ret).toBe(answer.fields['policy']);
    expect(Object.keys(answer.fields)).not.toContain('key');
    const policy = JSON.parse(Buffer.from(answer.ret, 'base64').toString('utf8')) as { conditions: unknown[] };
    expect(policy.conditions).toContainEqual(['starts-with', '$key', answer.key_prefix]);
    expect(policy.conditions).toContainEqual(['content-length-range', 1, LIMITS.fileMaxBytes]);
    const date = answer.fields['x-amz-date'] ?? '';
    expect(answer.fields['x-amz-signature']).toBe(signPolicyV4(s3.secretKey, date.slice(0, 8), s3.region, answer.ret));
  });
});

describe('product uploads: member/profile_update', () => {
  it('sets the nickname and an avatar the member uploaded; member/info then shows them', async () => {
    const p = await productServer();
    const { token, id } = await signIn(p);
    const answer = await uploadToken(p, token);
    const key = `${answer.key_prefix}${randomName()}.png`;
    const { url } = (await (await postFile(answer, key)).json()) as { url: string };

    const updated = await p.call('member/profile_update', { token, username: '  小明 Ming  ', img: url });
    expect(updated).toMatchObject({ status: 200, ret: { id, username: '小明 Ming', img: url } });
    expect((await p.call('member/info', { token })).ret).toMatchObject({ username: '小明 Ming', img: url });

    // Either field alone; the other keeps its value. A month later, the nickname can change again.
    p.advance(MEMBER_LIMITS.nicknameChangeIntervalMs);
    const { token: later } = await signIn(p);
    const nickname = '名'.repeat(MEMBER_LIMITS.nicknameMaxLength);
    expect((await p.call('member/profile_update', { token: later, username: nickname })).ret).toEqual({
      id,
      username: nickname,
      img: url,
      gender: 'hidden',
      birthday: '',
      region: '',
      qianming: '',
      background: '',
    });
  });

  it('changes the nickname once a month; the same nickname again or the avatar alone are not a change', async () => {
    const p = await productServer();
    const { token, id } = await signIn(p);
    expect((await p.call('member/profile_update', { token, username: 'First' })).ret).toMatchObject({ id });
    const tooSoon = { err: 'do not operate frequently', code: 'nickname_too_soon' };
    p.advance(MEMBER_LIMITS.nicknameChangeIntervalMs - 1);
    expect(await p.call('member/profile_update', { token, username: 'Second' })).toMatchObject(tooSoon);
    expect((await p.call('member/profile_update', { token, username: ' First ' })).ret.username).toBe('First');
    p.advance(1);
    const { token: later } = await signIn(p);
    expect((await p.call('member/profile_update', { token: later, username: 'Second' })).ret.username).toBe('Second');
    expect(await p.call('member/profile_update', { token: later, username: 'Third' })).toMatchObject(tooSoon);
    expect((await p.call('member/info', { token: later })).ret.username).toBe('Second');
  });

  it('refuses an empty or over-long nickname and a call that changes nothing ("parameter error")', async () => {
    const p = await productServer();
    const { token } = await signIn(p);
    const tooLong = 'n'.repeat(MEMBER_LIMITS.nicknameMaxLength + 1);
    for (const username of ['', '   ', tooLong, 'tab\there', 42, null]) {
      expect(await p.call('member/profile_update', { token, username }), String(username)).toMatchObject({
        err: 'parameter error',
        code: 'nickname_invalid',
      });
    }
    expect(await p.call('member/profile_update', { token })).toMatchObject({
      err: 'parameter error',
      code: 'bad_params',
    });
    expect((await p.call('member/info', { token })).ret.username).toBe('user8000');
  });

  it("refuses an avatar that is not the member's own uploaded image", async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const aliceToken = await uploadToken(p, alice.token);
    const bobToken = await uploadToken(p, bob.token);
    const bobsImage = `${bobToken.key_prefix}${randomName()}.png`;
    expect((await postFile(bobToken, bobsImage)).status).toBe(200);
    const video = `${aliceToken.key_prefix}${randomName()}.mp4`;
    expect((await postFile(aliceToken, video, new Blob(['mp4'], { type: 'video/mp4' }), 'v.mp4')).status).toBe(200);

    const refused = [
      'https://elsewhere.test/a.png',
      `${aliceToken.url_prefix}${bobsImage}`,
      `${aliceToken.url_prefix}${video}`,
      `${aliceToken.url_prefix}${aliceToken.key_prefix}${randomName()}.png`,
      `${aliceToken.url_prefix}${aliceToken.key_prefix}../${randomName()}.png`,
      '',
      42,
      null,
    ];
    for (const img of refused) {
      expect(await p.call('member/profile_update', { token: alice.token, img }), String(img)).toMatchObject({
        err: 'parameter error',
        code: 'img_invalid',
      });
    }
    expect((await p.call('member/info', { token: alice.token })).ret.img).toBe('');
  });
});
