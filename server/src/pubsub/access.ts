import { verifyToken } from '../auth/token.js';
import type { AppConfig } from '../config.js';

/** What an access token grants on its channels: `r` subscribe, `w` publish. */
export type ChannelPermission = 'r' | 'w';

/**
 * PUB-15: whether `token` lets `userId` use every one of `channels`. Apps without `requireAccessToken` need no
 * token. A token is signed with the app's secret key (`auth/token.ts`) over `{u: userId, c: channel | channels,
 * p: 'r' | 'w' | 'rw', e: expiresAtMs}`; anonymous connections cannot hold one.
 */
export function channelAccessAllowed(params: {
  app: AppConfig;
  userId: string | null;
  token: string | null | undefined;
  channels: readonly string[];
  need: ChannelPermission;
  now: number;
}): boolean {
  if (!params.app.requireAccessToken) return true;
  if (params.userId === null) return false;
  const verified = verifyToken(params.app.secretKey, params.token);
  if (!verified.ok) return false;
  const { u, c, p, e } = verified.payload;
  if (u !== params.userId || typeof e !== 'number' || e <= params.now) return false;
  if (typeof p !== 'string' || !p.includes(params.need)) return false;
  const granted = new Set((Array.isArray(c) ? c : [c]).map(String));
  return params.channels.every((channel) => granted.has(channel));
}
