import * as z from 'zod/mini';
import { MESSAGES } from './codes.js';
import { LIMITS } from './limits.js';

/**
 * A user event (USER-1): something an app's server tells one user, live, on every connection of theirs: a new
 * notification, a changed setting, a finished job. The app server sends it through the HTTP API
 * (`POST /api/v1/apps/:appkey/users/:userId/events`); it is not stored, so a user offline then does not get it.
 */
export interface UserEvent {
  /** What happened, in the app's own words (`notice`, `order.paid`). */
  name: string;
  /** What the app sent with it; null when it sent nothing. */
  data: unknown;
  /** When the server sent it (ms since epoch). */
  time: number;
}

/** The body of the HTTP call that sends a user event. */
export const userEventRequestSchema = z.object({
  name: z
    .string({ error: MESSAGES.userEventNameRequired })
    .check(
      z.minLength(1, MESSAGES.userEventNameRequired),
      z.maxLength(LIMITS.userEventNameMaxLength, MESSAGES.userEventNameTooLong),
    ),
  data: z.optional(z.unknown()),
});

/** The push a client gets, as the server sends it. */
export const userEventPushSchema = z.object({
  name: z.string(),
  data: z.optional(z.unknown()),
  time: z.number(),
});
