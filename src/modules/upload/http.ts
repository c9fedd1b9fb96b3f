/**
 * The HTTP seam of uploads: one multipart POST to a storage host, with upload progress and abort. Browsers use
 * XMLHttpRequest, the only API that reports upload progress; elsewhere (Node, workers without XHR) `fetch` posts
 * a `FormData`, and progress is coarse: 0 when the POST starts, 100 when it succeeded.
 */

/** One multipart POST. */
export interface UploadHttpRequest {
  /** The storage host, posted to exactly (no path is added). */
  url: string;
  /** Form fields in order; the file comes last, under the field name `file`. */
  fields: ReadonlyArray<readonly [string, string]>;
  /** The file. */
  file: Blob;
  /** The file name sent in the file part. */
  fileName: string;
  /** Aborts the POST. */
  signal?: AbortSignal;
  /** Called with the share of the body sent so far, 0 to 100. */
  onProgress?: (percent: number) => void;
}

/** The storage host's answer; the body is read only to report a failure. */
export interface UploadHttpResponse {
  status: number;
  body: string;
}

/**
 * Posts a multipart form. Resolves with any HTTP answer (the caller decides what counts as success); rejects only
 * when no answer came (network error, abort).
 */
export type UploadHttp = (request: UploadHttpRequest) => Promise<UploadHttpResponse>;

function formOf(request: UploadHttpRequest): FormData {
  const form = new FormData();
  for (const [name, value] of request.fields) form.append(name, value);
  form.append('file', request.file, request.fileName);
  return form;
}

function abortError(): Error {
  const error = new Error('aborted');
  error.name = 'AbortError';
  return error;
}

/** Posts with XMLHttpRequest, reporting real upload progress. */
export const xhrUploadHttp: UploadHttp = (request) =>
  new Promise((resolve, reject) => {
    if (request.signal?.aborted) return reject(abortError());
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    xhr.open('POST', request.url);
    xhr.upload.onprogress = (event) => {
      // 100 is kept for the answer: the bytes being sent does not mean the storage accepted them.
      if (event.lengthComputable && event.total > 0) {
        request.onProgress?.(Math.min(99, Math.floor((event.loaded / event.total) * 100)));
      }
    };
    xhr.onload = () => {
      request.signal?.removeEventListener('abort', onAbort);
      resolve({ status: xhr.status, body: typeof xhr.responseText === 'string' ? xhr.responseText : '' });
    };
    xhr.onerror = () => {
      request.signal?.removeEventListener('abort', onAbort);
      reject(new Error('network error'));
    };
    xhr.onabort = () => {
      request.signal?.removeEventListener('abort', onAbort);
      reject(abortError());
    };
    request.signal?.addEventListener('abort', onAbort, { once: true });
    request.onProgress?.(0);
    xhr.send(formOf(request));
  });

/** Posts with `fetch`; progress is 0 at the start only, since fetch cannot report the body's progress. */
export const fetchUploadHttp: UploadHttp = async (request) => {
  request.onProgress?.(0);
  const init: RequestInit = { method: 'POST', body: formOf(request) };
  if (request.signal) init.signal = request.signal;
  const response = await fetch(request.url, init);
  return { status: response.status, body: await response.text().catch(() => '') };
};

/** XMLHttpRequest where the platform has it, else fetch. */
export const defaultUploadHttp: UploadHttp = (request) =>
  typeof XMLHttpRequest === 'function' ? xhrUploadHttp(request) : fetchUploadHttp(request);
