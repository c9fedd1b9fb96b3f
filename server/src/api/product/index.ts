import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppRegistry } from '../../auth/apps.js';
import { issueOtp } from '../../auth/otp.js';
import { signToken } from '../../auth/token.js';
import type { CsConfig, ServerConfig } from '../../config.js';
import type { Logger } from '../../logger.js';
import { createAddressService, type AddressService } from '../../members/addresses.js';
import { createBlockService, type BlockService } from '../../members/blocks.js';
import { createFeedbackService, type FeedbackService } from '../../members/feedback.js';
import { createFollowService, type FollowService } from '../../members/follows.js';
import { createNoticeService, type NoticeService } from '../../members/notices.js';
import { createTaskService, type TaskService } from '../../members/tasks.js';
import { createWithdrawalService, type WithdrawalService } from '../../members/withdrawals.js';
import { createWalletService, type WalletService } from '../../members/wallet.js';
import { createPaymentService, type PaymentService } from '../../payments/service.js';
import { createShopService, type ShopService } from '../../shop/shops.js';
import { createShopWithdrawalService, type ShopWithdrawalService } from '../../shop/withdrawals.js';
import { createProductService, type ProductService } from '../../shop/products.js';
import { createOrderPaymentService, type OrderPaymentService } from '../../shop/order-payments.js';
import { createOrderService, type OrderService } from '../../shop/orders.js';
import { createClaimService, type ClaimService } from '../../shop/claims.js';
import { createReviewService, type ReviewService } from '../../shop/reviews.js';
import { createAnnouncementService, type AnnouncementService } from '../../shop/announcements.js';
import { createInvitationService, type InvitationService } from '../../members/invitations.js';
import { createArticleService, type ArticleService } from '../../content/articles.js';
import { createChannelService, type ChannelService } from '../../content/channels.js';
import { createCircleService, postTitle, type CircleService } from '../../content/circle.js';
import { createTopicService, type TopicService } from '../../content/topics.js';
import {
  REACTION_LIMITS,
  createReactionService,
  type ReactionService,
  type ReactionSubject,
} from '../../content/reactions.js';
import { lineStart } from '../../content/text.js';
import { createReportService, type ReportService } from '../../content/reports.js';
import { createCertificationService, type CertificationService } from '../../members/certifications.js';
import { createMemberService, type MemberService } from '../../members/service.js';
import { createQrLoginService, type QrLoginService } from '../../members/qr-login.js';
import { createLiveService, type LiveService } from '../../live/service.js';
import type { ChannelPresence } from '../../pubsub/presence.js';
import type { PubsubService } from '../../pubsub/service.js';
import { createDevSmsProvider, type SmsProvider } from '../../members/sms.js';
import type { RedisClient } from '../../presence/redis.js';
import type {
  AddressStore,
  BlockStore,
  CertificationStore,
  FeedbackStore,
  FollowStore,
  MemberStore,
  LoginTicketStore,
  AdStore,
  HiddenStore,
  NoticeStore,
  TaskStore,
  ProductStore,
  OrderStore,
  ReviewStore,
  AnnouncementStore,
  ShopStore,
  WalletStore,
  WithdrawalStore,
  InvitationStore,
  ArticleStore,
  ReactionStore,
  ChannelStore,
  CircleStore,
  TopicStore,
  ReportStore,
  CommentRecord,
  LiveStore,
  LiveLinkStore,
  UploadDeletionStore,
  OrderRecord,
} from '../../store/index.js';
import { CODES } from '../../protocol.js';
import type { UserEvents } from '../../user-events.js';
import type { UploadService } from '../../uploads/service.js';
import { createUploadCleanup } from '../../members/upload-cleanup.js';
import { addressRoutes } from './addresses.js';
import { blockRoutes } from './blocks.js';
import { feedbackRoutes } from './feedback.js';
import { followRoutes } from './follows.js';
import { certificationRoutes } from './certification.js';
import { noticeRoutes } from './notices.js';
import { taskRoutes } from './tasks.js';
import { withdrawalRoutes } from './withdrawals.js';
import { paymentNotifyRoutes, walletRoutes, yuanOf } from './wallet.js';
import { shopRoutes } from './shops.js';
import { shopWithdrawalRoutes } from './shop-withdrawals.js';
import { shopProductRoutes } from './products.js';
import { orderRoutes } from './orders.js';
import { reviewRoutes } from './reviews.js';
import { announcementRoutes } from './announcements.js';
import { operatorProductCategoryRoutes } from '../operator-product-categories.js';
import { invitationRoutes } from './invitations.js';
import { articleRoutes } from './articles.js';
import { videoRoutes } from './videos.js';
import { circleRoutes } from './circle.js';
import { reportRoutes } from './reports.js';
import { operatorChannelRoutes } from '../operator-channels.js';
import { operatorTopicRoutes } from '../operator-topics.js';
import { operatorReviewRoutes } from '../operator-reviews.js';
import { operatorClaimRoutes } from '../operator-claims.js';
import { operatorAnnouncementRoutes } from '../operator-announcements.js';
import { indexConfigRoutes, type ProductAppInfo } from './index-config.js';
import { memberRoutes } from './member.js';
import { qrLoginRoutes } from './qr-login.js';
import { adRoutes } from './ads.js';
import { hiddenRoutes } from './hidden.js';
import { weatherRoutes } from './weather.js';
import { epidemicRoutes } from './epidemic.js';
import { createEpidemicService, type EpidemicService } from '../../epidemic/service.js';
import { createWeatherService, type WeatherService } from '../../weather/service.js';
import { operatorAdRoutes } from '../operator-ads.js';
import { createAdService, type AdService } from '../../content/ads.js';
import { profileRoutes } from './profile.js';
import { liveHookRoutes, liveRoutes, type MemberLimit } from './live.js';
import {
  type AddressLimit,
  type AddressLimiter,
  MemoryAddressLimiter,
  OVERALL_LIMIT_NAME,
  PRODUCT_ADDRESS_LIMITS,
  PRODUCT_ADDRESS_OVERALL,
  PRODUCT_ADDRESS_SEARCH,
  PRODUCT_MEMBER_LIMITS,
  RedisAddressLimiter,
  SEARCH_LIMIT_NAME,
} from './limits.js';
import { refuse, type ProductBody, type ProductHandler } from './reply.js';
import { smsRoutes } from './sms.js';
import { productUploadRoutes, type ProductUploads } from './upload.js';

