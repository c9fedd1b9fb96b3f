import { ServiceError } from '../errors.js';
import { CODES, MESSAGES } from '../protocol.js';
import type { Actor } from '../push.js';
import type { RequestContext } from './registry.js';

/** The named user a request acts for; IM and presence are refused to anonymous connections (IM-2, PRES-1). */
export function actorOf(ctx: RequestContext): Actor {
  if (ctx.userId === null) throw new ServiceError(CODES.UNAUTHORIZED, MESSAGES.noPermission);
  // A connection's context lives as long as its session: one actor for all of its requests.
  let actor = actors.get(ctx);
  if (!actor) {
    actor = { app: ctx.app, userId: ctx.userId, userData: ctx.userData, connectionId: ctx.socketId };
    actors.set(ctx, actor);
  }
  return actor;
}

const actors = new WeakMap<RequestContext, Actor>();
