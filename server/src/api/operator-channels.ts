import type { FastifyInstance } from 'fastify';
import type { AppRegistry } from '../auth/apps.js';
import type { ChannelService } from '../content/channels.js';
import type { ChannelRecord } from '../store/index.js';
import { operatorCatalogRoutes } from './operator-catalog.js';

/**
 * The operator's article channels (spec §2 article/typeid), at `/api/v1/apps/:appkey/article-channels` (see
 * {@link operatorCatalogRoutes}):
 *
 * - `GET` lists them in their order: `{id, name, position, isDefault, createdAt}`.
 * - `POST` `{name, position?, isDefault?}` adds one: a name of 1 to 12 characters that no other channel has, at most
 *   50 channels; `position` (0 to 10 000) places it, after the last by default; `isDefault` (true by default) shows it
 *   on the front page of members who have not chosen, and of visitors.
 * - `PATCH .../:id` changes any of `{name, position, isDefault}`.
 * - `DELETE .../:id` removes one: its articles stay, in no channel, and members' front pages lose it.
 */
export function operatorChannelRoutes(
  app: FastifyInstance,
  deps: { apps: AppRegistry; appkey: string; channels: ChannelService },
): void {
  const { channels } = deps;
  operatorCatalogRoutes<ChannelRecord>(app, deps, {
    path: 'article-channels',
    list: () => channels.all(),
    add: (fields) => channels.add(fields),
    update: (id, fields) => channels.update(id, fields),
    remove: (id) => channels.remove(id),
    view: (channel) => ({
      id: channel.id,
      name: channel.name,
      position: channel.position,
      isDefault: channel.isDefault,
      createdAt: channel.createdAt,
    }),
  });
}
