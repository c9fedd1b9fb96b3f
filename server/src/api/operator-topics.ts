import type { FastifyInstance } from 'fastify';
import type { AppRegistry } from '../auth/apps.js';
import type { TopicService } from '../content/topics.js';
import type { TopicRecord } from '../store/index.js';
import { operatorCatalogRoutes } from './operator-catalog.js';

/**
 * The operator's topics of the circle (spec §2 topic/index, topic/list), at `/api/v1/apps/:appkey/circle-topics` (see
 * {@link operatorCatalogRoutes}):
 *
 * - `GET` lists them, the most posts first: `{id, title, intro, img, posts, createdAt}`.
 * - `POST` `{title, intro?, img?}` adds one: a title of 1 to 20 characters that no other topic has, an introduction of
 *   at most 200, a picture's http(s) URL; at most 200 topics.
 * - `PATCH .../:id` changes any of `{title, intro, img}`.
 * - `DELETE .../:id` removes one: its posts stay, in no topic, and its page says it was deleted.
 */
export function operatorTopicRoutes(
  app: FastifyInstance,
  deps: { apps: AppRegistry; appkey: string; topics: TopicService },
): void {
  const { topics } = deps;
  operatorCatalogRoutes<TopicRecord & { posts?: number }>(app, deps, {
    path: 'circle-topics',
    list: () => topics.all(),
    add: (fields) => topics.add(fields),
    update: (id, fields) => topics.update(id, fields),
    remove: (id) => topics.remove(id),
    view: (topic) => ({
      id: topic.id,
      title: topic.title,
      intro: topic.intro,
      img: topic.img,
      ...(topic.posts !== undefined && { posts: topic.posts }),
      createdAt: topic.createdAt,
    }),
  });
}