/** Where the product API lives: the reference app calls `<site>/index.php/api/<path>` (spec §7). */
export const PRODUCT_API_BASE = '/index.php/api/';

/** The user event that tells a member of a new notification: `data: {kind, unread}` (docs/product-app.md). */
export const NOTICE_EVENT = 'notice';

/** What the product API needs. */
export interface ProductApiDeps {
  members: MemberService;
  /** Sign-in by QR code (user/scan-login). */
  qrLogin: QrLoginService;
  /** The operator's ads in the tabs' banners (ad/list, ad/click). */
  ads: AdService;
  /** What members hid from their feeds (member/yinbi). */
  hidden: HiddenStore;
  /** The weather page's forecasts and the city chooser's places (index/tianqi, index/city, index/city_search). */
  weather: WeatherService;
  /** The epidemic page's figures (index/yiqing). */
  epidemic: EpidemicService;
  /** Members' feedback (member/feedback, member/feedback-list). */
  feedback: FeedbackService;
  /** Members' block lists (member/lahei). */
  blocks: BlockService;
  /** Members' shipping addresses (member/address). */
  addresses: AddressService;
  /** Who follows whom (member/guanzhu). */
  follows: FollowService;
  /** Real-name certification (member/renzheng). */
  certifications: CertificationService;
  /** Notifications and their settings (member/notify, member/sz-notify). */
  notices: NoticeService;
  /** The task centre: daily sign-in and gold coins (renwu). */
  tasks: TaskService;
  /** Gold-coin withdrawals and the accounts they go to (renwu/tixian). */
  withdrawals: WithdrawalService;
  /** The money wallet: recharges and the ledger (member/money, recharge). */
  wallet: WalletService;
  /** The wallet's payment providers: a recharge's payment page, and the providers' notifications (PAY-1..PAY-6). */
  payments: PaymentService;
  /** Members' small shops and their applications (shop/user-add). */
  shops: ShopService;
  /** Sellers' withdrawals of their sales income (shop/business-tixian). */
  shopWithdrawals: ShopWithdrawalService;
  /** The shops' products and their classifications (shop/index, view, business-add). */
  products: ProductService;
  /** The shop's orders: checkout, payment by balance, shipping, receipt (shop/payment, user-order, business-order). */
  orders: OrderService;
  /** Guarantee claims on orders: damage refund and counterfeit compensation (spec §9), decided by the operator. */
  claims: ClaimService;
  /** Paying a checkout by Alipay or WeChat Pay, through a recharge of its total (shop/payment, shop/success). */
  orderPayments: OrderPaymentService;
  /** Reviews of completed orders and the sellers' answers (shop/user-ping-add, view-ping, user-ping, business-ping). */
  reviews: ReviewService;
  /** The operator's announcements to sellers and their reads (shop/business-gonggao). */
  announcements: AnnouncementService;
  /** Invitations: who signed up with whose code (renwu/yaoqing). */
  invitations: InvitationService;
  /** Members' articles (article, member/add-article). */
  articles: ArticleService;
  /** The channels articles are filed under (article/typeid). */
  channels: ChannelService;
  /** Members' circle posts and their votes (pages/quanzi/index, member/add-quanzi). */
  circle: CircleService;
  /** The operator's topics of the circle (topic/index, topic/list). */
  topics: TopicService;
  /** Comments on articles and likes (article/ping, article/ping-zan). */
  reactions: ReactionService;
  /** Comments on circle posts and likes (article/ping and article/ping-zan with `type=quanzi`). */
  circleReactions: ReactionService;
  /** Members' reports of content (member/jubao). */
  reports: ReportService;
  /** Live rooms, their chat and the anchors' bans (live). */
  live: LiveService;
  /** Issues a messaging otp for a member of the product app; undefined when that app is not configured. */
  issueOtp: (userId: string) => string | undefined;
  app: ProductAppInfo;
  /** The app's customer-service team and its agents. */
  cs: CsConfig;
  /** Upload tokens for members and the storage their files go to. */
  uploads: ProductUploads;
  /** Deletes the files of cancelled accounts waiting for it (MEM-7); how many. */
  cleanUploads: () => Promise<number>;
  /** The clock the limits per address run on. */
  now: () => number;
  /**
   * Makes the budgets per address of one limited path (MEM-3), and per member (LIVE-7).
   * @default budgets in this node's memory
   */
  limiter?: ((path: string, limit: AddressLimit) => AddressLimiter) | undefined;
}

