import multipart, { type MultipartFields } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ServiceError } from '../errors.js';
import { CODES, LIMITS, MESSAGES } from '../protocol.js';
import { UPLOAD_PATH, type UploadService } from '../uploads/service.js';

/** Room for the form fields around the file when judging a declared Content-Length. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/** The text fields posted before the file, first value of each name. */
function fieldsOf(fields: MultipartFields): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, entry] of Object.entries(fields)) {
    const first = Array.isArray(entry) ? entry[0] : entry;
    if (first?.type === 'field' && typeof first.value === 'string') out[name] = first.value;
  }
  return out;
}

/**
 * Refuses an upload. The connection is closed after the answer: the rest of a refused body is never read, so that
 * an over-size or forged upload costs the server nothing more.
 */
function refuse(reply: FastifyReply, status: number, content: string): FastifyReply {
  return reply.code(status).header('connection', 'close').send({ code: status, content });
}

/**
 * What the multipart parser (busboy) says of a form the client broke: cut short, a part ended early, a header it
 * cannot read, no boundary or one it cannot use (over 256 characters).
 */
const MULTIPART_FAULTS =
  /^Unexpected end of|terminated early|Malformed|premature close|Boundary not found|Boundary required|needle cannot/i;

/** Maps what a failed POST threw to an answer; undefined for a server fault (left to the 500 handler). */
function refusalOf(err: unknown): { status: number; content: string } | undefined {
  if (err instanceof ServiceError) return { status: err.code, content: err.content };
  const e = err as { code?: unknown; statusCode?: unknown; message?: unknown };
  if (e.code === 'FST_REQ_FILE_TOO_LARGE' || e.statusCode === 413) {
    return { status: 413, content: MESSAGES.uploadTooLarge };
  }
  const clientFault =
    (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) ||
    (typeof e.message === 'string' && MULTIPART_FAULTS.test(e.message));
  return clientFault ? { status: CODES.BAD_REQUEST, content: MESSAGES.uploadFormInvalid } : undefined;
}

/** Parses a single `bytes=a-b` range against a file of `size` bytes. */
function rangeOf(header: string | undefined, size: number): { start: number; end: number } | undefined | 'invalid' {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const start = match[1] === '' ? Math.max(0, size - Number(match[2])) : Number(match[1]);
  const end = match[1] === '' || match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  return start > end || start >= size ? 'invalid' : { start, end };
}

/**
 * The server's own upload storage (UP-8..UP-15, UP-17, UP-18): `POST /uploads` takes the reference's OSS form or
 * the product app's token form (fields, then the file) and `GET /uploads/<key>` serves files back. Cross-origin callers are allowed: the signed policy, not the
 * origin, decides who may write.
 */
export function uploadRoutes(app: FastifyInstance, deps: { uploads: UploadService; maxBytes?: number }): void {
  const maxBytes = deps.maxBytes ?? LIMITS.fileMaxBytes;
  void app.register(async (scope) => {
    await scope.register(multipart, {
      // One byte over the limit, so that the storage's own count sees the excess: busboy would only truncate.
      limits: { fileSize: maxBytes + 1, files: 1, fields: 20, fieldSize: 16_384, parts: 21 },
    });
    scope.addHook('onSend', async (_request, reply) => {
      reply.header('access-control-allow-origin', '*');
    });
    scope.options(UPLOAD_PATH, async (_request, reply) =>
      reply
        .code(204)
        .header('access-control-allow-methods', 'POST, GET')
        .header('access-control-allow-headers', '*')
        .header('access-control-max-age', '86400')
        .send(),
    );

    scope.post(UPLOAD_PATH, async (request, reply) => {
      const declared = Number(request.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes + FORM_OVERHEAD_BYTES) {
        return refuse(reply, 413, MESSAGES.uploadTooLarge);
      }
      if (!request.isMultipart()) return refuse(reply, CODES.BAD_REQUEST, MESSAGES.uploadFormInvalid);
      try {
        const file = await request.file();
        if (!file || file.fieldname !== 'file') return refuse(reply, CODES.BAD_REQUEST, MESSAGES.uploadFormInvalid);
        const form = deps.uploads.checkForm(fieldsOf(file.fields), file.mimetype);
        await deps.uploads.store(form, file.file);
        const { answer } = form;
        if (answer.form === 'token') return reply.code(200).send({ key: form.key, url: answer.url });
        if (answer.successStatus !== 201) return reply.code(answer.successStatus).send();
        const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<PostResponse><Key>${form.key}</Key></PostResponse>`;
        return reply.code(201).type('application/xml').send(xml);
      } catch (err) {
        const refusal = refusalOf(err);
        if (!refusal) throw err;
        return refuse(reply, refusal.status, refusal.content);
      }
    });

    scope.get<{ Params: { '*': string }; Querystring: Record<string, unknown> }>(
      `${UPLOAD_PATH}/*`,
      async (request, reply) => {
        // UP-20, UP-21: a thumbnail URL's `x-oss-process` resizes an image or takes a video's frame; the key is the path alone.
        let file;
        try {
          file = await deps.uploads.read(request.params['*'], request.query['x-oss-process']);
        } catch (err) {
          if (!(err instanceof ServiceError)) throw err;
          return reply.code(err.code).send({ code: err.code, content: err.content });
        }
        if (!file) return reply.code(404).send({ code: 404, content: MESSAGES.uploadNotFound });
        reply
          .header('content-type', file.contentType)
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('content-disposition', file.inline ? 'inline' : 'attachment')
          // Every token the storage issues is insert-only (UP-18), so a file never changes under its URL.
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('accept-ranges', 'bytes');
        const range = rangeOf(request.headers.range, file.size);
        if (range === 'invalid') return reply.code(416).header('content-range', `bytes */${file.size}`).send();
        if (range) {
          reply
            .code(206)
            .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
            .header('content-length', range.end - range.start + 1);
          return reply.send(file.open(range));
        }
        return reply.header('content-length', file.size).send(file.open());
      },
    );
  });
}
