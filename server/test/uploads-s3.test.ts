import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createAppRegistry } from '../src/auth/apps.js';
import { uploadFormFields, uploadedFileUrl, type UploadToken } from '../src/protocol.js';
import { signPolicyV4 } from '../src/uploads/s3.js';
import { createUploadService } from '../src/uploads/service.js';
import { OPEN_APP } from './helpers.js';
import { postWithToken } from './uploads-support.js';

const S3 = {
  endpoint: 'https://s3.fake-storage.test',
  bucket: 'parley-media',
  region: 'eu-west-1',
  accessKey: 'AKIAPARLEYTEST',
  secretKey: 'parley-test-secret/key',
  publicUrl: 'https://cdn.fake-storage.test/media/',
};

interface Received {
  names: string[];
  fields: Record<string, string>;
  file: File | undefined;
}
const received: Received[] = [];
const mock = setupServer(
  http.post(`${S3.endpoint}/${S3.bucket}`, async ({ request }) => {
    const form = await request.formData();
    const names: string[] = [];
    const fields: Record<string, string> = {};
    let file: File | undefined;
    form.forEach((value, name) => {
      names.push(name);
      if (typeof value === 'string') fields[name] = value;
      else file = value;
    });
    received.push({ names, fields, file });
    return new HttpResponse(null, { status: Number(fields['success_action_status'] ?? 204) });
  }),
);

beforeAll(() => mock.listen({ onUnhandledRequest: 'error' }));
afterAll(() => mock.close());

const now = Date.parse('2030-05-06T07:08:09.123Z');
const service = () =>
  createUploadService({
    config: { dir: undefined, s3: { ...S3, publicUrl: S3.publicUrl.replace(/\/$/, '') } },
    dataDir: '/nonexistent',
    apps: createAppRegistry([OPEN_APP]),
    publicUrl: () => 'http://unused.test',
    now: () => now,
  });

