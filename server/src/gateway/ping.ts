import * as z from 'zod/mini';
import { CLIENT_EVENTS } from '../protocol.js';
import type { Gateway } from './index.js';

/** `PARLEY_PING`: answers the server's clock, for round-trip and clock-offset measurements. */
export function registerPing(gateway: Gateway, now: () => number): void {
  gateway.handle(CLIENT_EVENTS.ping, {
    schema: z.optional(z.unknown()),
    permission: 'none',
    handler: () => Promise.resolve({ time: now() }),
  });
}
