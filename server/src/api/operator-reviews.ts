import type { FastifyInstance } from 'fastify';
import type { AppRegistry } from '../auth/apps.js';
import type { ReportService } from '../content/reports.js';
import type { CertificationService } from '../members/certifications.js';
import type { WalletService } from '../members/wallet.js';
import type { ShopService } from '../shop/shops.js';
import type { ProductService } from '../shop/products.js';
import type { WithdrawalService } from '../members/withdrawals.js';
import { CODES, MESSAGES } from '../protocol.js';
import type {
  CertificationRecord,
  ProductRecord,
  RechargeRecord,
  ReportRecord,
  ShopRecord,
  WithdrawalRecord,
} from '../store/index.js';
import { yuanOf } from './product/wallet.js';
import { appOfBearer } from './app-auth.js';

/** A submission as the operator reviews it: everything, the full number and the photos too. */
function certificationView(record: CertificationRecord) {
  return {
    memberId: record.memberId,
    type: record.type,
    name: record.name,
    number: record.number,
    images: record.images,
    status: record.status,
    reason: record.reason,
    submittedAt: record.submittedAt,
    reviewedAt: record.reviewedAt ?? null,
  };
}

/** A withdrawal as the operator pays it: what it pays out (`coins` or a seller's `shop` income), the whole account. */
function withdrawalView(record: WithdrawalRecord) {
  return {
    id: record.id,
    memberId: record.memberId,
    source: record.source,
    amount: record.amount,
    coins: record.coins,
    method: record.method,
    accountName: record.accountName,
    account: record.account,
    status: record.status,
    reason: record.reason,
    createdAt: record.createdAt,
    reviewedAt: record.reviewedAt ?? null,
  };
}

/** A recharge as the operator settles it: whose, how much in yuan, and where its payment stands. */
function rechargeView(record: RechargeRecord) {
  return {
    id: record.id,
    memberId: record.memberId,
    amount: yuanOf(record.amount),
    method: record.method,
    status: record.status,
    reason: record.reason,
    reference: record.reference,
    createdAt: record.createdAt,
    closedAt: record.closedAt ?? null,
  };
}

/** A shop application as the operator reviews it. */
function shopView(record: ShopRecord) {
  return {
    id: record.id,
    memberId: record.memberId,
    name: record.name,
    icon: record.icon,
    intro: record.intro,
    status: record.status,
    reason: record.reason,
    submittedAt: record.submittedAt,
    reviewedAt: record.reviewedAt ?? null,
  };
}

/** A product as the operator reviews it: all of it, the price in yuan. */
function productView(record: ProductRecord) {
  return {
    id: record.id,
    shopId: record.shopId,
    memberId: record.memberId,
    categoryId: record.categoryId,
    title: record.title,
    price: yuanOf(record.price),
    stock: record.stock,
    content: record.content,
    images: record.images,
    status: record.status,
    reason: record.reason,
    createdAt: record.createdAt,
    reviewedAt: record.reviewedAt ?? null,
  };
}

/** A report as the operator decides on it: who reported what, and why. */
function reportView(record: ReportRecord) {
  return {
    id: record.id,
    memberId: record.memberId,
    type: record.type,
    targetId: record.targetId,
    title: record.title,
    content: record.content,
    status: record.status,
    reason: record.reason,
    createdAt: record.createdAt,
    reviewedAt: record.reviewedAt ?? null,
  };
}

type Listed<T> = { ok: true; value: T[] } | { ok: false; message: string };
type Reviewed<T> = { ok: true; value: T } | { ok: false; failure: 'not_pending' | 'bad_review'; message: string };

/** One queue the operator works through: what it lists, how an item is reviewed, and how it shows. */
export interface ReviewQueue<T> {
  /** The queue's path under `/api/v1/apps/:appkey/`. */
  path: string;
  /** The last segment of the path that reviews an item. @default 'review' */
  action?: string;
  list: (status: unknown, after: unknown) => Promise<Listed<T>>;
  review: (id: string, fields: Record<string, unknown>) => Promise<Reviewed<T>>;
  view: (record: T) => unknown;
}

/**
 * The operator's review queues of the product app, for its server: `authorization: Bearer <secretKey>` of the
 * product app. `GET /api/v1/apps/:appkey/<queue>?status=&after=` lists a queue, oldest first; `POST
 * /api/v1/apps/:appkey/<queue>/:id/review` reviews one item, answering 404 when it is not under review. Answers are
 * `{code, content}`.
 *
 * - `certifications` (spec §4: under review for 1 to 3 working days, then failed with a reason or passed): `status`
 *   `pending` (the default), `failed` or `passed`, fifty at a time, `after` a member id; the review `{pass, reason?,
 *   submittedAt}` of `:memberId`'s submission: `reason` (1 to 100 characters) when failing, `submittedAt` the time
 *   of the submission reviewed, so that a review never lands on a newer one.
 * - `withdrawals` (spec §2 renwu/tixian): `status` `pending` (the default), `paid` or `rejected`, fifty at a time,
 *   `after` a withdrawal id; the review `{paid, reason?}` of withdrawal `:id`: `paid` true once the money is sent,
 *   or false with a `reason` (1 to 100 characters), which returns the coins, or a shop withdrawal's yuan to the
 *   seller's wallet (spec §2 shop/business-tixian). Each item says its `source`: `coins` or `shop`.
 * - `recharges` (spec §2 member/recharge, §4 payment): `status` `unpaid` (the default), `success`, `abnormal`,
 *   `failed` or `cancelled`, fifty at a time, `after` a recharge id; the payment `{paid, reference?, reason?}` of
 *   recharge `:id`, as the deployment's payment service reports it: `paid` true (with the provider's `reference`, up
 *   to 64 characters) credits the member's wallet, for an unpaid or abnormal recharge or one cancelled after it was
 *   paid; false with a `reason` (1 to 100 characters) fails an unpaid or abnormal one. A payment reported twice is 404
 *   the second time, credited once. `abnormal` ones (PAY-8) had a payment the server could not credit by itself.
 * - `shops` (spec §2 shop/user-add, §4: under review, rejected, approved): `status` `pending` (the default),
 *   `rejected` or `approved`, fifty at a time, `after` a shop id; the review `{pass, reason?, submittedAt}` of shop
 *   `:id`'s application: `reason` (1 to 100 characters) when rejecting, `submittedAt` the time of the application
 *   reviewed, so that a review never lands on a resubmission.
 * - `products` (spec §4: to be reviewed, on sale, review rejected, off shelf, violation prohibited): `status`
 *   `pending` (the default), `on_sale`, `rejected`, `off_shelf` or `banned`, fifty at a time, `after` a product id;
 *   the decision `{decision, reason?}` on product `:id`: `pass` puts one to be reviewed on sale, `reject` rejects it,
 *   `ban` prohibits one on sale or off the shelf; `reason` (1 to 100 characters) unless passing.
 * - `reports` (spec §2 article/jubao_view): `status` `pending` (the default), `upheld` or `dismissed`, fifty at a
 *   time, `after` a report id; the decision `{uphold, reason}` on report `:id`: `uphold` true removes the content (or
 *   resets the reported member's profile) and closes every report of it under review, false dismisses this one;
 *   `reason` (1 to 100 characters) either way.
 */