describe('uploads: S3 presigned POST', () => {
  it('UP-16: the SigV4 policy signature matches the AWS documentation example', () => {
    // docs.aws.amazon.com/AmazonS3/latest/API/sigv4-post-example.html
    const policy =
      'eyAiZXhwaXJhdGlvbiI6ICIyMDEzLTA4LTA3VDEyOjAwOjAwLjAwMFoiLA0KICAiY29uZGl0aW9ucyI6IFsNCiAgICB7ImJ1Y2tldCI6ICJleGFtcGxlYnVja2V0In0sDQogICAgWyJzdGFydHMtd2l0aCIsICIka2V5IiwgInVzZXIvdXNlcjEvIl0sDQogICAgeyJhY2wiOiAicHVibGljLXJlYWQifSwNCiAgICB7InN1Y2Nlc3NfYWN0aW9uX3JlZGlyZWN0IjogImh0dHA6Ly9leGFtcGxlYnVja2V0LnMzLmFtYXpvbmF3cy5jb20vc3VjY2Vzc2Z1bF91cGxvYWQuaHRtbCJ9LA0KICAgIFsic3RhcnRzLXdpdGgiLCAiJENvbnRlbnQtVHlwZSIsICJpbWFnZS8iXSwNCiAgICB7IngtYW16LW1ldGEtdXVpZCI6ICIxNDM2NTEyMzY1MTI3NCJ9LA0KICAgIFsic3RhcnRzLXdpdGgiLCAiJHgtYW16LW1ldGEtdGFnIiwgIiJdLA0KDQogICAgeyJ4LWFtei1jcmVkZW50aWFsIjogIkFLSUFJT1NGT0ROTjdFWEFNUExFLzIwMTMwODA2L3VzLWVhc3QtMS9zMy9hd3M0X3JlcXVlc3QifSwNCiAgICB7IngtYW16LWFsZ29yaXRobSI6ICJBV1M0LUhNQUMtU0hBMjU2In0sDQogICAgeyJ4LWFtei1kYXRlIjogIjIwMTMwODA2VDAwMDAwMFoiIH0NCiAgXQ0KfQ==';
    expect(signPolicyV4('wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', '20130806', 'us-east-1', policy)).toBe(
      '21496b44de44ccb73d545f1a995c68214c9cb0d41c45a17a5daeec0b1a6db047',
    );
  });

  it('UP-16: with PARLEY_S3_* set, tokens are S3 presigned POSTs whose form S3 accepts as signed', async () => {
    const token = service().issueToken({ app: OPEN_APP, filename: 'cat.png' });
    expect(token.vendor).toBe('S3');
    if (token.vendor !== 'S3') return;
    expect(token.host).toBe(`${S3.endpoint}/${S3.bucket}`);
    expect(token.key).toMatch(/^im\/[0-9a-f]{16}\/parley_[a-z0-9]{32}\.png$/);
    expect(uploadedFileUrl(token)).toBe(`https://cdn.fake-storage.test/media/${token.key}`);

    const bytes = new Uint8Array([1, 2, 3, 4, 5]);
    const res = await postWithToken(token, new Blob([bytes], { type: 'image/png' }), 'cat.png');
    expect(res.status).toBe(200);
    const got = received.at(-1) as Received;
    expect(got.names).toEqual([
      'key',
      'success_action_status',
      'x-amz-algorithm',
      'x-amz-credential',
      'x-amz-date',
      'policy',
      'x-amz-signature',
      'file',
    ]);
    expect(got.fields).toMatchObject({
      key: token.key,
      'x-amz-algorithm': 'AWS4-HMAC-SHA256',
      'x-amz-credential': `${S3.accessKey}/20300506/${S3.region}/s3/aws4_request`,
      'x-amz-date': '20300506T070809Z',
    });
    expect(got.fields['x-amz-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(got.fields['x-amz-signature']).toBe(
      signPolicyV4(S3.secretKey, '20300506', S3.region, got.fields['policy'] as string),
    );
    const policy = JSON.parse(Buffer.from(got.fields['policy'] as string, 'base64').toString('utf8')) as {
      expiration: string;
      conditions: unknown[];
    };
    expect(policy.expiration).toBe('2030-05-06T07:23:09.123Z');
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        { bucket: S3.bucket },
        ['eq', '$key', token.key],
        ['content-length-range', 1, 31_457_280],
        { 'x-amz-credential': got.fields['x-amz-credential'] },
        ['starts-with', '$Content-Disposition', ''],
      ]),
    );
    // Every posted field is named by the policy, as S3 requires.
    const named = JSON.stringify(policy.conditions);
    for (const name of got.names.filter((n) => !['policy', 'x-amz-signature', 'file'].includes(n))) {
      expect(named, name).toContain(name);
    }
    expect(new Uint8Array(await (got.file as File).arrayBuffer())).toEqual(bytes);
  });

  it('UP-16: a file message adds Content-Disposition, which the policy allows', async () => {
    const token: UploadToken = service().issueToken({ app: OPEN_APP, filename: 'notes.pdf' });
    const fields = uploadFormFields(token, 'notes.pdf');
    expect(fields.at(-1)).toEqual(['Content-Disposition', 'attachment;filename=notes.pdf']);
    expect((await postWithToken(token, new Blob(['%PDF']), 'notes.pdf', true)).status).toBe(200);
    expect(received.at(-1)?.fields['Content-Disposition']).toBe('attachment;filename=notes.pdf');
  });

  it('UP-16: PARLEY_S3_* settings are read and checked', () => {
    const config = loadConfig({
      PARLEY_S3_ENDPOINT: S3.endpoint,
      PARLEY_S3_BUCKET: S3.bucket,
      PARLEY_S3_ACCESS_KEY: S3.accessKey,
      PARLEY_S3_SECRET_KEY: S3.secretKey,
      PARLEY_PUBLIC_URL: 'https://chat.example.com/',
      PARLEY_UPLOAD_DIR: '/var/parley/files',
    });
    expect(config.uploads).toEqual({
      dir: '/var/parley/files',
      s3: { ...S3, region: 'us-east-1', publicUrl: undefined },
      ffmpeg: 'ffmpeg',
      renditions: { concurrency: 1, timeoutMs: 600_000 },
    });
    expect(config.publicUrl).toBe('https://chat.example.com');
    expect(() => loadConfig({ PARLEY_S3_ENDPOINT: S3.endpoint })).toThrow(
      /uploads\.s3\.bucket \(from PARLEY_S3_BUCKET\)/,
    );
    expect(loadConfig({}).uploads).toEqual({
      dir: undefined,
      s3: undefined,
      ffmpeg: 'ffmpeg',
      renditions: { concurrency: 1, timeoutMs: 600_000 },
    });
  });
});
