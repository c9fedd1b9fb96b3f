import { createHash, randomBytes } from 'node:crypto';
import { resolve, sep } from 'node:path';

/** The fixed prefix of stored file names (product spec §9: "random 32 characters with a fixed prefix"). */
export const STORED_NAME_PREFIX = 'parley_';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** 32 random characters from [a-z0-9], without modulo bias. */
export function randomName(): string {
  let out = '';
  while (out.length < 32) {
    for (const byte of randomBytes(48)) {
      // 252 = 7 * 36: bytes above it would favour the first letters.
      if (byte < 252 && out.length < 32) out += ALPHABET[byte % 36];
    }
  }
  return out;
}

/** The extension of a file name, lower case, kept only when it is 1 to 10 letters or digits. */
export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  if (dot < 0) return '';
  const ext = filename.slice(dot + 1).toLowerCase();
  return /^[a-z0-9]{1,10}$/.test(ext) ? ext : '';
}

/** A new stored file name: the prefix, 32 random characters and the original's extension. */
export function newStoredName(originalName: string): string {
  const ext = extensionOf(originalName);
  return `${STORED_NAME_PREFIX}${randomName()}${ext ? `.${ext}` : ''}`;
}

/** A short stable tag per app, so that apps' files live apart without putting their keys in URLs. */
export function appTag(appkey: string): string {
  return createHash('sha256').update(appkey, 'utf8').digest('hex').slice(0, 16);
}

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/;

/**
 * UP-13: whether a key is safe to use as a relative path: segments of letters, digits, `_`, `-` and `.` that do not
 * start with a dot (so no `..`, no hidden files, no temp dir), joined by `/`, no leading slash, no backslash.
 */
export function isSafeKey(key: string): boolean {
  if (key.length === 0 || key.length > 512) return false;
  return key.split('/').every((segment) => SEGMENT.test(segment));
}

/** The absolute path of `key` under `root`, or undefined if it would leave `root`. */
export function pathOfKey(root: string, key: string): string | undefined {
  if (!isSafeKey(key)) return undefined;
  const base = resolve(root);
  const full = resolve(base, key);
  return full.startsWith(base + sep) ? full : undefined;
}

const INLINE_TYPES: Record<string, string> = {
  gif: 'image/gif',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  bmp: 'image/bmp',
  mp3: 'audio/mpeg',
  mpeg: 'audio/mpeg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  aac: 'audio/aac',
  acc: 'audio/aac',
  m4a: 'audio/mp4',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  '3gp': 'video/3gpp',
};

const DOWNLOAD_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  zip: 'application/zip',
  txt: 'text/plain; charset=utf-8',
  wma: 'audio/x-ms-wma',
  ape: 'audio/ape',
  avi: 'video/x-msvideo',
  flv: 'video/x-flv',
  rm: 'application/vnd.rn-realmedia',
  rmvb: 'application/vnd.rn-realmedia-vbr',
};

/**
 * UP-15: how a stored file is served, from its extension and never from what the uploader claimed: images, audio
 * and video that browsers play inline; everything else (HTML and SVG included) as a download.
 */
export function servedType(key: string): { contentType: string; inline: boolean } {
  const ext = extensionOf(key);
  const inline = INLINE_TYPES[ext];
  if (inline) return { contentType: inline, inline: true };
  return { contentType: DOWNLOAD_TYPES[ext] ?? 'application/octet-stream', inline: false };
}
