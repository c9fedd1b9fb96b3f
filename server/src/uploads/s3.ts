import { createHmac } from 'node:crypto';
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
