import * as z from 'zod/mini';
import { MESSAGES } from './codes.js';

/**
 * Uploads on the wire (reference §2 `uploadToken`, wire notes §8). The client asks for a token naming its file,
 * then posts the file as `multipart/form-data` straight to the storage host the token names, with the token's
 * fields in a fixed order, the file last. `ALI` (the Aliyun OSS form) is what a Parley server's own storage
 * answers, because the reference client can post to it; `TX` (Tencent COS) is read for completeness; `S3` (an AWS
 * SigV4 presigned POST) is Parley's own, for S3-compatible object storage, and only Parley's SDK knows it.
 */

/** Longest file name `uploadToken` accepts, in characters. */
export const UPLOAD_FILENAME_MAX_LENGTH = 255;

/** `uploadToken {filename}`: the name of the file about to be uploaded; the server keeps only its extension. */
export const uploadTokenSchema = z.looseObject({
  filename: z
    .string({ error: MESSAGES.filenameEmpty })
    .check(
      z.trim(),
      z.minLength(1, MESSAGES.filenameEmpty),
      z.maxLength(UPLOAD_FILENAME_MAX_LENGTH, MESSAGES.filenameTooLong),
    ),
});

const text = z.string();

/** The `ALI` token: post to `host`; the file is then at `host/dir/newFilename`. */
export const aliUploadTokenSchema = z.looseObject({
  vendor: z.literal('ALI'),
  host: text,
  dir: text,
  newFilename: text,
  accessKeyId: text,
  policy: text,
  signature: text,
});
/** The `TX` token: post to `host`; the file is then at `host/key`. */
export const txUploadTokenSchema = z.looseObject({
  vendor: z.literal('TX'),
  host: text,
  key: text,
  qSignAlgorithm: text,
  qAk: text,
  qKeyTime: text,
  qSignature: text,
  policy: text,
  xCosSecurityToken: z.optional(z.nullable(text)),
});
/** Parley's `S3` token: post `fields` (in order, `key` among them) to `host`; the file is then at `url`. */
export const s3UploadTokenSchema = z.looseObject({
  vendor: z.literal('S3'),
  host: text,
  key: text,
  url: text,
  fields: z.record(z.string(), z.string()),
});
/** What an `uploadToken` ack carries in `content`; the client checks it with this schema. */
export const uploadTokenAckSchema = z.discriminatedUnion('vendor', [
  aliUploadTokenSchema,
  txUploadTokenSchema,
  s3UploadTokenSchema,
]);

/** An `ALI` token. */
export type AliUploadToken = z.infer<typeof aliUploadTokenSchema>;
/** A `TX` token. */
export type TxUploadToken = z.infer<typeof txUploadTokenSchema>;
/** An `S3` token. */
export type S3UploadToken = z.infer<typeof s3UploadTokenSchema>;
/** Any upload token. */
export type UploadToken = z.infer<typeof uploadTokenAckSchema>;

/** Where the file will be readable once posted, built exactly as the reference builds it. */
export function uploadedFileUrl(token: UploadToken): string {
  switch (token.vendor) {
    case 'ALI':
      return `${token.host}/${token.dir}/${token.newFilename}`;
    case 'TX':
      return `${token.host}/${token.key}`;
    case 'S3':
      return token.url;
  }
}

/** The name the storage gives the file (the reference's `newFileName`: ALI `newFilename`, else the key). */
export function storedFileName(token: UploadToken): string {
  return token.vendor === 'ALI' ? token.newFilename : token.key;
}

/**
 * The form fields to post before the file, in the reference client's order (wire notes §8.2). `attachmentName`,
 * given for file messages only, adds `Content-Disposition: attachment;filename=<name>` as the reference does.
 */
export function uploadFormFields(token: UploadToken, attachmentName?: string): Array<[string, string]> {
  const disposition: Array<[string, string]> =
    attachmentName === undefined ? [] : [['Content-Disposition', `attachment;filename=${attachmentName}`]];
  switch (token.vendor) {
    case 'ALI':
      return [
        ['key', `${token.dir}/${token.newFilename}`],
        ['OSSAccessKeyId', token.accessKeyId],
        ['policy', token.policy],
        ['signature', token.signature],
        ['success_action_status', '200'],
        ...disposition,
      ];
    case 'TX':
      return [
        ['q-sign-algorithm', token.qSignAlgorithm],
        ['q-ak', token.qAk],
        ['q-key-time', token.qKeyTime],
        ['q-signature', token.qSignature],
        ['policy', token.policy],
        ['x-cos-security-token', String(token.xCosSecurityToken ?? '')],
        ['success_action_status', '200'],
        ['key', token.key],
        ...disposition,
      ];
    case 'S3':
      return [...Object.entries(token.fields), ...disposition];
  }
}

/** The query the reference adds to an image's URL for its thumbnail, by vendor; S3 has no image service. */
export function imageThumbnailQuery(vendor: UploadToken['vendor'], height: number): string {
  const h = Math.min(Math.max(1, Math.round(height)), 200);
  if (vendor === 'ALI') return `?x-oss-process=image/resize,m_lfit,h_${h}`;
  if (vendor === 'TX') return `?imageMogr2/thumbnail/x${h}`;
  return '';
}

/** The query the reference adds to a video's URL for a snapshot thumbnail, by vendor; S3 has none. */
export function videoSnapshotQuery(vendor: UploadToken['vendor'], height: number): string {
  const h = Math.max(1, Math.round(height));
  if (vendor === 'ALI') return `?x-oss-process=video/snapshot,t_0000,f_jpg,h_${h},m_fast,ar_auto`;
  if (vendor === 'TX') return `?ci-process=snapshot&time=1&format=jpg&height=${h}`;
  return '';
}

/** Media kinds whose type is checked, with the type names the reference accepts (MIME subtypes or extensions). */
export const MEDIA_TYPES = {
  image: ['gif', 'jpg', 'png', 'jpeg'],
  audio: ['mp3', 'ogg', 'wav', 'wma', 'ape', 'acc', 'mpeg'],
  video: ['avi', 'mov', 'rmvb', 'rm', 'flv', 'mp4', '3gp', 'quicktime'],
} as const;
/** A media kind with a type check. */
export type MediaKind = keyof typeof MEDIA_TYPES;

/** The reference's message for a file of the wrong media type: `Only gif,jpg,png,jpeg is supported image.` */
export function unsupportedMediaType(kind: MediaKind): string {
  return MESSAGES.unsupportedMediaType.replace('{list}', MEDIA_TYPES[kind].join(',')).replace('{kind}', kind);
}