/**
 * Registers the product HTTP API. Every call is a POST with a JSON object body. A refusal the app should show is
 * answered with status 200 and `{err, code}`, since the reference app treats only 200 as an answer and shows `err`;
 * a body that is not a JSON object is a 400 `{code, content}` like the rest of the server's HTTP API.
 */
export function productRoutes(app: FastifyInstance, deps: ProductApiDeps): void {
  const makeLimiter = deps.limiter ?? ((_path: string, limit: AddressLimit) => new MemoryAddressLimiter(limit));
  const limiters = new Map(
    Object.entries(PRODUCT_ADDRESS_LIMITS).map(([path, limit]) => [path, makeLimiter(path, limit)] as const),
  );
  const overall = makeLimiter(OVERALL_LIMIT_NAME, PRODUCT_ADDRESS_OVERALL);
  const searches = makeLimiter(SEARCH_LIMIT_NAME, PRODUCT_ADDRESS_SEARCH);
  const memberLimiters = new Map(
    Object.entries(PRODUCT_MEMBER_LIMITS).map(([path, limit]) => [path, makeLimiter(path, limit)] as const),
  );
  // Keyed apart from addresses: a member id of digits could read as an IPv4 address.
  const mayCall: MemberLimit = async (path, memberId) =>
    (await memberLimiters.get(path)?.take(`member:${memberId}`, deps.now())) ?? true;
  const post = (path: string, handler: ProductHandler) => {
    const limiter = limiters.get(path);
    app.post(`${PRODUCT_API_BASE}${path}`, async (request: FastifyRequest, reply: FastifyReply) => {
      const body = request.body ?? {};
      if (typeof body !== 'object' || Array.isArray(body)) {
        return reply.code(CODES.BAD_REQUEST).send({ code: CODES.BAD_REQUEST, content: 'parameter error' });
      }
      // MEM-3, MEM-12: answered as the app's other refusals are, so that it shows "do not operate frequently".
      const now = deps.now();
      if (!(await overall.take(request.ip, now))) return refuse('too_frequent');
      if (limiter && !(await limiter.take(request.ip, now))) return refuse('too_frequent');
      if (isSearch(body as ProductBody) && !(await searches.take(request.ip, now))) return refuse('too_frequent');
      return handler(body as ProductBody, request);
    });
  };
  smsRoutes(post, deps);
  memberRoutes(post, deps);
  qrLoginRoutes(post, deps);
  adRoutes(post, deps);
  hiddenRoutes(post, deps);
  weatherRoutes(post, deps);
  epidemicRoutes(post, deps);
  productUploadRoutes(post, deps);
  profileRoutes(post, deps);
  feedbackRoutes(post, deps);
  blockRoutes(post, deps);
  followRoutes(post, deps);
  certificationRoutes(post, deps);
  noticeRoutes(post, deps);
  taskRoutes(post, deps);
  withdrawalRoutes(post, deps);
  walletRoutes(post, deps);
  shopRoutes(post, deps);
  shopWithdrawalRoutes(post, deps);
  shopProductRoutes(post, deps);
  orderRoutes(post, deps);
  reviewRoutes(post, deps);
  announcementRoutes(post, deps);
  invitationRoutes(post, deps);
  articleRoutes(post, deps);
  videoRoutes(post, deps);
  circleRoutes(post, deps);
  reportRoutes(post, deps);
  addressRoutes(post, deps);
  liveRoutes(post, deps, mayCall);
  liveHookRoutes(app, PRODUCT_API_BASE, deps.live);
  paymentNotifyRoutes(app, PRODUCT_API_BASE, deps.payments);
  indexConfigRoutes(post, deps);
}

