import type { AppConfig } from '../config.js';
import type { Permissions } from '../protocol.js';

/** An app found by one of its keys, with what that key allows. */
export interface AppGrant {
  app: AppConfig;
  permissions: Permissions;
}

/** Looks apps up by the keys clients and app servers present. */
export interface AppRegistry {
  /** Finds the app for a client key: the appkey grants read and write, the subscribe key read only. */
  byClientKey(key: string): AppGrant | undefined;
  /** Finds an app by its appkey only (server-to-server calls, where a subscribe key means nothing). */
  byAppkey(appkey: string): AppConfig | undefined;
}

/** Builds the registry from the configured apps (whose keys the config has already checked for clashes). */
export function createAppRegistry(apps: readonly AppConfig[]): AppRegistry {
  const grants = new Map<string, AppGrant>();
  const byAppkey = new Map<string, AppConfig>();
  for (const app of apps) {
    byAppkey.set(app.appkey, app);
    grants.set(app.appkey, { app, permissions: { read: true, write: true } });
    if (app.subscribeKey) grants.set(app.subscribeKey, { app, permissions: { read: true, write: false } });
  }
  return {
    byClientKey: (key) => grants.get(key),
    byAppkey: (appkey) => byAppkey.get(appkey),
  };
}
