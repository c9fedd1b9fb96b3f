import { accessGrant } from '../auth/token.js';
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
  const grant = accessGrant({
    secret: params.app.secretKey,
    token: params.token,
    userId: params.userId,
    now: params.now,
    field: 'c',
    ids: params.channels,
  });
  return typeof grant?.['p'] === 'string' && grant['p'].includes(params.need);
}
