import type { Pusher } from './push.js';
import { CODES, LIMITS, MESSAGES, SERVER_PUSHES, check, userIdSchema, type UserEvent } from './protocol.js';

/** Why a user event was refused: its code and the protocol's words. */
export interface UserEventFailure {
  ok: false;
  code: number;
  content: string;
}

/**
 * USER-1: events an app's server sends one user, live, on every connection of theirs on every node. Nothing is
 * stored: a user with no connection gets nothing, and learns what changed when the app next asks its server.
 */
export interface UserEvents {
  /** Sends `name` with `data` (any JSON, at most 4 KB encoded) to `userId` of `appkey`; answers the time sent. */
  send(params: {
    appkey: string;
    userId: string;
    name: string;
    data?: unknown;
  }): { ok: true; time: number } | UserEventFailure;
}

/** Creates the user events over the pusher (socket.io rooms, shared through the Redis adapter when configured). */
export function createUserEvents(deps: { pusher: Pusher; now: () => number }): UserEvents {
  return {
    send({ appkey, userId, name, data = null }) {
      const user = check(userIdSchema, userId);
      if (!user.ok) return { ok: false, code: user.code, content: user.content };
      const encoded = JSON.stringify(data);
      if (Buffer.byteLength(encoded, 'utf8') > LIMITS.userEventDataMaxBytes) {
        return { ok: false, code: CODES.BAD_REQUEST, content: MESSAGES.userEventDataTooLarge };
      }
      const time = deps.now();
      const push: UserEvent = { name, data, time };
      deps.pusher.toUsers({ appkey, userIds: [userId], event: SERVER_PUSHES.userEvent, payload: push });
      return { ok: true, time };
    },
  };
}
