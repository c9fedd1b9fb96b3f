import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LIMITS,
  MEDIA_TYPES,
  MESSAGES,
  uploadFormFields,
  uploadedFileUrl,
  type AliUploadToken,
} from '../src/protocol.js';
import { KEY_EXISTS_MESSAGE } from '../src/uploads/local-storage.js';
import { declarableTypes, isSafeKey, newStoredName } from '../src/uploads/keys.js';
import { encodePolicy, signPolicy, type PolicyDocument } from '../src/uploads/policy.js';
import { OPEN_APP, authorizeParams, connect, request } from './helpers.js';
import {
  aliToken,
  eventually,
  multipartFrame,
  postForm,
  postWithToken,
  rawPost,
  tokenAck,
  uploadServer,
} from './uploads-support.js';

const png = () =>
  new Blob([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), 'fake image body'], { type: 'image/png' });

/** The policy document of a token. */
const policyOf = (token: Pick<AliUploadToken, 'policy'>) =>
  JSON.parse(Buffer.from(token.policy, 'base64').toString('utf8')) as PolicyDocument;

/** Every file the storage holds, relative to its root, temp files included. */
function storedFiles(root: string, sub = ''): string[] {
  if (!existsSync(join(root, sub))) return [];
  return readdirSync(join(root, sub), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? storedFiles(root, join(sub, entry.name)) : [join(sub, entry.name)],
  );
}

describe('uploads: tokens', () => {
  it('UP-2: uploadToken answers the ALI shape with a signed one-file policy', async () => {
    const { url } = await uploadServer();
    const ack = await tokenAck(url, { filename: 'holiday photo.JPG' });
    expect(ack).toMatchObject({ code: 200, resultCode: 200 });
    const token = ack.content as Record<string, string>;
    expect(Object.keys(token).sort()).toEqual(
      ['accessKeyId', 'dir', 'host', 'newFilename', 'policy', 'signature', 'vendor'].sort(),
    );
    expect(token.vendor).toBe('ALI');
    expect(token.host).toBe(`${url}/uploads`);
    expect(token.dir).toMatch(/^im\/[0-9a-f]{16}$/);
    expect(token.newFilename).toMatch(/^parley_[a-z0-9]{32}\.jpg$/);
    expect(token.accessKeyId).toBe(OPEN_APP.appkey);
    const policy = policyOf({ policy: token.policy as string });
    expect(Date.parse(policy.expiration)).toBeGreaterThan(Date.now());
    expect(policy.conditions).toEqual([
      ['content-length-range', 1, LIMITS.fileMaxBytes],
      ['starts-with', '$key', `${token.dir}/`],
      ['eq', '$key', `${token.dir}/${token.newFilename}`],
      ['in', '$Content-Type', ['image/jpeg', 'image/jpg', 'image/pjpeg', 'application/octet-stream']],
    ]);
    expect(policy.insertOnly).toBe(true);
    expect(token.signature).toBe(signPolicy(OPEN_APP.secretKey, token.policy as string));
  });

  it('UP-2: every token names a new key: 32 random [a-z0-9] behind the fixed prefix', async () => {
    const { url } = await uploadServer();
    const [one, two] = [await aliToken(url, 'a.png'), await aliToken(url, 'a.png')];
    expect(one.dir).toBe(two.dir);
    expect(one.newFilename).not.toBe(two.newFilename);
    const names = Array.from({ length: 200 }, () => newStoredName('a.png'));
    for (const name of [one.newFilename, two.newFilename, ...names]) expect(name).toMatch(/^parley_[a-z0-9]{32}\.png$/);
    expect(new Set(names).size).toBe(names.length);
    // 6400 random characters: every one of the 36 shows up, so the part is drawn from the whole alphabet.
    const used = new Set(names.flatMap((name) => [...name.slice('parley_'.length, -'.png'.length)]));
    expect([...used].sort().join('')).toBe('0123456789abcdefghijklmnopqrstuvwxyz');
  });

  it('UP-2: a name without a type of its own may declare any type; every type the SDK takes for a media name is allowed', async () => {
    const { url } = await uploadServer();
    for (const name of ['page.html', 'no-extension', 'table.xlsx']) {
      expect(policyOf(await aliToken(url, name)).conditions.at(-1), name).toEqual(['starts-with', '$Content-Type', '']);
    }
    expect(policyOf(await aliToken(url, 'notes.txt')).conditions.at(-1)).toEqual([
      'in',
      '$Content-Type',
      ['text/plain', 'application/octet-stream'],
    ]);
    // The SDK's check reads the subtype (`audio/mp3`, `video/mov`), so those names must pass the storage too.
    for (const kind of ['image', 'audio', 'video'] as const) {
      for (const ext of MEDIA_TYPES[kind].filter((type) => type !== 'quicktime')) {
        expect(declarableTypes(`x.${ext}`), ext).toContain(`${kind}/${ext}`);
      }
    }
    expect(declarableTypes('x.mov')).toContain('video/quicktime');
  });

  it('UP-1: uploadToken needs a named user, a filename, and the write permission', async () => {
    const { url } = await uploadServer();
    expect(await tokenAck(url, { filename: 'a.png' }, null)).toMatchObject({
      code: 401,
      content: MESSAGES.noPermission,
    });
    expect(await tokenAck(url, { filename: '' })).toMatchObject({ code: 400, content: MESSAGES.filenameEmpty });
    expect(await tokenAck(url, {})).toMatchObject({ code: 400, content: MESSAGES.filenameEmpty });
    const token = await aliToken(url, 'no-extension');
    expect(token.newFilename).toMatch(/^parley_[a-z0-9]{32}$/);
    expect(await tokenAck(url, { filename: `${'a'.repeat(251)}.png` })).toMatchObject({ code: 200 });
    expect(await tokenAck(url, { filename: `${'a'.repeat(252)}.png` })).toMatchObject({
      code: 400,
      content: MESSAGES.filenameTooLong,
    });
    // The subscribe-only key reads; it may not upload.
    const reader = await connect(url);
    const auth = await request(reader, 'authorize', authorizeParams({ appkey: OPEN_APP.subscribeKey }));
    expect(auth).toMatchObject({ code: 200 });
    expect(await request(reader, 'uploadToken', { filename: 'a.png' })).toMatchObject({
      code: 401,
      content: MESSAGES.noPermission,
    });
  });
});