export function operatorReviewRoutes(
  app: FastifyInstance,
  deps: {
    apps: AppRegistry;
    appkey: string;
    certifications: CertificationService;
    withdrawals: WithdrawalService;
    wallet: WalletService;
    shops: ShopService;
    products: ProductService;
    reports: ReportService;
  },
): void {
  const queue = <T>(spec: ReviewQueue<T>) => registerQueue(app, deps, spec);
  queue<CertificationRecord>({
    path: 'certifications',
    list: (status, after) => deps.certifications.list(status, after),
    review: (memberId, fields) =>
      deps.certifications.review(memberId, {
        pass: fields['pass'],
        reason: fields['reason'],
        submittedAt: fields['submittedAt'],
      }),
    view: certificationView,
  });
  queue<WithdrawalRecord>({
    path: 'withdrawals',
    list: (status, after) => deps.withdrawals.queue(status, after),
    review: (id, fields) => deps.withdrawals.review(id, { paid: fields['paid'], reason: fields['reason'] }),
    view: withdrawalView,
  });
  queue<RechargeRecord>({
    path: 'recharges',
    list: (status, after) => deps.wallet.queue(status, after),
    review: (id, fields) =>
      deps.wallet.review(id, { paid: fields['paid'], reason: fields['reason'], reference: fields['reference'] }),
    view: rechargeView,
  });
  queue<ShopRecord>({
    path: 'shops',
    list: (status, after) => deps.shops.queue(status, after),
    review: (id, fields) =>
      deps.shops.review(id, { pass: fields['pass'], reason: fields['reason'], submittedAt: fields['submittedAt'] }),
    view: shopView,
  });
  queue<ProductRecord>({
    path: 'products',
    list: (status, after) => deps.products.queue(status, after),
    review: (id, fields) => deps.products.review(id, { decision: fields['decision'], reason: fields['reason'] }),
    view: productView,
  });
  queue<ReportRecord>({
    path: 'reports',
    list: (status, after) => deps.reports.queue(status, after),
    review: (id, fields) => deps.reports.review(id, { uphold: fields['uphold'], reason: fields['reason'] }),
    view: reportView,
  });
}

/**
 * Registers one review queue of the product app (see {@link operatorReviewRoutes}): its list, and the review of one
 * item at `<path>/:id/<action>`.
 */
export function registerQueue<T>(
  app: FastifyInstance,
  deps: { apps: AppRegistry; appkey: string },
  spec: ReviewQueue<T>,
): void {
  const allowed = (appkey: string, request: Parameters<typeof appOfBearer>[2]) =>
    appkey === deps.appkey && appOfBearer(deps.apps, appkey, request) !== undefined;
  const denied = { code: CODES.UNAUTHORIZED, content: MESSAGES.noPermission };

  app.get<{ Params: { appkey: string }; Querystring: Record<string, unknown> }>(
    `/api/v1/apps/:appkey/${spec.path}`,
    async (request, reply) => {
      if (!allowed(request.params.appkey, request)) return reply.code(CODES.UNAUTHORIZED).send(denied);
      const page = await spec.list(request.query['status'], request.query['after']);
      if (!page.ok) return reply.code(CODES.BAD_REQUEST).send({ code: CODES.BAD_REQUEST, content: page.message });
      return { code: CODES.OK, content: page.value.map((record) => spec.view(record)) };
    },
  );

  app.post<{ Params: { appkey: string; id: string } }>(
    `/api/v1/apps/:appkey/${spec.path}/:id/${spec.action ?? 'review'}`,
    async (request, reply) => {
      if (!allowed(request.params.appkey, request)) return reply.code(CODES.UNAUTHORIZED).send(denied);
      const body = request.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        return reply.code(CODES.BAD_REQUEST).send({ code: CODES.BAD_REQUEST, content: 'body must be an object.' });
      }
      const result = await spec.review(request.params.id, body as Record<string, unknown>);
      if (result.ok) return { code: CODES.OK, content: spec.view(result.value) };
      const code = result.failure === 'not_pending' ? 404 : CODES.BAD_REQUEST;
      return reply.code(code).send({ code, content: result.message });
    },
  );
}