/** MEM-12: a call that searches: it has a `keyword` that is not blank. */
function isSearch(body: ProductBody): boolean {
  const keyword = body['keyword'];
  return (typeof keyword === 'string' && keyword.trim() !== '') || typeof keyword === 'number';
}

/** What {@link registerProductApi} builds the product API from: the server's own parts. */
export interface ProductApiParts {
  members: MemberStore;
  loginTickets: LoginTicketStore;
  ads: AdStore;
  hidden: HiddenStore;
  feedback: FeedbackStore;
  blocks: BlockStore;
  addresses: AddressStore;
  follows: FollowStore;
  certifications: CertificationStore;
  notices: NoticeStore;
  tasks: TaskStore;
  withdrawals: WithdrawalStore;
  wallet: WalletStore;
  shops: ShopStore;
  products: ProductStore;
  orders: OrderStore;
  reviews: ReviewStore;
  announcements: AnnouncementStore;
  invitations: InvitationStore;
  articles: ArticleStore;
  channels: ChannelStore;
  circle: CircleStore;
  topics: TopicStore;
  reactions: ReactionStore;
  circleReactions: ReactionStore;
  reports: ReportStore;
  live: LiveStore;
  liveLinks: LiveLinkStore;
  uploadDeletions: UploadDeletionStore;
  /** Publishes the live rooms' events on their channels. */
  pubsub: Pick<PubsubService, 'publish'>;
  /** Who is on a live room's channel: its viewers. */
  channelPresence: Pick<ChannelPresence, 'hereNow'>;
  apps: AppRegistry;
  config: Pick<
    ServerConfig,
    'productAppkey' | 'appShow' | 'cs' | 'dayOffsetMinutes' | 'weather' | 'epidemic' | 'live' | 'alipay' | 'wechat'
  >;
  /** The server's public base URL without a trailing slash, which payment providers come back to. */
  publicUrl: () => string;
  logger: Logger;
  now: () => number;
  /** @default the development provider, which logs codes */
  sms?: SmsProvider | undefined;
  /** The server's upload storage, for member uploads. */
  uploads: UploadService;
  /** With several nodes: the Redis they share, which then keeps the limits per address (MEM-4). */
  redis?: { client: RedisClient; prefix: string } | undefined;
  /** Tells members live of their new notifications (a `notice` user event); none in tests that need no sockets. */
  userEvents?: UserEvents | undefined;
}