describe('uploads: the server as storage', () => {
  it('UP-8, UP-14: a file posted with a token is served back byte for byte at the token URL', async () => {
    const { url } = await uploadServer();
    const token = await aliToken(url, 'photo.png');
    const file = png();
    const res = await postWithToken(token, file, 'photo.png');
    expect(res.status).toBe(200);
    const got = await fetch(uploadedFileUrl(token));
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer())).toEqual(Buffer.from(await file.arrayBuffer()));
    expect(got.headers.get('content-type')).toBe('image/png');
    // The reference adds an OSS image-processing query for thumbnails; it is ignored.
    const thumb = await fetch(`${uploadedFileUrl(token)}?x-oss-process=image/resize,m_lfit,h_200`);
    expect(thumb.status).toBe(200);
  });

  it("UP-9: the reference client's ALI form (key, OSSAccessKeyId, policy, signature, success_action_status, Content-Disposition, file) is accepted", async () => {
    const { url } = await uploadServer();
    const token = await aliToken(url, 'report.pdf');
    const fields = uploadFormFields(token, 'report.pdf');
    expect(fields.map(([name]) => name)).toEqual([
      'key',
      'OSSAccessKeyId',
      'policy',
      'signature',
      'success_action_status',
      'Content-Disposition',
    ]);
    const res = await postForm(token.host, fields, new Blob(['%PDF-1.4 body']), 'report.pdf');
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect((await fetch(uploadedFileUrl(token))).status).toBe(200);
  });

  it('UP-9: without success_action_status the answer is 204, as OSS answers', async () => {
    const { url } = await uploadServer();
    const token = await aliToken(url, 'a.png');
    const fields = uploadFormFields(token).filter(([name]) => name !== 'success_action_status');
    expect((await postForm(token.host, fields, png(), 'a.png')).status).toBe(204);
  });

  it('UP-10: a tampered policy or signature is refused and nothing is stored', async () => {
    const { url, dir } = await uploadServer();
    const token = await aliToken(url, 'a.png');
    const policy = JSON.parse(Buffer.from(token.policy, 'base64').toString('utf8')) as { conditions: unknown[] };
    policy.conditions[0] = ['content-length-range', 1, 10 * LIMITS.fileMaxBytes];
    const forgedPolicy = { ...token, policy: Buffer.from(JSON.stringify(policy)).toString('base64') };
    const res1 = await postWithToken(forgedPolicy, png(), 'a.png');
    expect(res1.status).toBe(403);
    expect(await res1.json()).toEqual({ code: 403, content: MESSAGES.uploadSignatureMismatch });
    const forgedSignature = { ...token, signature: signPolicy('not-the-secret', token.policy) };
    expect((await postWithToken(forgedSignature, png(), 'a.png')).status).toBe(403);
    const otherKey = { ...token, newFilename: 'parley_other.png' };
    const res3 = await postWithToken(otherKey, png(), 'a.png');
    expect(res3.status).toBe(403);
    expect(((await res3.json()) as { content: string }).content).toContain(MESSAGES.uploadPolicyFailed);
    expect(storedFiles(dir).filter((f) => !f.startsWith('.tmp'))).toEqual([]);
  });

  it('UP-11: an expired policy is refused', async () => {
    let clock = Date.parse('2030-01-01T00:00:00Z');
    const { url } = await uploadServer({}, { now: () => clock });
    const token = await aliToken(url, 'a.png');
    clock += 15 * 60_000 + 1;
    const res = await postWithToken(token, png(), 'a.png');
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ code: 403, content: MESSAGES.uploadPolicyExpired });
  });

  it('UP-12: an upload over 30 MiB is refused while streaming even when Content-Length is absent or lies', async () => {
    const { url, port, dir } = await uploadServer();
    const token = await aliToken(url, 'big.png');
    const { boundary, head, tail } = multipartFrame(uploadFormFields(token), 'big.png');
    const contentType = `multipart/form-data; boundary=${boundary}`;
    const chunk = Buffer.alloc(256 * 1024, 7);
    // Far over the limit, more than socket buffers hold: the answer must come before the client is done.
    const total = LIMITS.fileMaxBytes + 16 * 1024 * 1024;

    // Chunked: no Content-Length at all; the server must count.
    const framed = (b: Buffer) => Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')]);
    const chunked = await rawPost(port, { 'content-type': contentType, 'transfer-encoding': 'chunked' }, function* () {
      yield framed(Buffer.from(head));
      for (let sent = 0; sent < total; sent += chunk.length) yield framed(chunk);
      yield framed(Buffer.from(tail));
      yield Buffer.from('0\r\n\r\n');
    });
    expect(chunked.status).toBe(413);
    expect(chunked.written).toBeLessThan(total);

    // A Content-Length far below the body: only that much is read, so the form is incomplete.
    const lying = await rawPost(port, { 'content-type': contentType, 'content-length': '2000' }, function* () {
      yield Buffer.from(head);
      for (let sent = 0; sent < 4 * chunk.length; sent += chunk.length) yield chunk;
    });
    expect(lying.status).toBe(400);

    // A declared size over the limit is refused before any byte is read.
    const declared = await rawPost(
      port,
      { 'content-type': contentType, 'content-length': String(total + head.length + tail.length) },
      function* () {
        yield Buffer.from(head);
      },
    );
    expect(declared.status).toBe(413);
    // The lying request is answered by the HTTP parser when the extra bytes arrive, maybe before its handler has
    // removed its temp file: wait for the handlers to finish.
    await eventually(() => storedFiles(dir).length === 0, 'no stored or temp files');
    expect((await fetch(uploadedFileUrl(token))).status).toBe(404);
  });

  it('UP-12: an empty file is refused by the policy range', async () => {
    const { url } = await uploadServer();
    const token = await aliToken(url, 'a.png');
    const res = await postWithToken(token, new Blob([]), 'a.png');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 400, content: MESSAGES.uploadTooSmall });
  });

  it('UP-12: exactly 30 MiB is stored; one byte more is refused and leaves nothing', async () => {
    const { url, port, dir } = await uploadServer();
    const post = async (name: string, size: number) => {
      const token = await aliToken(url, name);
      const { boundary, head, tail } = multipartFrame(uploadFormFields(token), name);
      const chunk = Buffer.alloc(1024 * 1024, 1);
      const answer = await rawPost(
        port,
        {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + size + tail.length),
        },
        function* () {
          yield Buffer.from(head);
          for (let left = size; left > 0; left -= chunk.length) {
            yield left < chunk.length ? chunk.subarray(0, left) : chunk;
          }
          yield Buffer.from(tail);
        },
      );
      return { status: answer.status, url: uploadedFileUrl(token) };
    };
    const limit = await post('limit.bin', LIMITS.fileMaxBytes);
    expect(limit.status).toBe(200);
    const stored = await fetch(limit.url, { method: 'HEAD' });
    expect(stored.headers.get('content-length')).toBe(String(LIMITS.fileMaxBytes));
    const over = await post('over.bin', LIMITS.fileMaxBytes + 1);
    expect(over.status).toBe(413);
    expect((await fetch(over.url)).status).toBe(404);
    await eventually(() => storedFiles(dir).length === 1, 'only the file at the limit stored, no temp file left');
  });

  it("UP-12: a policy's own content-length-range, narrower than the server's cap, is enforced", async () => {
    const { url, dir } = await uploadServer();
    const { host } = await aliToken(url, 'a.bin');
    const post = (key: string, bytes: number) => {
      const policy = encodePolicy({
        expiration: new Date(Date.now() + 60_000).toISOString(),
        conditions: [
          ['content-length-range', 4, 10],
          ['eq', '$key', key],
        ],
      });
      const fields: Array<[string, string]> = [
        ['key', key],
        ['OSSAccessKeyId', OPEN_APP.appkey],
        ['policy', policy],
        ['signature', signPolicy(OPEN_APP.secretKey, policy)],
        ['success_action_status', '200'],
      ];
      return postForm(host, fields, new Blob([new Uint8Array(bytes)]), 'a.bin');
    };
    const over = await post('im/narrow/over.bin', 11);
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ code: 413, content: MESSAGES.uploadTooLarge });
    const under = await post('im/narrow/under.bin', 3);
    expect(under.status).toBe(400);
    expect(await under.json()).toEqual({ code: 400, content: MESSAGES.uploadTooSmall });
    expect((await post('im/narrow/within.bin', 10)).status).toBe(200);
    await eventually(
      () => storedFiles(dir).join() === join('im', 'narrow', 'within.bin'),
      'only the file within the range stored',
    );
  });

  it('UP-2, UP-11: a file part declaring a type outside the policy is refused and nothing is stored', async () => {
    const { url, dir } = await uploadServer();
    const token = await aliToken(url, 'a.png');
    const condition = ['in', '$Content-Type', ['image/png', 'image/x-png', 'application/octet-stream']];
    expect(policyOf(token).conditions).toContainEqual(condition);
    for (const type of ['text/html', 'image/svg+xml', 'image/gif']) {
      const res = await postWithToken(token, new Blob(['<svg onload="alert(1)"/>'], { type }), 'a.png');
      expect(res.status, type).toBe(403);
      expect(await res.json()).toEqual({
        code: 403,
        content: `${MESSAGES.uploadPolicyFailed}: ${JSON.stringify(condition)}`,
      });
    }
    expect(storedFiles(dir)).toEqual([]);
    // Parameters are not part of the type; the file is then accepted under the same token.
    expect((await postWithToken(token, new Blob(['png'], { type: 'image/png; charset=binary' }), 'a.png')).status).toBe(
      200,
    );
    expect(storedFiles(dir)).toEqual([join(token.dir, token.newFilename)]);
    const generic = await aliToken(url, 'b.png');
    expect((await postWithToken(generic, new Blob(['png']), 'b.png')).status).toBe(200);
  });

  it('UP-18: a token cannot replace the file it uploaded', async () => {
    const { url } = await uploadServer();
    const token = await aliToken(url, 'a.png');
    expect((await postWithToken(token, new Blob(['first'], { type: 'image/png' }), 'a.png')).status).toBe(200);
    const again = await postWithToken(token, new Blob(['second'], { type: 'image/png' }), 'a.png');
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ code: 409, content: KEY_EXISTS_MESSAGE });
    expect(await (await fetch(uploadedFileUrl(token))).text()).toBe('first');
  });

  it('UP-9: a broken form (no boundary, an unusable one, cut short in a part) is a 400, and stores nothing', async () => {
    const { url, dir } = await uploadServer();
    const token = await aliToken(url, 'photo.png');
    const { boundary, head } = multipartFrame(uploadFormFields(token), 'photo.png');
    const post = (type: string, body: string) =>
      fetch(token.host, { method: 'POST', headers: { 'content-type': type }, body });
    for (const [type, body] of [
      ['multipart/form-data', `${head}bytes`],
      [`multipart/form-data; boundary=${'x'.repeat(300)}`, `${head}bytes`],
      [`multipart/form-data; boundary=${boundary}`, `${head}bytes cut before the closing boundary`],
      [`multipart/form-data; boundary=${boundary}`, head.slice(0, head.length - 40)],
    ] as const) {
      const res = await post(type, body);
      expect(res.status, type).toBe(400);
      expect(await res.json()).toEqual({ code: 400, content: MESSAGES.uploadFormInvalid });
    }
    expect(storedFiles(dir).filter((f) => !f.startsWith('.tmp'))).toEqual([]);
  });

  it('UP-19: field names are read without case, and two of one name are refused', async () => {
    const { url, dir } = await uploadServer();
    const token = await aliToken(url, 'a.png');
    const fields = uploadFormFields(token);
    const tokenKey = `${token.dir}/${token.newFilename}`;
    const others = fields.filter(([name]) => name !== 'key');
    // The policy would check `Key`, the token's own key; the file would have gone to `key`.
    for (const key of ['elsewhere/x.png', `${token.dir}/other.png`]) {
      const res = await postForm(token.host, [['key', key], ...others, ['Key', tokenKey]], png(), 'a.png');
      expect(res.status, key).toBe(400);
      expect(await res.json()).toEqual({ code: 400, content: MESSAGES.uploadFieldRepeated });
    }
    expect(storedFiles(dir).filter((f) => !f.startsWith('.tmp'))).toEqual([]);
    // One of each name, in any case, is a form as OSS reads it.
    const shouted = fields.map(([name, value]) => [name.toUpperCase(), value] as const);
    const res = await postForm(token.host, shouted, png(), 'a.png');
    expect(res.status).toBe(200);
    expect((await fetch(uploadedFileUrl(token))).status).toBe(200);
  });

  it('UP-13: keys that climb out of the storage are refused, even under a validly signed policy', async () => {
    const { url, dir } = await uploadServer();
    const token = await aliToken(url, 'a.png');
    const policy = encodePolicy({
      expiration: new Date(Date.now() + 60_000).toISOString(),
      conditions: [['starts-with', '$key', '']],
    });
    const signature = signPolicy(OPEN_APP.secretKey, policy);
    for (const key of ['../escape.png', 'im/../../escape.png', '/etc/escape.png', 'im\\..\\escape.png', 'im/.tmp/x']) {
      const res = await postForm(
        token.host,
        [
          ['key', key],
          ['OSSAccessKeyId', OPEN_APP.appkey],
          ['policy', policy],
          ['signature', signature],
        ],
        png(),
        'a.png',
      );
      expect(res.status, key).toBe(400);
      expect(await res.json()).toEqual({ code: 400, content: MESSAGES.uploadKeyInvalid });
    }
    expect(storedFiles(dir).filter((f) => !f.startsWith('.tmp'))).toEqual([]);
    expect(existsSync(join(dir, '..', 'escape.png'))).toBe(false);
    for (const path of ['%2e%2e/%2e%2e/package.json', '..%2f..%2fpackage.json', '.tmp', 'im/%2e%2e/x']) {
      expect((await fetch(`${url}/uploads/${path}`)).status, path).toBe(404);
    }
    expect(['a/b.png', 'im/0123/parley_x.jpg'].every(isSafeKey)).toBe(true);
    expect(['', '..', 'a/../b', 'a//b', '.hidden', 'a\u0000b', 'a/ b'].some(isSafeKey)).toBe(false);
  });

  it('UP-15: files are served with nosniff, media inline, everything else as a download of a safe type', async () => {
    const { url } = await uploadServer();
    const cases: Array<[string, string, string]> = [
      ['a.png', 'image/png', 'inline'],
      ['a.mp4', 'video/mp4', 'inline'],
      ['a.mp3', 'audio/mpeg', 'inline'],
      ['page.html', 'application/octet-stream', 'attachment'],
      ['vector.svg', 'application/octet-stream', 'attachment'],
      ['notes.pdf', 'application/pdf', 'attachment'],
    ];
    for (const [name, type, disposition] of cases) {
      const token = await aliToken(url, name);
      // A type the policy allows for the name: the generic one, or whatever a name without a type of its own says.
      const declared = declarableTypes(name) ? 'application/octet-stream' : 'text/html';
      const body = new Blob(['<script>alert(1)</script>'], { type: declared });
      expect((await postWithToken(token, body, name)).status).toBe(200);
      const res = await fetch(uploadedFileUrl(token));
      expect(res.headers.get('content-type'), name).toBe(type);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy'), name).toBe("default-src 'none'; sandbox");
      expect(res.headers.get('content-disposition'), name).toBe(disposition);
    }
  });

  it('UP-14: byte ranges are served for media players', async () => {
    const { url } = await uploadServer();
    const token = await aliToken(url, 'clip.mp4');
    await postWithToken(token, new Blob(['0123456789']), 'clip.mp4');
    const res = await fetch(uploadedFileUrl(token), { headers: { range: 'bytes=2-5' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 2-5/10');
    expect(await res.text()).toBe('2345');
    expect((await fetch(uploadedFileUrl(token), { headers: { range: 'bytes=20-30' } })).status).toBe(416);
    expect((await fetch(`${url}/uploads/im/nothing/here.png`)).status).toBe(404);
  });
});
