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

/**
 * Types by extension. The first is what the file is served with; the others are what clients also declare for such
 * a file, since browsers and systems name some types differently (`.wav` is `audio/wav` or `audio/x-wav`, a `.zip`
 * on Windows is `application/x-zip-compressed`, a `.mpeg` is typed as video although the spec lists it as audio),
 * and the reference's own type names (`audio/mp3`, `video/mov`), which the SDK's type check accepts.
 */
type Types = Record<string, readonly [string, ...string[]]>;

const INLINE_TYPES: Types = {
  gif: ['image/gif'],
  jpg: ['image/jpeg', 'image/jpg', 'image/pjpeg'],
  jpeg: ['image/jpeg', 'image/jpg', 'image/pjpeg'],
  png: ['image/png', 'image/x-png'],
  webp: ['image/webp'],
  bmp: ['image/bmp', 'image/x-ms-bmp'],
  mp3: ['audio/mpeg', 'audio/mp3', 'audio/mpeg3', 'audio/x-mpeg-3'],
  mpeg: ['audio/mpeg', 'video/mpeg'],
  ogg: ['audio/ogg', 'video/ogg', 'application/ogg'],
  wav: ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave'],
  aac: ['audio/aac', 'audio/x-aac'],
  acc: ['audio/aac', 'audio/x-aac', 'audio/acc'],
  m4a: ['audio/mp4', 'audio/x-m4a', 'audio/m4a'],
  mp4: ['video/mp4', 'audio/mp4'],
  mov: ['video/quicktime', 'video/mov'],
  webm: ['video/webm', 'audio/webm'],
  '3gp': ['video/3gpp', 'audio/3gpp', 'video/3gp'],
};

const DOWNLOAD_TYPES: Types = {
  pdf: ['application/pdf'],
  zip: ['application/zip', 'application/x-zip-compressed', 'application/x-zip'],
  txt: ['text/plain; charset=utf-8', 'text/plain'],
  wma: ['audio/x-ms-wma', 'audio/wma'],
  ape: ['audio/ape', 'audio/x-ape'],
  avi: ['video/x-msvideo', 'video/avi', 'video/msvideo'],
  flv: ['video/x-flv', 'video/flv'],
  rm: ['application/vnd.rn-realmedia', 'audio/x-pn-realaudio', 'video/rm'],
  rmvb: ['application/vnd.rn-realmedia-vbr', 'video/rmvb'],
};

/** What clients declare for a file whose type they do not know (a browser's FormData, Node's, the SDK's). */
export const GENERIC_TYPE = 'application/octet-stream';

/**
 * UP-15: how a stored file is served, from its extension and never from what the uploader claimed: images, audio
 * and video that browsers play inline; everything else (HTML and SVG included) as a download.
 */
export function servedType(key: string): { contentType: string; inline: boolean } {
  const ext = extensionOf(key);
  const inline = INLINE_TYPES[ext];
  if (inline) return { contentType: inline[0], inline: true };
  return { contentType: DOWNLOAD_TYPES[ext]?.[0] ?? GENERIC_TYPE, inline: false };
}

/**
 * UP-2: the content types an upload to `key` may declare: the type it will be served with, the other names of that
 * type, and {@link GENERIC_TYPE}. Undefined when the extension has no type of its own: such a file is served as a
 * `application/octet-stream` download, so what it declares changes nothing.
 */
export function declarableTypes(key: string): string[] | undefined {
  const ext = extensionOf(key);
  const types = INLINE_TYPES[ext] ?? DOWNLOAD_TYPES[ext];
  if (!types) return undefined;
  const essences = types.map((type) => type.split(';')[0]!.trim());
  return [...new Set([...essences, GENERIC_TYPE])];
}