/** Sellers told of a new announcement at a time. */
const ANNOUNCEMENT_FANOUT_PAGE = 200;

/** What the server keeps of the product API: the upkeep it runs now and then. */
export interface ProductApi {
  /** Ends the live rooms (LIVE-17) and the guests on stage (LIVE-18) left behind; how many. */
  endStaleLiveRooms(): Promise<number>;
  /** Deletes the files of cancelled accounts still waiting for it (MEM-7); how many. */
  cleanUploads(): Promise<number>;
  /** Takes the orders' time-based steps that no call has prompted ({@link OrderService.sweep}); how many moved. */
  settleOrders(): Promise<number>;
}

/** Builds the member service and registers the product API: the one line `server.ts` needs. */
export function registerProductApi(app: FastifyInstance, parts: ProductApiParts): ProductApi {
  const target = parts.apps.byAppkey(parts.config.productAppkey);
  if (!target)
    parts.logger.warn({ appkey: parts.config.productAppkey }, 'product app not configured; login gives no otp');
  const { redis } = parts;
  if (!parts.sms) {
    parts.logger.warn('development SMS provider: login codes are written to this log, not sent; pass an SmsProvider');
  }
  const blocked = (a: string, b: string) => parts.blocks.between(a, b);
  const uploadCleanup = createUploadCleanup({
    deletions: parts.uploadDeletions,
    uploads: parts.uploads,
    app: target,
    logger: parts.logger,
  });
  const notices = createNoticeService({
    notices: parts.notices,
    members: parts.members,
    blocked,
    now: parts.now,
    // Each of the member's devices hears of it at once, so that the badge changes without a reload.
    onNotified: (memberId, kind, unread) => {
      parts.userEvents?.send({
        appkey: parts.config.productAppkey,
        userId: memberId,
        name: NOTICE_EVENT,
        data: { kind, unread },
      });
    },
  });
  const certifications = createCertificationService({
    certifications: parts.certifications,
    now: parts.now,
    // The member hears of the review (spec §4: under review, then failed with a reason, or passed).
    onReviewed: ({ memberId, submittedAt, status, reason }) =>
      notices.notify(memberId, 'certification', { key: String(submittedAt), data: { status, reason } }),
  });
  const withdrawals = createWithdrawalService({
    withdrawals: parts.withdrawals,
    now: parts.now,
    // The member hears whether the money was sent, or why not and that the coins (a seller's: the money) are back.
    onReviewed: ({ id, memberId, source, amount, status, reason }) =>
      notices.notify(memberId, 'withdrawal', {
        key: id,
        data: { amount, status, reason, ...(source === 'shop' && { source }) },
      }),
  });
  const wallet = createWalletService({
    wallet: parts.wallet,
    now: parts.now,
    // The member hears that the money is in, or why the recharge failed; a recharge that pays a checkout then pays
    // its orders.
    onSettled: async (record) => {
      const { id, memberId, amount, status, reason } = record;
      await notices.notify(memberId, 'recharge', { key: id, data: { amount: yuanOf(amount), status, reason } });
      await orderPayments.settled(record);
    },
  });
  const payments = createPaymentService({
    alipay: parts.config.alipay,
    wechat: parts.config.wechat,
    wallet,
    recharges: parts.wallet,
    publicUrl: parts.publicUrl,
    apiBase: PRODUCT_API_BASE,
    now: parts.now,
    logger: parts.logger,
  });
  const shops = createShopService({
    shops: parts.shops,
    now: parts.now,
    blocked,
    // The member hears whether their shop is open, or why not.
    onReviewed: ({ id, memberId, name, submittedAt, status, reason }) =>
      notices.notify(memberId, 'shop', { key: `${id}:${submittedAt}`, data: { status, reason, title: name } }),
  });
  const products = createProductService({
    products: parts.products,
    now: parts.now,
    blocked,
    // The seller hears whether their product is on sale, or why not.
    onReviewed: ({ id, memberId, title, status, reason }) =>
      notices.notify(memberId, 'product', { key: `${id}:${status}`, data: { product: id, status, reason, title } }),
  });
  operatorProductCategoryRoutes(app, { apps: parts.apps, appkey: parts.config.productAppkey, products });
  // The seller hears of an order paid and of one completed (its money arrives after the return window); the buyer, of
  // one shipped.
  const orderChanged = async ({ id, status, buyerId, sellerId, total, items }: OrderRecord) => {
    if (status !== 'paid' && status !== 'shipped' && status !== 'completed') return;
    const to = status === 'shipped' ? buyerId : sellerId;
    const data = { order: id, status, total: yuanOf(total), title: items[0]?.title ?? '' };
    await notices.notify(to, 'order', { key: `${id}:${status}`, data });
  };
  const orderPayments = createOrderPaymentService({
    orders: parts.orders,
    recharges: parts.wallet,
    payments,
    now: parts.now,
    logger: parts.logger,
    onPaid: async (records) => {
      for (const record of records) await orderChanged(record);
    },
  });
  const orders = createOrderService({
    orders: parts.orders,
    addresses: parts.addresses,
    now: parts.now,
    onChanged: orderChanged,
    // The buyer hears of a late delivery's compensation; the seller, of an order's proceeds once they arrive.
    onGuarantee: async ({ id, buyerId, sellerId, total, compensation, items }, kept) => {
      const title = items[0]?.title ?? '';
      const to = kept === 'compensated' ? buyerId : sellerId;
      const amount = kept === 'compensated' ? compensation : total - compensation;
      await notices.notify(to, 'order', {
        key: `${id}:${kept}`,
        data: { order: id, status: kept, total: yuanOf(amount), title },
      });
    },
    // The seller hears of a refund asked for and of goods sent back; the buyer, of the seller's decision and of the
    // money back.
    onRefund: async ({ id, buyerId, sellerId, items, refund }) => {
      if (!refund || refund.status === 'cancelled') return;
      const to = refund.status === 'pending' || refund.status === 'returned' ? sellerId : buyerId;
      const data = { order: id, status: refund.status, amount: yuanOf(refund.amount), title: items[0]?.title ?? '' };
      await notices.notify(to, 'refund', { key: `${refund.id}:${refund.status}`, data });
    },
  });
  const claims = createClaimService({
    orders: parts.orders,
    settle: () => orders.settle(),
    now: parts.now,
    // The seller hears of a claim filed; the buyer and the seller, of the operator's decision (its reason, or null).
    onClaim: async ({ id, buyerId, sellerId, items, claim }) => {
      if (!claim || claim.status === 'cancelled') return;
      const { kind, status } = claim;
      const reason = claim.reason === '' ? null : claim.reason;
      const data = { order: id, claim: claim.id, kind, status, reason, title: items[0]?.title ?? '' };
      const to = status === 'pending' ? [sellerId] : [buyerId, sellerId];
      for (const memberId of to) await notices.notify(memberId, 'claim', { key: `${claim.id}:${status}`, data });
    },
  });
  operatorClaimRoutes(app, { apps: parts.apps, appkey: parts.config.productAppkey, claims });
  const reviews = createReviewService({
    reviews: parts.reviews,
    orders,
    products,
    now: parts.now,
    // The seller hears of a review of their order; the buyer, of the seller's answer.
    onReviewed: async ({ id, sellerId, items, review }) => {
      const data = { order: id, status: 'reviewed', quality: review?.quality ?? 0, title: items[0]?.title ?? '' };
      await notices.notify(sellerId, 'review', { key: `${id}:reviewed`, data });
    },
    onReplied: async ({ orderId, buyerId, items, quality }) => {
      const data = { order: orderId, status: 'replied', quality, title: items[0]?.title ?? '' };
      await notices.notify(buyerId, 'review', { key: `${orderId}:replied`, data });
    },
  });
  const announcements = createAnnouncementService({
    announcements: parts.announcements,
    shops,
    now: parts.now,
    // Every seller whose shop is open hears of a new announcement; the notification opens it.
    onPublished: async ({ id, title }) => {
      let after: string | undefined;
      for (;;) {
        const page = await parts.shops.list({ status: 'approved', after, limit: ANNOUNCEMENT_FANOUT_PAGE });
        if (!page || page.length === 0) return;
        const data = { announcement: id, title };
        await Promise.all(page.map((shop) => notices.notify(shop.memberId, 'announcement', { key: id, data })));
        after = page.at(-1)?.id;
      }
    },
  });
  operatorAnnouncementRoutes(app, { apps: parts.apps, appkey: parts.config.productAppkey, announcements });
  const articles = createArticleService({ articles: parts.articles, blocked, now: parts.now });
  const circle = createCircleService({ circle: parts.circle, blocked, now: parts.now });
  // The author of an article or a post hears of each comment on it and each new like, and the writer of a comment of
  // each answer to it (`reply`), but nobody of their own; a comment deleted or a like undone takes its notification
  // back.
  const told = (comment: CommentRecord, on: ReactionSubject) =>
    [...new Set([comment.replyTo?.memberId ?? on.memberId, on.memberId])].filter((id) => id !== comment.memberId);
  const reactionNotices = (subject: 'article' | 'quanzi') => ({
    onCommented: async (comment: CommentRecord, on: ReactionSubject) => {
      const content = lineStart(comment.content, REACTION_LIMITS.noticeExcerpt);
      for (const memberId of told(comment, on)) {
        const reply = memberId === comment.replyTo?.memberId;
        await notices.notify(memberId, 'comment', {
          key: `${subject}:${comment.id}`,
          actorId: comment.memberId,
          data: { subject, id: on.id, title: on.title, comment: comment.id, content, ...(reply && { reply }) },
        });
      }
    },
    onLiked: async (memberId: string, on: ReactionSubject) => {
      if (memberId === on.memberId) return;
      await notices.notify(on.memberId, 'like', {
        key: `${subject}:${on.id}:${memberId}`,
        actorId: memberId,
        data: { subject, id: on.id, title: on.title },
      });
    },
    onCommentRemoved: async (comment: CommentRecord, on: ReactionSubject) => {
      for (const memberId of told(comment, on)) await notices.withdraw(memberId, 'comment', `${subject}:${comment.id}`);
    },
    onUnliked: (memberId: string, on: ReactionSubject) =>
      notices.withdraw(on.memberId, 'like', `${subject}:${on.id}:${memberId}`),
  });
  const articleReactions = createReactionService({
    reactions: parts.reactions,
    view: async (id, viewerId) => {
      const article = await articles.view(id, viewerId);
      if (!article.ok) return article;
      const { memberId, title } = article.value;
      return { ok: true, value: { id: article.value.id, memberId, title } };
    },
    blocked,
    now: parts.now,
    ...reactionNotices('article'),
  });
  const circleReactions = createReactionService({
    reactions: parts.circleReactions,
    view: async (id, viewerId) => {
      const post = await circle.view(id, viewerId);
      if (!post.ok) return post;
      return {
        ok: true,
        value: { id: post.value.id, memberId: post.value.memberId, title: postTitle(post.value) },
      };
    },
    blocked,
    now: parts.now,
    ...reactionNotices('quanzi'),
  });
  const members = createMemberService({
    members: parts.members,
    sms: parts.sms ?? createDevSmsProvider(parts.logger),
    now: parts.now,
  });
  const reports = createReportService({
    reports: parts.reports,
    articles,
    circle,
    members,
    comments: { ping: articleReactions, quanzi_ping: circleReactions },
    now: parts.now,
    // Each reporter hears the decision on what they reported; the member an uphold acted on, what it did and why.
    onReviewed: async ({ closed, authorId }) => {
      for (const { id, memberId, type, status, reason, title } of closed) {
        await notices.notify(memberId, 'report', { key: id, data: { report: id, type, status, reason, title } });
      }
      const decided = closed[0];
      if (authorId === undefined || !decided) return;
      if (decided.type === 'user') {
        await notices.notify(authorId, 'profile_reset', { key: decided.id, data: { reason: decided.reason } });
      } else {
        const { type, title, reason } = decided;
        await notices.notify(authorId, 'content_removed', { key: decided.id, data: { type, title, reason } });
      }
    },
  });
  const channels = createChannelService({ channels: parts.channels, now: parts.now });
  operatorChannelRoutes(app, { apps: parts.apps, appkey: parts.config.productAppkey, channels });
  const ads = createAdService({ ads: parts.ads, now: parts.now });
  operatorAdRoutes(app, { apps: parts.apps, appkey: parts.config.productAppkey, ads });
  const topics = createTopicService({ topics: parts.topics, now: parts.now });
  operatorTopicRoutes(app, { apps: parts.apps, appkey: parts.config.productAppkey, topics });
  operatorReviewRoutes(app, {
    apps: parts.apps,
    appkey: parts.config.productAppkey,
    certifications,
    withdrawals,
    wallet,
    shops,
    products,
    reports,
  });
  const live = createLiveService({
    live: parts.live,
    links: parts.liveLinks,
    products: parts.products,
    members,
    config: parts.config.live,
    blocked,
    // The write stands when the publish fails: viewers see it on their next view.
    publish: async (channel, event) => {
      if (!target) return;
      try {
        await parts.pubsub.publish({
          app: target,
          userId: null,
          channel,
          content: JSON.stringify(event),
          guid: randomUUID().replace(/-/g, ''),
          qos: 0,
          trusted: true,
        });
      } catch (err) {
        parts.logger.warn({ err, channel }, 'live event not published');
      }
    },
    viewers: async (channel) => (await parts.channelPresence.hereNow(parts.config.productAppkey, channel, 1)).amount,
    accessToken: ({ memberId, channel, expiresAt }) =>
      target?.requireAccessToken
        ? signToken(target.secretKey, { u: memberId, c: channel, p: 'r', e: expiresAt })
        : null,
    now: parts.now,
  });
  productRoutes(app, {
    members,
    qrLogin: createQrLoginService({ tickets: parts.loginTickets, members, now: parts.now }),
    ads,
    hidden: parts.hidden,
    weather: createWeatherService({ config: parts.config.weather, now: parts.now }),
    epidemic: createEpidemicService({ config: parts.config.epidemic, now: parts.now }),
    feedback: createFeedbackService({ feedback: parts.feedback, now: parts.now }),
    blocks: createBlockService({ blocks: parts.blocks, members: parts.members, now: parts.now }),
    addresses: createAddressService({ addresses: parts.addresses, now: parts.now }),
    follows: createFollowService({
      follows: parts.follows,
      members: parts.members,
      blocked,
      now: parts.now,
      onFollowed: (memberId, followedId) => notices.notify(followedId, 'follow', { key: memberId, actorId: memberId }),
    }),
    notices,
    certifications,
    withdrawals,
    wallet,
    payments,
    shops,
    shopWithdrawals: createShopWithdrawalService({
      withdrawals: parts.withdrawals,
      shops: parts.shops,
      now: parts.now,
      settleOrders: () => orders.settle(),
    }),
    products,
    orders,
    claims,
    orderPayments,
    reviews,
    announcements,
    articles,
    channels,
    circle,
    topics,
    reactions: articleReactions,
    circleReactions,
    reports,
    live,
    invitations: createInvitationService({
      invitations: parts.invitations,
      members: parts.members,
      now: parts.now,
      // The inviter hears who joined and what it paid.
      onInvited: ({ inviterId, inviteeId, coins }) =>
        notices.notify(inviterId, 'invitation', { key: inviteeId, actorId: inviteeId, data: { coins } }),
    }),
    tasks: createTaskService({
      tasks: parts.tasks,
      now: parts.now,
      dayOffsetMinutes: parts.config.dayOffsetMinutes,
    }),
    issueOtp: (userId) => target && issueOtp({ secretKey: target.secretKey, userId, now: parts.now() }).otp,
    app: { appkey: parts.config.productAppkey, appShow: parts.config.appShow },
    cs: parts.config.cs,
    uploads: { service: parts.uploads, app: target },
    cleanUploads: () => uploadCleanup.run(),
    now: parts.now,
    limiter: redis && ((path, limit) => new RedisAddressLimiter({ ...redis, path, limit, logger: parts.logger })),
  });
  return {
    endStaleLiveRooms: () => live.endStale(),
    cleanUploads: () => uploadCleanup.run(),
    settleOrders: () => orders.sweep(),
  };
}
