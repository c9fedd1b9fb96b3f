/** Pub/sub test helpers: raw socket.io users of the test apps, push collectors, link drops and access tokens. */
import type { Socket as ClientSocket } from 'socket.io-client';
import { signToken } from '../src/auth/token.js';
import type { AppConfig } from '../src/config.js';
import { OPEN_APP, authorizeParams, connect, request } from './helpers.js';

/** An app whose channels are private: subscribe and publish need access tokens. */
export const PRIVATE_APP: AppConfig = {
  appkey: 'private-appkey',
  subscribeKey: 'private-subscribe-key',
  secretKey: 'private-secret',
  name: 'private',
  requireOtp: false,
  requireAccessToken: true,
};

/** A connected, authorized raw client. */
export interface RawUser {
  socket: ClientSocket;
  sid: string;
  /** Every push received, by event name, in order. */
  pushes: Map<string, unknown[]>;
  /** Every push received, in order: `[event, payload]`. */
  log: Array<[string, unknown]>;
  /** The authorize reply's `mD`. */
  moduleData: Record<string, unknown>;
}

/** Connects and authorizes `userId` (null: anonymous) on `appkey`, resuming `sid` if given. */
export async function rawUser(
  url: string,
  userId: string | null,
  options: { appkey?: string; sid?: string | null; data?: Record<string, unknown> } = {},
): Promise<RawUser> {
  const socket = await connect(url);
  const pushes = new Map<string, unknown[]>();
  const log: Array<[string, unknown]> = [];
  socket.onAny((event: string, payload: unknown) => {
    const list = pushes.get(event) ?? [];
    list.push(payload);
    pushes.set(event, list);
    log.push([event, payload]);
  });
  const reply = await request(
    socket,
    'authorize',
    authorizeParams({
      appkey: options.appkey ?? OPEN_APP.appkey,
      userId,
      a: userId === null,
      userData: JSON.stringify(options.data ?? { name: userId }),
      sid: options.sid ?? null,
      mP: { GWS: null },
    }),
  );
  if (reply['code'] !== 200) throw new Error(`authorize failed: ${JSON.stringify(reply)}`);
  return { socket, sid: String(reply['sid']), pushes, log, moduleData: reply['mD'] as Record<string, unknown> };
}

/** Pushes of `event` a user received so far. */
export function received(user: RawUser, event: string): Array<Record<string, unknown>> {
  return (user.pushes.get(event) ?? []) as Array<Record<string, unknown>>;
}

/** Polls `check` until it holds (within 5 s). */
export async function eventually(check: () => boolean, what = 'condition'): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} not met within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Lets the server finish what it is doing: a round trip on `socket` is answered after every earlier emit of that
 * socket, and a few event-loop turns let deferred pushes go out.
 */
export async function settle(socket: ClientSocket): Promise<void> {
  await request(socket, 'PARLEY_PING', {});
  await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Drops the link under a client without a goodbye, as a network loss would; the server sees `transport close`. */
export function loseLink(user: RawUser): Promise<void> {
  return new Promise((resolve) => {
    user.socket.once('disconnect', () => resolve());
    user.socket.io.engine.close();
  });
}

/** A publish request with a fresh guid. */
export function publishParams(channel: string, content: string, extra: Record<string, unknown> = {}) {
  return { channel, content, guid: Math.random().toString(16).slice(2).padEnd(16, '0'), q: 0, retried: 0, ...extra };
}

/** An access token for a private channel, signed with `app`'s secret. */
export function accessToken(
  app: AppConfig,
  payload: { u: string; c: string | string[]; p: string; e?: number },
): string {
  return signToken(app.secretKey, { e: Date.now() + 60_000, ...payload });
}
