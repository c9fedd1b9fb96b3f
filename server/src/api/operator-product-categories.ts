import type { FastifyInstance } from 'fastify';
import type { AppRegistry } from '../auth/apps.js';
import type { ProductService } from '../shop/products.js';
import type { CategoryRecord } from '../store/index.js';
import { operatorCatalogRoutes } from './operator-catalog.js';

/**
 * The operator's classifications of products (spec §3 Product "classification", §8 "the classification does not
 * exist, reselect"), at `/api/v1/apps/:appkey/product-categories` (see {@link operatorCatalogRoutes}):
 *
 * - `GET` lists them in order: `{id, name, position, fresh, createdAt}`.
 * - `POST` `{name, position?, fresh?}` adds one: a name of 1 to 10 characters no other has, a position from 0 to
 *   10 000 (lower first; 0 by default), and whether it holds food and fresh items (spec §9: their orders' damage
 *   refund is claimed within 24 hours instead of 72; false by default); at most 50.
 * - `PATCH .../:id` changes any of `{name, position, fresh}`.
 * - `DELETE .../:id` removes one: its products stay, under none; a product cannot be added to it any more.
 */
export function operatorProductCategoryRoutes(
  app: FastifyInstance,
  deps: { apps: AppRegistry; appkey: string; products: ProductService },
): void {
  const { products } = deps;
  operatorCatalogRoutes<CategoryRecord>(app, deps, {
    path: 'product-categories',
    list: () => products.categories(),
    add: (fields) => products.addCategory(fields),
    update: (id, fields) => products.updateCategory(id, fields),
    remove: (id) => products.removeCategory(id),
    view: (category) => ({
      id: category.id,
      name: category.name,
      position: category.position,
      fresh: category.fresh,
      createdAt: category.createdAt,
    }),
  });
}
