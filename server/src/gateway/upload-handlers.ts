import { CLIENT_EVENTS, uploadTokenSchema } from '../protocol.js';
import type { UploadService } from '../uploads/service.js';
import { actorOf } from './actor.js';
import type { Gateway } from './index.js';

/**
 * UP-1, UP-2: `uploadToken {filename}` needs the write permission and a named user (files cost storage, so every
 * upload belongs to someone); it answers a signed POST for one file, in the reference's `ALI` shape for the server's
 * own storage, or Parley's `S3` shape.
 */
export function registerUploadHandlers(gateway: Gateway, uploads: UploadService): void {
  gateway.handle(CLIENT_EVENTS.uploadToken, {
    schema: uploadTokenSchema,
    permission: 'write',
    handler: (ctx, params) => {
      const actor = actorOf(ctx);
      return Promise.resolve(uploads.issueToken({ app: actor.app, filename: params.filename }));
    },
  });
}
