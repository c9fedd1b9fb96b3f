import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { randomName } from '../src/uploads/keys.js';
import { EMPTY_PAYLOAD_SHA256, signS3Request } from '../src/uploads/s3.js';
import { SECURE_APP, defer, fromAmzDate } from './helpers.js';
import { productServer, signIn, startProductServer, uploadImage, uploadToken } from './product-support.js';

/** A stand-in S3 on loopback that records each request and answers with the status `answer` gives. */
async function fakeS3(answer: () => number) {
  const requests: Array<{ method: string; url: string; headers: IncomingMessage['headers'] }> = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    res.statusCode = answer();
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  defer(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { requests, endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('MEM-7: a cancelled account’s files in the server’s own storage', () => {
  it('deletes the member’s keys the texts name, in URLs or JSON lists, but those kept and other members’', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const [a1, a2, a3, a4] = [
      await uploadImage(p, alice.token),
      await uploadImage(p, alice.token),
      await uploadImage(p, alice.token),
      await uploadImage(p, alice.token),
    ] as [string, string, string, string];
    const b1 = await uploadImage(p, bob.token);
    const status = async (url: string) => {
      const res = await fetch(url);
      await res.body?.cancel();
      return res.status;
    };
    // A thumbnail of one (UP-20) goes with it.
    const thumb = await fetch(`${a1}?x-oss-process=image/resize,h_100`);
    await thumb.body?.cancel();
    const thumbs = join(p.dir, '.thumbs', a1.slice(a1.indexOf('/uploads/') + '/uploads/'.length));
    await mkdir(thumbs, { recursive: true });
    await writeFile(join(thumbs, 'lfit-w0-h100-l0-s0-k.png'), 'thumb');
    const removed = await p.server.uploads.removeProductFiles({
      app: SECURE_APP,
      memberId: alice.id,
      refs: [JSON.stringify([a1, b1]), a2, `${a3}?x-oss-process=image/resize,w_100`, a1],
      kept: [a2],
    });
    expect(removed).toBe(2);
    expect(existsSync(thumbs)).toBe(false);
    expect([await status(a1), await status(a2), await status(a3), await status(a4), await status(b1)]).toEqual([
      404, 200, 404, 200, 200,
    ]);
    // Again: already gone is no error.
    expect(
      await p.server.uploads.removeProductFiles({ app: SECURE_APP, memberId: alice.id, refs: [a1], kept: [] }),
    ).toBe(1);
  });
});

describe('MEM-7: a cancelled account’s files in S3', () => {
  it('signs requests with SigV4 as the AWS documentation’s GET Object example does', () => {
    const headers = signS3Request({
      method: 'GET',
      host: 'examplebucket.s3.amazonaws.com',
      path: '/test.txt',
      headers: { Range: 'bytes=0-9' },
      config: {
        accessKey: 'AKIAIOSFODNN7EXAMPLE',
        secretKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
        region: 'us-east-1',
      },
      now: Date.UTC(2013, 4, 24),
    });
    expect(headers).toEqual({
      host: 'examplebucket.s3.amazonaws.com',
      range: 'bytes=0-9',
      'x-amz-content-sha256': EMPTY_PAYLOAD_SHA256,
      'x-amz-date': '20130524T000000Z',
      authorization:
        'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    });
  });

  it('deletes them with signed DELETEs; a failure waits for the next sweep, which deletes them', async () => {
    let status = 500;
    const s3Server = await fakeS3(() => status);
    const s3 = {
      endpoint: s3Server.endpoint,
      bucket: 'parley-media',
      region: 'eu-west-1',
      accessKey: 'AKIAPARLEYTEST',
      secretKey: 'parley-test-secret/key',
      publicUrl: 'https://cdn.fake-storage.test/media',
    };
    // A session lifetime of a second runs the sweep twice a second.
    const p = await startProductServer(undefined, { uploads: { dir: undefined, s3 }, sessionTtlMs: 1_000 });
    const alice = await signIn(p);
    const answer = await uploadToken(p, alice.token);
    // S3 is not asked whether a file exists: the URLs only need the member's prefix.
    const [avatar, background] = [0, 1].map(() => `${answer.key_prefix}${randomName()}.png`) as [string, string];
    const url = (key: string) => `${answer.url_prefix}${key}`;
    const updated = await p.call('member/profile_update', {
      token: alice.token,
      img: url(avatar),
      background: url(background),
    });
    expect(updated.ret).toBeTruthy();

    expect(await p.call('member/out', { token: alice.token, reason: 'privacy', agree: true })).toMatchObject({
      ret: true,
    });
    const waitFor = async (check: () => boolean | Promise<boolean>, what: string) => {
      for (const deadline = Date.now() + 5_000; !(await check());) {
        if (Date.now() > deadline) throw new Error(`${what} not met within 5 s`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    await waitFor(() => s3Server.requests.length > 0, 'a first DELETE');
    expect(await p.server.store.uploadDeletions.pending(10)).toHaveLength(1);
    status = 204;
    await waitFor(async () => (await p.server.store.uploadDeletions.pending(10)).length === 0, 'the sweep');

    const deleted = s3Server.requests.filter((r) => r.method === 'DELETE').map((r) => r.url);
    expect(new Set(deleted)).toEqual(new Set([`/${s3.bucket}/${avatar}`, `/${s3.bucket}/${background}`]));
    for (const request of s3Server.requests) {
      expect(request.method).toBe('DELETE');
      const date = String(request.headers['x-amz-date']);
      const expected = signS3Request({
        method: 'DELETE',
        host: String(request.headers.host),
        path: request.url,
        config: s3,
        now: fromAmzDate(date),
      });
      expect(request.headers.authorization).toBe(expected.authorization);
      expect(request.headers.authorization).toContain(`Credential=${s3.accessKey}/${date.slice(0, 8)}/eu-west-1/s3/`);
    }
  });
});
