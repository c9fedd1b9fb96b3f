import type { FastifyInstance } from 'fastify';
import type { AppRegistry } from '../auth/apps.js';
import type { ClaimService } from '../shop/claims.js';
import type { ClaimRecord } from '../store/index.js';
import { registerQueue } from './operator-reviews.js';

/** A claim as the operator decides on it: the order it is on, both sides, what was paid (fen) and the buyer's proof. */
function claimView(record: ClaimRecord) {
  return {
    id: record.id,
    orderId: record.orderId,
    orderCode: record.orderCode,
    kind: record.kind,
    buyerId: record.buyerId,
    sellerId: record.sellerId,
    shopId: record.shopId,
    total: record.total,
    description: record.description,
    images: record.images,
    status: record.status,
    reason: record.reason,
    createdAt: record.createdAt,
    decidedAt: record.decidedAt ?? null,
  };
}

/**
 * The operator's queue of guarantee claims (spec §9 damage refund and counterfeit compensation), for the product
 * app's server: `authorization: Bearer <secretKey>` of the product app; answers are `{code, content}`.
 *
 * - `GET /api/v1/apps/:appkey/claims?status=&after=` lists the claims in `status`: `pending` (the default), `upheld`,
 *   `rejected` or `cancelled`, oldest first, fifty at a time, `after` a claim id listed; each `{id, orderId,
 *   orderCode, kind, buyerId, sellerId, shopId, total (fen), description, images, status, reason, createdAt,
 *   decidedAt}`.
 * - `POST /api/v1/apps/:appkey/claims/:id/decide` `{decision, reason?}` decides pending claim `:id`: `uphold` refunds
 *   the order to its buyer, who keeps the goods, and for a counterfeit pays them four times the total too, charged to
 *   the seller; `reject` lets the order go on. `reason` (1 to 100 characters) is required to reject. A claim not
 *   pending, or none, is 404; a bad body is 400.
 */
export function operatorClaimRoutes(
  app: FastifyInstance,
  deps: { apps: AppRegistry; appkey: string; claims: ClaimService },
): void {
  registerQueue<ClaimRecord>(app, deps, {
    path: 'claims',
    action: 'decide',
    list: (status, after) => deps.claims.queue(status, after),
    review: (id, fields) => deps.claims.decide(id, { decision: fields['decision'], reason: fields['reason'] }),
    view: claimView,
  });
}
