/** Fixtures for upload tests: a server with its own storage in a temp dir, tokens over the socket, form posts. */
import { connect as netConnect } from 'node:net';
import type { ServerConfig } from '../src/config.js';
import { uploadFormFields, type AliUploadToken, type UploadToken } from '../src/protocol.js';
import { authorizeParams, connect, request, startServer, tempDir, type StartedServer } from './helpers.js';

/** A started server whose own storage lives in a fresh temp dir. */
export async function uploadServer(
  overrides: Partial<ServerConfig> = {},
  options: { now?: () => number } = {},
): Promise<StartedServer & { dir: string }> {
  const dir = tempDir();
  const started = await startServer({ uploads: { dir, s3: undefined }, ...overrides }, options);
  return { ...started, dir };
}

/** Authorizes `userId` on the open app and asks for an upload token; resolves with the whole ack. */
export async function tokenAck(url: string, params: unknown, userId: string | null = 'alice') {
  const socket = await connect(url);
  const auth = await request(
    socket,
    'authorize',
    authorizeParams(userId === null ? { userId: null, a: true } : { userId }),
  );
  if (auth.code !== 200) throw new Error(`authorize failed: ${JSON.stringify(auth)}`);
  return request(socket, 'uploadToken', params);
}

/** An `ALI` token for `filename`. */
export async function aliToken(url: string, filename: string): Promise<AliUploadToken> {
  const ack = await tokenAck(url, { filename });
  const token = ack.content as UploadToken;
  if (token.vendor !== 'ALI') throw new Error(`expected an ALI token, got ${JSON.stringify(ack)}`);
  return token;
}

/** Posts `fields` then `file` as multipart/form-data, as a browser's FormData would. */
export function postForm(
  host: string,
  fields: ReadonlyArray<readonly [string, string]>,
  file: Blob,
  fileName: string,
): Promise<Response> {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  form.append('file', file, fileName);
  return fetch(host, { method: 'POST', body: form });
}

/** Posts a token's fields in the reference client's order, then the file. */
export function postWithToken(token: UploadToken, file: Blob, fileName: string, attachment = false): Promise<Response> {
  return postForm(token.host, uploadFormFields(token, attachment ? fileName : undefined), file, fileName);
}

/** The multipart text before and after a file's bytes, for hand-made requests. */
export function multipartFrame(fields: ReadonlyArray<readonly [string, string]>, fileName: string) {
  const boundary = '----parley-test-boundary';
  const head =
    fields.map(([n, v]) => `--${boundary}\r\ncontent-disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`).join('') +
    `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${fileName}"\r\n` +
    'content-type: application/octet-stream\r\n\r\n';
  return { boundary, head, tail: `\r\n--${boundary}--\r\n` };
}

/**
 * Sends a hand-made HTTP request over a raw socket (so the test can lie about Content-Length or stream chunks
 * without limit), writing `body()` chunk by chunk until the server answers. Resolves with the status and the
 * number of body bytes written.
 */
export function rawPost(
  port: number,
  headers: Record<string, string>,
  body: () => Generator<Buffer>,
): Promise<{ status: number; written: number }> {
  return new Promise((resolve, reject) => {
    const socket = netConnect(port, '127.0.0.1');
    let answered = false;
    let written = 0;
    let response = '';
    socket.on('data', (chunk) => {
      response += chunk.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(response);
      if (status && !answered) {
        answered = true;
        resolve({ status: Number(status[1]), written });
        socket.destroy();
      }
    });
    socket.on('error', (err) => {
      if (!answered) reject(err);
    });
    socket.on('close', () => {
      if (!answered) reject(new Error('closed without an answer'));
    });
    socket.on('connect', () => {
      const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
      socket.write(`POST /uploads HTTP/1.1\r\nhost: 127.0.0.1\r\n${lines.join('\r\n')}\r\n\r\n`);
      const chunks = body();
      const pump = () => {
        for (;;) {
          if (answered || socket.destroyed) return;
          const next = chunks.next();
          if (next.done) return;
          written += next.value.length;
          if (!socket.write(next.value)) {
            socket.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
  });
}

/** Polls `check` every 10 ms until it holds (within 5 s). */
export async function eventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
