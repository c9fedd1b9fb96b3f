/**
 * The browser globals the reference client's upload path reads, for Node, and nothing more. Reading its bundle:
 * `createImageMessage` checks `file instanceof File` (Node has `File`), takes `window.URL.createObjectURL(file)`
 * (Node's `URL` has it) and measures the image with `new Image()` (`onload`, then `width`/`height`); `sendMessage`
 * posts a `FormData` (Node has it) with `XMLHttpRequest`: `open('post', host, true)`, `upload.onloadstart`,
 * `upload.onprogress`, `upload.onloadend`, `send(form)`, then `readyState`, `status` and `responseText` in
 * `onreadystatechange`.
 */
import { request as httpRequest, type ClientRequest } from 'node:http';
import { resolveObjectURL } from 'node:buffer';

/** A progress event as XMLHttpRequest hands it to its upload listeners. */
export interface UploadProgressEvent {
  type: 'loadstart' | 'progress' | 'loadend';
  lengthComputable: boolean;
  loaded: number;
  total: number;
}

type ProgressListener = ((event: UploadProgressEvent) => void) | null;

/** Bytes written per chunk, so that progress is reported as the body goes out. */
const CHUNK_BYTES = 16 * 1024;

/**
 * XMLHttpRequest over node:http, for `http:` URLs: a `FormData` body is encoded as the browser would
 * (`multipart/form-data` with a boundary), written in chunks, and each chunk the socket took is one upload
 * `progress` event.
 */
export class NodeXMLHttpRequest {
  readyState = 0;
  status = 0;
  responseText = '';
  onreadystatechange: (() => void) | null = null;
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  readonly upload: { onloadstart: ProgressListener; onprogress: ProgressListener; onloadend: ProgressListener } = {
    onloadstart: null,
    onprogress: null,
    onloadend: null,
  };
  #method = 'GET';
  #url = '';
  readonly #headers: Record<string, string> = {};
  #request: ClientRequest | undefined;
  #aborted = false;

  open(method: string, url: string): void {
    this.#method = method.toUpperCase();
    this.#url = url;
    this.#state(1);
  }

  setRequestHeader(name: string, value: string): void {
    this.#headers[name.toLowerCase()] = value;
  }

  send(body?: FormData | string | null): void {
    void this.#send(body ?? null).catch(() => this.#fail());
  }

  abort(): void {
    this.#aborted = true;
    this.#request?.destroy();
    this.#state(4);
    this.onabort?.();
  }

  async #send(body: FormData | string | null): Promise<void> {
    // Request encodes a FormData exactly as fetch would send it, boundary included.
    const encoded = body === null ? undefined : new Request(this.#url, { method: 'POST', body });
    const bytes = encoded ? new Uint8Array(await encoded.arrayBuffer()) : new Uint8Array(0);
    const contentType = encoded?.headers.get('content-type');
    if (this.#aborted) return;
    const headers: Record<string, string> = { ...this.#headers, 'content-length': String(bytes.length) };
    if (contentType && !headers['content-type']) headers['content-type'] = contentType;
    const req = httpRequest(this.#url, { method: this.#method, headers });
    this.#request = req;
    req.on('error', () => this.#fail());
    req.on('response', (res) => {
      this.status = res.statusCode ?? 0;
      this.#state(2);
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        if (this.#aborted) return;
        this.responseText = Buffer.concat(chunks).toString('utf8');
        this.#state(4);
        this.onload?.();
      });
    });
    const total = bytes.length;
    const progress = (type: UploadProgressEvent['type'], loaded: number) =>
      this.upload[`on${type}`]?.({ type, lengthComputable: true, loaded, total });
    progress('loadstart', 0);
    for (let sent = 0; sent < total && !this.#aborted;) {
      const end = Math.min(total, sent + CHUNK_BYTES);
      await new Promise<void>((resolve, reject) =>
        req.write(bytes.subarray(sent, end), (error) => (error ? reject(error) : resolve())),
      );
      sent = end;
      if (!this.#aborted) progress('progress', sent);
    }
    if (this.#aborted) return;
    progress('loadend', total);
    req.end();
  }

  #fail(): void {
    if (this.#aborted || this.readyState === 4) return;
    this.status = 0;
    this.#state(4);
    this.onerror?.();
  }

  #state(state: number): void {
    this.readyState = state;
    this.onreadystatechange?.();
  }
}

/** The PNG signature, then the IHDR chunk's length and type: width and height follow as 32-bit big-endian. */
const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52];

/**
 * An `Image` that reads a PNG's size from its header: setting `src` to an object URL loads the Blob behind it and
 * fires `onload` with `width`/`height` set, or `onerror` for anything that is not a PNG.
 */
export class PngHeaderImage {
  width = 0;
  height = 0;
  onload: (() => void) | null = null;
  onerror: ((error: unknown) => void) | null = null;
  #src = '';

  get src(): string {
    return this.#src;
  }

  set src(url: string) {
    this.#src = url;
    void this.#load(url);
  }

  async #load(url: string): Promise<void> {
    const blob = resolveObjectURL(url);
    const head = blob ? new Uint8Array(await blob.slice(0, 24).arrayBuffer()) : new Uint8Array(0);
    if (head.length < 24 || PNG_HEAD.some((byte, i) => head[i] !== byte)) {
      this.onerror?.(new Error(`not a PNG: ${url}`));
      return;
    }
    const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
    this.width = view.getUint32(16);
    this.height = view.getUint32(20);
    this.onload?.();
  }
}
