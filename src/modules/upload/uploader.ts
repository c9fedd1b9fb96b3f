import {
  CLIENT_EVENTS,
  CODES,
  MESSAGES,
  storedFileName,
  uploadFormFields,
  uploadTokenAckSchema,
  uploadedFileUrl,
  type UploadToken,
} from '../../protocol/index.js';
import { ParleyError } from '../../core/errors.js';
import type { RequestManager } from '../../core/requests.js';
import type { UploadHttp } from './http.js';

/** What to upload. */
export interface UploadOptions {
  /** The file's bytes. */
  file: Blob;
  /** The name to ask a token for and to send in the file part. */
  fileName: string;
  /** Ask the storage to serve it as a download (`Content-Disposition: attachment`), as file messages do. */
  attachment?: boolean;
  /** Aborts the upload; the promise then rejects with 500 `Upload aborted.` */
  signal?: AbortSignal;
  /** Progress of the POST, 0 to 100; 100 is reported once the storage accepted the file. */
  onProgress?: (percent: number) => void;
}

/** An uploaded file. */
export interface UploadResult {
  /** Where the file can be read. */
  url: string;
  /** The name the storage gave it. */
  storedName: string;
  /** The token it was posted with (its vendor decides the thumbnail URLs). */
  token: UploadToken;
}

/** Whether an HTTP status is a successful upload, as the reference's XHR check has it. */
function accepted(status: number): boolean {
  return (status >= 200 && status < 300) || status === 304;
}

/** The readable part of a storage's error body: our `{code, content}` JSON, else the start of the text. */
function reason(body: string): string {
  try {
    const parsed = JSON.parse(body) as { content?: unknown };
    if (typeof parsed?.content === 'string') return parsed.content;
  } catch {
    // not JSON: OSS and S3 answer XML; show its start.
  }
  return body.trim().slice(0, 200);
}

function failure(detail: string): ParleyError {
  return new ParleyError(CODES.SERVER_ERROR, `${MESSAGES.uploadFailed}: ${detail}`);
}

/**
 * Uploads files straight to storage: `uploadToken` asks the server where and how (the server signs a POST policy),
 * then one multipart POST sends the file there. Every failure rejects with a 500 {@link ParleyError}.
 */
export class Uploader {
  readonly #requests: RequestManager;
  readonly #http: UploadHttp;

  /** @internal Made by the IM module. */
  constructor(requests: RequestManager, http: UploadHttp) {
    this.#requests = requests;
    this.#http = http;
  }

  /** `uploadToken {filename}`: asks the server for a signed POST for one file. */
  async token(filename: string): Promise<UploadToken> {
    const ack = await this.#requests.send({
      event: CLIENT_EVENTS.uploadToken,
      params: { filename },
      kind: 'request',
      permission: 'write',
    });
    const parsed = uploadTokenAckSchema.safeParse(ack.content);
    if (!parsed.success) throw new ParleyError(CODES.SERVER_ERROR, MESSAGES.uploadTokenInvalid);
    return parsed.data;
  }

  /** Uploads one file and resolves with its URL. */
  async upload(options: UploadOptions): Promise<UploadResult> {
    const { signal } = options;
    if (signal?.aborted) throw new ParleyError(CODES.SERVER_ERROR, MESSAGES.uploadAborted);
    let token: UploadToken;
    try {
      token = await this.token(options.fileName);
    } catch (error) {
      throw failure(ParleyError.from(error).content);
    }
    if (signal?.aborted) throw new ParleyError(CODES.SERVER_ERROR, MESSAGES.uploadAborted);
    let last = -1;
    // Progress only moves forward, so that a UI bar never jumps back.
    const progress = (percent: number) => {
      const p = Math.max(0, Math.min(100, Math.floor(percent)));
      if (p <= last) return;
      last = p;
      options.onProgress?.(p);
    };
    let status: number;
    let body: string;
    try {
      ({ status, body } = await this.#http({
        url: token.host,
        fields: uploadFormFields(token, options.attachment ? options.fileName : undefined),
        file: options.file,
        fileName: options.fileName,
        ...(signal ? { signal } : {}),
        onProgress: (p) => progress(Math.min(p, 99)),
      }));
    } catch (error) {
      if (signal?.aborted || (error instanceof Error && error.name === 'AbortError')) {
        throw new ParleyError(CODES.SERVER_ERROR, MESSAGES.uploadAborted);
      }
      throw failure(error instanceof Error ? error.message : String(error));
    }
    if (!accepted(status)) throw failure(`HTTP ${status} ${reason(body)}`.trim());
    progress(100);
    return { url: uploadedFileUrl(token), storedName: storedFileName(token), token };
  }
}
