import { xhrUploadHttp } from 'parley-im';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { useAppConfig } from './config';
import { ApiError, apiPost, type CallContext } from './request';

/** Uploads give up after 60 s (spec §9: 60 s for uploads). */
export const UPLOAD_TIMEOUT_MS = 60_000;

/** Largest file the storage takes (spec §9: 30 MiB). */
export const UPLOAD_MAX_BYTES = 31_457_280;

/** Length of the random part of a key (spec §9: "random 32 characters with a fixed prefix"). */
export const KEY_RANDOM_LENGTH = 32;

/**
 * What the storage takes (the spec's image and video types, §5), by extension, with the type posted when the
 * browser does not know the file's: the storage takes only `image/*` and `video/*` parts.
 */
export const UPLOAD_TYPES: Readonly<Record<string, string>> = {
  gif: 'image/gif',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  avi: 'video/x-msvideo',
  mov: 'video/quicktime',
  rmvb: 'video/vnd.rn-realvideo',
  rm: 'video/vnd.rn-realvideo',
  flv: 'video/x-flv',
  mp4: 'video/mp4',
  '3gp': 'video/3gpp',
};

/** Extensions of the types the browser names but the file name may lack. */
const EXTENSION_OF_TYPE: Readonly<Record<string, string>> = {
  'image/gif': 'gif',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/3gpp': '3gp',
};

/** What `member/qiniu_token` answers (the server's docs/product-app.md). */
export interface UploadTokenAnswer {
  /** The upload token. */
  ret: string;
  upload_url: string;
  /** Fields to post before `key` and `file` (`{token}` for the server's own storage). */
  fields: Record<string, string>;
  /** A key is this prefix followed by 32 random characters and the extension. */
  key_prefix: string;
  /** A stored file is read at this prefix followed by its key. */
  url_prefix: string;
  expires_at: number;
}

/** Options of {@link uploadFile}. */
export interface UploadOptions {
  /** Who uploads: the signed-in member's token, and the locale. */
  context: CallContext;
  /** Where files are posted: `config.aliyun.upload_url`. */
  uploadUrl: string;
  /** Called with whole numbers from 0 to 100 that only grow; 100 once the storage has the file. */
  onProgress?: (percent: number) => void;
  /** Aborts the upload; it then rejects with code `upload_aborted`. */
  signal?: AbortSignal;
  /** @default {@link UPLOAD_TIMEOUT_MS} */
  timeoutMs?: number;
}

/** 32 random characters from [a-z0-9], without modulo bias. */
export function randomKeyPart(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let out = '';
  while (out.length < KEY_RANDOM_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(48))) {
      // 252 = 7 * 36: bytes above it would favour the first letters.
      if (byte < 252 && out.length < KEY_RANDOM_LENGTH) out += alphabet[byte % 36];
    }
  }
  return out;
}

/** The extension the file is stored under: its name's, else its type's; undefined when the storage refuses both. */
export function uploadExtension(file: File): string | undefined {
  const dot = file.name.lastIndexOf('.');
  const named = dot >= 0 ? file.name.slice(dot + 1).toLowerCase() : '';
  if (UPLOAD_TYPES[named]) return named;
  return EXTENSION_OF_TYPE[file.type.toLowerCase()];
}

const failure = (code: string, message: string) => new ApiError(code, message);

/** The storage's `{code, content}` refusal text, or the HTTP status. */
function refusalText(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { content?: unknown };
    if (typeof parsed.content === 'string') return parsed.content;
  } catch {
    // not JSON: the status says enough
  }
  return `HTTP ${status}`;
}

/**
 * Uploads a file the product app's way (spec §7 `member/qiniu_token`): asks for a token, makes the key (the
 * token's prefix, 32 random characters, the extension), posts the token's fields, `key` and `file` to the upload URL
 * with progress, abort and a 60 s timeout, and resolves with the file's URL. Rejects with an {@link ApiError}:
 * `upload_wrong_type`, `upload_too_large`, `upload_failed` (the storage refused; its reason is the message),
 * `upload_timeout`, `upload_aborted`, `network`, or the token call's refusal (e.g. `token_invalid`).
 */
export async function uploadFile(file: File, options: UploadOptions): Promise<string> {
  const { signal, onProgress } = options;
  const extension = uploadExtension(file);
  if (!extension) throw failure('upload_wrong_type', 'only images and videos can be uploaded');
  if (file.size === 0) throw failure('upload_failed', 'File size is 0.');
  if (file.size > UPLOAD_MAX_BYTES) throw failure('upload_too_large', 'message-length limit 30mib');
  if (signal?.aborted) throw failure('upload_aborted', 'Upload aborted.');

  const token = await apiPost<UploadTokenAnswer>('member/qiniu_token', {}, options.context);
  if (signal?.aborted) throw failure('upload_aborted', 'Upload aborted.');
  const key = `${token.key_prefix}${randomKeyPart()}.${extension}`;
  const type = /^(image|video)\//.test(file.type) ? file.type : (UPLOAD_TYPES[extension] ?? '');
  const body = file.type === type ? file : new File([file], file.name, { type });

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? UPLOAD_TIMEOUT_MS);
  const forward = () => controller.abort();
  signal?.addEventListener('abort', forward, { once: true });
  let last = -1;
  const report = (percent: number) => {
    if (percent > last) {
      last = percent;
      onProgress?.(percent);
    }
  };
  try {
    const answer = await xhrUploadHttp({
      url: options.uploadUrl,
      fields: [...Object.entries(token.fields), ['key', key]],
      file: body,
      fileName: file.name,
      signal: controller.signal,
      onProgress: report,
    }).catch((error: unknown) => {
      if (timedOut) throw failure('upload_timeout', 'upload timed out');
      if (signal?.aborted) throw failure('upload_aborted', 'Upload aborted.');
      throw failure('network', error instanceof Error ? error.message : 'network error');
    });
    if (answer.status < 200 || answer.status >= 300) {
      throw failure('upload_failed', refusalText(answer.status, answer.body));
    }
    report(100);
    // The server's own storage answers `{key, url}`; S3 answers nothing, and the URL is the prefix and the key.
    try {
      const parsed = JSON.parse(answer.body) as { url?: unknown };
      if (typeof parsed.url === 'string') return parsed.url;
    } catch {
      // no body
    }
    return `${token.url_prefix}${key}`;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forward);
  }
}

/** {@link uploadFile} bound to the signed-in member and the app config's upload URL. */
export function useUploadFile(): (
  file: File,
  options?: Pick<UploadOptions, 'onProgress' | 'signal'>,
) => Promise<string> {
  const { user } = useSession();
  const { i18n } = useTranslation();
  const { data: config, refetch } = useAppConfig();
  const token = user?.token;
  const locale = i18n.language;
  return useCallback(
    async (file, options = {}) => {
      const uploadUrl = config?.aliyun.upload_url || (await refetch()).data?.aliyun.upload_url;
      if (!uploadUrl) throw failure('upload_failed', 'no upload URL in the app config');
      return uploadFile(file, { ...options, uploadUrl, context: { token, locale } });
    },
    [config, refetch, token, locale],
  );
}
