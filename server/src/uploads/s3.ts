import { createHash, createHmac } from 'node:crypto';
import type { S3UploadToken } from '../protocol.js';
import { trimUrl, type S3Config } from './config.js';
import { encodePolicy, type PolicyDocument } from './policy.js';

/**
 * UP-16: an AWS Signature Version 4 presigned POST, signed here with node:crypto (the AWS SDK would add megabytes
 * for one HMAC chain). See "Authenticating Requests in Browser-Based Uploads Using POST (AWS Signature Version 4)".
 */

function hmac(key: Buffer | string, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

/** The SigV4 signing key for a day, region and service `s3`. */
export function signingKey(secretKey: string, date: string, region: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secretKey}`, date), region), 's3'), 'aws4_request');
}

/** The SigV4 signature of an encoded POST policy: hex HMAC-SHA256 with the day's signing key. */
export function signPolicyV4(secretKey: string, day: string, region: string, policy: string): string {
  return hmac(signingKey(secretKey, day, region), policy).toString('hex');
}

/** `YYYYMMDDTHHMMSSZ`, the SigV4 time format. */
export function amzDate(now: number): string {
  return new Date(now)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** A presigned POST form: where to post, and the fields to post before the file. */
export interface S3PostForm {
  /** `<endpoint>/<bucket>`. */
  host: string;
  /** Where stored objects are read: `PARLEY_S3_PUBLIC_URL`, else the host. No trailing slash. */
  publicBase: string;
  fields: Record<string, string>;
}

/**
 * A presigned POST of 1 byte to `maxBytes`, valid for `ttlMs`, for the object `key` (its field is included) or for
 * any key starting with `keyPrefix` (the client adds its own `key` field).
 */
export function presignS3Form(params: {
  config: S3Config;
  target: { key: string } | { keyPrefix: string };
  now: number;
  ttlMs: number;
  maxBytes: number;
}): S3PostForm {
  const { config, target, now } = params;
  const date = amzDate(now);
  const day = date.slice(0, 8);
  const credential = `${config.accessKey}/${day}/${config.region}/s3/aws4_request`;
  const fields: Record<string, string> = {
    ...('key' in target ? { key: target.key } : {}),
    success_action_status: '200',
    'x-amz-algorithm': 'AWS4-HMAC-SHA256',
    'x-amz-credential': credential,
    'x-amz-date': date,
  };
  const doc: PolicyDocument = {
    expiration: new Date(now + params.ttlMs).toISOString(),
    conditions: [
      { bucket: config.bucket },
      'key' in target ? ['eq', '$key', target.key] : ['starts-with', '$key', target.keyPrefix],
      ['content-length-range', 1, params.maxBytes],
      { success_action_status: '200' },
      { 'x-amz-algorithm': 'AWS4-HMAC-SHA256' },
      { 'x-amz-credential': credential },
      { 'x-amz-date': date },
      // File messages add `Content-Disposition` (wire notes §8.2); S3 refuses fields the policy does not name.
      ['starts-with', '$Content-Disposition', ''],
    ],
  };
  const policy = encodePolicy(doc);
  const signature = signPolicyV4(config.secretKey, day, config.region, policy);
  const host = `${trimUrl(config.endpoint)}/${config.bucket}`;
  return {
    host,
    publicBase: config.publicUrl ? trimUrl(config.publicUrl) : host,
    fields: { ...fields, policy, 'x-amz-signature': signature },
  };
}

/** The presigned POST for one object `key`, of 1 byte to `maxBytes`, valid for `ttlMs`. */
export function presignS3Post(params: {
  config: S3Config;
  key: string;
  now: number;
  ttlMs: number;
  maxBytes: number;
}): S3UploadToken {
  const { key, ...rest } = params;
  const form = presignS3Form({ ...rest, target: { key } });
  return { vendor: 'S3', host: form.host, key, url: `${form.publicBase}/${key}`, fields: form.fields };
}

/** The SHA-256 of an empty body, hex: the payload hash of a request without one. */
export const EMPTY_PAYLOAD_SHA256 = createHash('sha256').update('').digest('hex');

/** A path segment encoded as SigV4 wants it: everything but `A-Za-z0-9-._~` as `%XX`, upper case. */
function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `path` (not encoded, starting with `/`) encoded once per segment, as S3 signs and reads it. */
export function encodeS3Path(path: string): string {
  return path.split('/').map(encodeSegment).join('/');
}

/**
 * The headers that sign a request with AWS Signature Version 4 (header authorization, service `s3`): `headers` with
 * `host`, `x-amz-content-sha256`, `x-amz-date` and `authorization` added. `path` is not encoded yet; requests with a
 * query are not needed here.
 */
export function signS3Request(params: {
  method: string;
  host: string;
  path: string;
  headers?: Record<string, string>;
  payloadHash?: string;
  config: Pick<S3Config, 'accessKey' | 'secretKey' | 'region'>;
  now: number;
}): Record<string, string> {
  const { config } = params;
  const date = amzDate(params.now);
  const day = date.slice(0, 8);
  const payloadHash = params.payloadHash ?? EMPTY_PAYLOAD_SHA256;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(params.headers ?? {})) headers[name.toLowerCase()] = value;
  Object.assign(headers, { host: params.host, 'x-amz-content-sha256': payloadHash, 'x-amz-date': date });
  const names = Object.keys(headers).sort();
  const canonicalHeaders = names
    .map((name) => `${name}:${(headers[name] ?? '').trim().replace(/\s+/g, ' ')}\n`)
    .join('');
  const signedHeaders = names.join(';');
  const canonical = [params.method, encodeS3Path(params.path), '', canonicalHeaders, signedHeaders, payloadHash].join(
    '\n',
  );
  const scope = `${day}/${config.region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', date, scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
  const signature = hmac(signingKey(config.secretKey, day, config.region), toSign).toString('hex');
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${config.accessKey}/${scope},SignedHeaders=${signedHeaders},Signature=${signature}`,
  };
}

/** One signed request for object `key` of the bucket, path-style (`<endpoint>/<bucket>/<key>`); its response. */
export function s3ObjectRequest(params: {
  config: S3Config;
  method: 'GET' | 'HEAD' | 'PUT' | 'DELETE';
  key: string;
  now: number;
  /** What a PUT stores, signed by its SHA-256. */
  body?: Uint8Array<ArrayBuffer>;
  contentType?: string;
  timeoutMs?: number;
}): Promise<Response> {
  const { config, method, key, body, now } = params;
  const endpoint = new URL(trimUrl(config.endpoint));
  const path = `${endpoint.pathname === '/' ? '' : endpoint.pathname}/${config.bucket}/${key}`;
  const headers = signS3Request({
    method,
    host: endpoint.host,
    path,
    ...(params.contentType !== undefined && { headers: { 'content-type': params.contentType } }),
    payloadHash: body ? createHash('sha256').update(body).digest('hex') : EMPTY_PAYLOAD_SHA256,
    config,
    now,
  });
  const { host: _host, ...sent } = headers;
  return fetch(`${endpoint.origin}${encodeS3Path(path)}`, {
    method,
    headers: sent,
    ...(body && { body }),
    signal: AbortSignal.timeout(params.timeoutMs ?? S3_REQUEST_TIMEOUT_MS),
  });
}

/**
 * Deletes object `key` from the bucket (path-style, `<endpoint>/<bucket>/<key>`). An object already gone is no
 * error (S3 answers 204 either way); any other answer throws.
 */
export async function deleteS3Object(params: { config: S3Config; key: string; now: number }): Promise<void> {
  const response = await s3ObjectRequest({ ...params, method: 'DELETE' });
  await response.body?.cancel();
  if (!response.ok && response.status !== 404) throw new Error(`S3 DELETE ${params.key} answered ${response.status}`);
}

/** How long a request to S3 may take. */
const S3_REQUEST_TIMEOUT_MS = 30_000;
