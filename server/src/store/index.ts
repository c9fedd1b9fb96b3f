import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { ServerConfig } from '../config.js';
import { migrationProvider } from './migrations.js';
import { startCheckpointer, type Checkpointer } from './checkpointer.js';
import { openSqliteFile } from './sqlite-file.js';
import { withStatementCache } from './statement-cache.js';
import { LaterWrites } from './later-writes.js';
import { createSyncSqlite, type SyncSqlite } from './sync-sqlite.js';
import type { Database } from './schema.js';
import { createConversationStore, type ConversationStore } from './conversations.js';
import { PrivateRows, ShownRows } from './shown-rows.js';
import { createCsStore, type CsStore } from './cs.js';
import { createGroupStore, type GroupStore } from './groups.js';
import { createMessageStore, type MessageStore } from './im.js';
import { createAddressStore, type AddressStore } from './addresses.js';
import { createBlockStore, type BlockStore } from './blocks.js';
import { createFeedbackStore, type FeedbackStore } from './feedback.js';
import { createLoginTicketStore, type LoginTicketStore } from './login-tickets.js';
import { createAdStore, type AdStore } from './ads.js';
import { createHiddenStore, type HiddenStore } from './hidden.js';
import { createLiveStore, type LiveStore } from './live.js';
import { createLiveLinkStore, type LiveLinkStore } from './live-links.js';
import { createFollowStore, type FollowStore } from './follows.js';
import { createNoticeStore, type NoticeStore } from './notices.js';
import { createTaskStore, type TaskStore } from './tasks.js';
import { createWalletStore, type WalletStore } from './wallet.js';
import { createShopStore, type ShopStore } from './shops.js';
import { createProductStore, type ProductStore } from './products.js';
import { createOrderSteps, type OrderStore } from './orders.js';
import { createGuaranteeSteps } from './order-guarantees.js';
import { createClaimSteps } from './order-claims.js';
import { createRefundSteps } from './order-refunds.js';
import { createReviewStore, type ReviewStore } from './order-reviews.js';
import { createAnnouncementStore, type AnnouncementStore } from './shop-announcements.js';
import { createWithdrawalStore, type WithdrawalStore } from './withdrawals.js';
import { createInvitationStore, type InvitationStore } from './invitations.js';
import { createArticleStore, type ArticleStore } from './articles.js';
import { createChannelStore, type ChannelStore } from './channels.js';
import { createCircleStore, type CircleStore } from './circle.js';
import { createTopicStore, type TopicStore } from './topics.js';
import { ARTICLE_REACTIONS, CIRCLE_REACTIONS, createReactionStore, type ReactionStore } from './reactions.js';
import { createReportStore, type ReportStore } from './reports.js';
import { createCertificationStore, type CertificationStore } from './certifications.js';
import { createMemberStore, type MemberStore } from './members.js';
import { createPresenceSubscriptionStore, type PresenceSubscriptionStore } from './presence-subscriptions.js';
import { createPubsubStore, type PubsubStore } from './pubsub.js';
import { createUploadDeletionStore, type UploadDeletionStore } from './upload-deletions.js';
import { createPubsubSessionStore, type PubsubSessionStore } from './pubsub-sessions.js';
import { createSessionStore, type SessionStore } from './sessions.js';
import { createUserStore, type UserStore } from './users.js';
import { createWebhookDeliveryStore, type WebhookDeliveryStore } from './webhook-deliveries.js';

export type { ConversationRecord, ConversationStore, ConversationTouch } from './conversations.js';
export type { CsAgentRecord, CsConversationRecord, CsConversationTouch, CsSessionRecord, CsStore } from './cs.js';
export type { CsConversationKey, CsMessageStore, CsStoredMessage } from './cs-messages.js';
export type { AddressFields, AddressRecord, AddressStore } from './addresses.js';
export type { BlockRecord, BlockStore } from './blocks.js';
export type { FeedbackRecord, FeedbackStore } from './feedback.js';
export type { LoginTicketRecord, LoginTicketStatus, LoginTicketStore } from './login-tickets.js';
export { AD_POSITIONS } from './ads.js';
export type { AdChanges, AdPosition, AdRecord, AdStore } from './ads.js';
export type { HiddenKind, HiddenStore } from './hidden.js';
export { LIVE_STATUS } from './live.js';
export type {
  LiveAddOutcome,
  LiveBanKind,
  LiveBanOutcome,
  LiveBanRecord,
  LiveLineRecord,
  LiveMember,
  LiveRoomRecord,
  LiveStatus,
  LiveStore,
  NewLiveRoom,
} from './live.js';
export { LIVE_LINK_OPEN } from './live-links.js';
export type {
  LiveLinkAcceptOutcome,
  LiveLinkRecord,
  LiveLinkRequestOutcome,
  LiveLinkStatus,
  LiveLinkStore,
} from './live-links.js';
export type { FollowOutcome, FollowRecord, FollowSide, FollowStore } from './follows.js';
export type { NoticeKind, NoticeRecord, NoticeStore } from './notices.js';
export type { CoinKind, CoinRecord, SignInRecord, SignInRules, TaskStore } from './tasks.js';
export type { InvitationRecord, InvitationRules, InvitationStore } from './invitations.js';
export type { ArticleRecord, ArticleStore, PublishOutcome } from './articles.js';
export type { ChannelOutcome, ChannelRecord, ChannelStore } from './channels.js';
export type { CirclePostRecord, CircleStore, CircleVote, VoteOutcome, VoteTally } from './circle.js';
export type { TopicOutcome, TopicRecord, TopicStore, TopicWithCount } from './topics.js';
export type { ReportOutcome, ReportRecord, ReportReview, ReportStatus, ReportStore, ReportType } from './reports.js';
export { signUpNickname } from './members.js';
export type { ReactionStore, CommentRecord, LikeRecord, ReactionCounts } from './reactions.js';
export type {
  PayoutAccounts,
  PayoutMethod,
  WithdrawalRecord,
  WithdrawalStatus,
  WithdrawalStore,
  WithdrawOutcome,
  WithdrawalSource,
  ShopIncome,
  ShopWithdrawOutcome,
} from './withdrawals.js';
export type {
  MoneyKind,
  MoneyLine,
  RechargeMethod,
  RechargeOutcome,
  RechargeRecord,
  RechargeStatus,
  WalletStore,
} from './wallet.js';
export type { ShopApplyOutcome, ShopRecord, ShopStatus, ShopStore } from './shops.js';
export type {
  CategoryOutcome,
  CategoryRecord,
  ProductAddOutcome,
  ProductFields,
  MarkedProduct,
  ProductList,
  ProductRecord,
  ProductStatus,
  ProductStore,
} from './products.js';
export type {
  Logistics,
  OrderAddress,
  OrderItem,
  OrderLine,
  OrderRecord,
  OrderReview,
  OrderStatus,
  OrderStore,
  PayFailure,
  PayMethod,
  PlaceFailure,
  RefundRecord,
  RefundStatus,
} from './orders.js';
export type { GuaranteeSteps, LateDelivery } from './order-guarantees.js';
export type {
  ClaimDecision,
  ClaimFileFailure,
  ClaimKind,
  ClaimRecord,
  ClaimStatus,
  ClaimSteps,
} from './order-claims.js';
export type { RefundApplyFailure, RefundDecision } from './order-refunds.js';
export type { ReviewFailure, ReviewRecord, ReviewStore, ReviewSummary } from './order-reviews.js';
export type { AnnouncementRecord, AnnouncementStore, MemberAnnouncement } from './shop-announcements.js';
export type {
  CertificationRecord,
  CertificationStatus,
  CertificationStore,
  CertificationType,
  SubmitOutcome,
} from './certifications.js';
export type { GroupStore } from './groups.js';
export type { AppendResult, MessageStore, NewMessage, ReadOffset, StoredMessage } from './im.js';
export type { MemberCodeQuota, MemberCodeRecord, MemberDetails, MemberRecord, MemberStore } from './members.js';
export { NO_DETAILS } from './members.js';
export type { PresenceSubscriptionStore } from './presence-subscriptions.js';
export type { PubsubStore, StoredPubsubMessage } from './pubsub.js';
export type {
  PendingMessage,
  PubsubSessionStore,
  SessionConnection,
  StoredSubscriberSession,
} from './pubsub-sessions.js';
export type { ReplayHorizon, SessionRecord, SessionStore } from './sessions.js';
export type { UploadDeletion, UploadDeletionStore } from './upload-deletions.js';
export type { UserRecord, UserStore } from './users.js';
export type { StoredWebhookDelivery, WebhookDeliveryStore, WebhookDeliveryWrites } from './webhook-deliveries.js';

/** Which database a store runs on. */
export type StoreDialect = 'sqlite' | 'postgres';

/** Everything the server keeps. Domain services get it; only files in `store/` see SQL. */
export interface Store {
  /** Which database this is. */
  readonly dialect: StoreDialect;
  /** Authorize sessions. */
  readonly sessions: SessionStore;
  /** Users' data as last authorized. */
  readonly users: UserStore;
  /** IM messages, deletions and read offsets. */
  readonly messages: MessageStore;
  /** Per-user IM conversation rows. */
  readonly conversations: ConversationStore;
  /** Group membership. */
  readonly groups: GroupStore;
  /** User and group presence subscriptions. */
  readonly presenceSubscriptions: PresenceSubscriptionStore;
  /** Pub/sub channel history. */
  readonly pubsub: PubsubStore;
  /** Pub/sub sessions: subscriptions, presence watches and unacked qos-1 messages. */
  readonly pubsubSessions: PubsubSessionStore;
  /** Customer service: teams and agents, sessions, messages, conversation rows. */
  readonly cs: CsStore;
  /** Product app members, login tokens and SMS codes. */
  readonly members: MemberStore;
  /** Sign-ins by QR code: the tickets devices show and members' phones confirm. */
  readonly loginTickets: LoginTicketStore;
  /** The operator's ads and how often each was shown and tapped. */
  readonly ads: AdStore;
  /** What members hid from their feeds ("Not interested"). */
  readonly hidden: HiddenStore;
  /** What product app members report through the feedback page. */
  readonly feedback: FeedbackStore;
  /** The product app's block lists. */
  readonly blocks: BlockStore;
  /** The product app's shipping addresses. */
  readonly addresses: AddressStore;
  /** Who follows whom in the product app. */
  readonly follows: FollowStore;
  /** The product app's real-name certifications. */
  readonly certifications: CertificationStore;
  /** The product app's notifications and their settings. */
  readonly notices: NoticeStore;
  /** The task centre's sign-ins and gold coins. */
  readonly tasks: TaskStore;
  /** Gold-coin withdrawals and the accounts they are paid to (they take coins from the tasks' ledger). */
  readonly withdrawals: WithdrawalStore;
  /** Members' money wallets: recharges and the ledger of their money. */
  readonly wallet: WalletStore;
  /** Members' small shops and their applications. */
  readonly shops: ShopStore;
  /** The shops' products and the operator's classifications of them. */
  readonly products: ProductStore;
  /** The shop's orders: checkouts, payment from the wallet, shipping and receipt. */
  readonly orders: OrderStore;
  /** The buyers' reviews of their completed orders and the sellers' answers. */
  readonly reviews: ReviewStore;
  /** The operator's announcements to sellers and which of them each member has read. */
  readonly announcements: AnnouncementStore;
  /** Who signed up with whose invitation code (they pay coins into the tasks' ledger). */
  readonly invitations: InvitationStore;
  /** Members' articles. */
  readonly articles: ArticleStore;
  /** The channels articles are filed under, and each member's choice of them. */
  readonly channels: ChannelStore;
  /** Members' circle posts and the votes cast on them. */
  readonly circle: CircleStore;
  /** The operator's topics of the circle. */
  readonly topics: TopicStore;
  /** Comments on articles and likes of them. */
  readonly reactions: ReactionStore;
  /** Comments on circle posts and likes of them. */
  readonly circleReactions: ReactionStore;
  /** Members' reports of content and the operator's decisions. */
  readonly reports: ReportStore;
  /** Live rooms, their chat lines and the anchors' bans of viewers. */
  readonly live: LiveStore;
  /** Co-broadcast links of live rooms: viewers' requests to join the anchor on stage, and the guests there. */
  readonly liveLinks: LiveLinkStore;
  /** The files of cancelled accounts, waiting to be deleted from the upload storage (MEM-7). */
  readonly uploadDeletions: UploadDeletionStore;
  /** Webhook deliveries not yet answered nor given up, and which node holds each (HOOK-8). */
  readonly webhookDeliveries: WebhookDeliveryStore;
  /** Brings the schema up to date; safe to run again and from several nodes at once. */
  migrate(): Promise<void>;
  /** Releases the connection or pool; later calls do nothing. */
  close(): Promise<void>;
}

/** The config fields a store needs. */
export type StoreConfig = Pick<ServerConfig, 'databaseUrl' | 'databaseSchema' | 'dataDir' | 'sqlite'> &
  Partial<Pick<ServerConfig, 'sqliteShared'>>;

/** PostgreSQL `int8` (bigint); we keep ms timestamps in it, which fit a JS number until the year 287396. */
const PG_INT8_OID = 20;
const int8AsNumber = (value: string): number => Number(value);

/**
 * Opens the store without migrating: PostgreSQL when `databaseUrl` is set, else SQLite in WAL mode at `sqlite`
 * (a path, or `:memory:`), by default `<dataDir>/parley.db`.
 */
export function createStore(config: StoreConfig): Store {
  return config.databaseUrl
    ? createPostgresStore(config.databaseUrl, config.databaseSchema)
    : createSqliteStore(config);
}

/** Opens the store and migrates it: what a server or a test usually wants. */
export async function openStore(config: StoreConfig): Promise<Store> {
  const store = createStore(config);
  try {
    await store.migrate();
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}

function createSqliteStore(config: StoreConfig): Store {
  const file = config.sqlite ?? join(config.dataDir, 'parley.db');
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const warn = (message: string) => process.emitWarning(message);
  // By default the file is this process's alone (sqlite-file.ts): no file locks in its transactions.
  const { database, name } =
    file === ':memory:'
      ? { database: new BetterSqlite3(file), name: file }
      : openSqliteFile(file, { shared: config.sqliteShared, onWarning: warn });
  // WAL lets readers proceed while a write commits; busy_timeout rides out another connection holding the lock.
  database.pragma('journal_mode = WAL');
  // In WAL mode NORMAL never corrupts and survives a process crash; it only skips the fsync per commit, which
  // would otherwise bound the message rate by the disk's flush latency.
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  let checkpointer: Checkpointer | undefined;
  if (file !== ':memory:') {
    // Checkpoints run on a connection of their own in a worker thread (see checkpointer.ts).
    database.pragma('wal_autocheckpoint = 0');
    // The worker copies the log; this connection starts it over when asked, and keeps its file small.
    checkpointer = startCheckpointer(name, {
      writer: database,
      // A failed checkpoint is retried on the next tick of the worker; the log only grows meanwhile.
      onError: (message) => warn(`SQLite checkpoint failed: ${message}`),
    });
  }
  const cached = withStatementCache(database);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cached }) });
  return wrap('sqlite', db, undefined, () => checkpointer?.close(), createSyncSqlite(cached));
}

function createPostgresStore(connectionString: string, schema: string | undefined): Store {
  const pool = new pg.Pool({
    connectionString,
    // Scoped to this pool, unlike pg.types.setTypeParser, so that other pg users in the process are unaffected.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown =>
        oid === PG_INT8_OID ? int8AsNumber : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return wrap('postgres', db, schema);
}

function wrap(
  dialect: StoreDialect,
  db: Kysely<Database>,
  schema: string | undefined,
  beforeClose: () => Promise<void> | undefined = () => undefined,
  sync?: SyncSqlite,
): Store {
  let closed = false;
  // SQLite is one process: what it wrote can be remembered (shown-rows.ts). Several nodes share PostgreSQL.
  const shown = sync ? new ShownRows() : undefined;
  const privateRows = sync ? new PrivateRows() : undefined;
  // SQLite: senders' read offsets and conversations' head times are written a moment after their messages
  // (later-writes.ts).
  const later = sync
    ? new LaterWrites(sync, (err) =>
        process.emitWarning(`Writing IM bookkeeping failed: ${err instanceof Error ? err.message : String(err)}`),
      )
    : undefined;
  const conversations = createConversationStore(db, shown, later, privateRows);
  return {
    dialect,
    sessions: createSessionStore(db),
    users: createUserStore(db),
    messages: createMessageStore(db, dialect, conversations, sync, shown, later, privateRows),
    conversations,
    groups: createGroupStore(db, sync),
    presenceSubscriptions: createPresenceSubscriptionStore(db),
    pubsub: createPubsubStore(db, dialect),
    pubsubSessions: createPubsubSessionStore(db),
    cs: createCsStore(db),
    members: createMemberStore(db, dialect),
    loginTickets: createLoginTicketStore(db),
    ads: createAdStore(db),
    hidden: createHiddenStore(db),
    feedback: createFeedbackStore(db, dialect),
    blocks: createBlockStore(db, dialect),
    addresses: createAddressStore(db, dialect),
    follows: createFollowStore(db, dialect),
    certifications: createCertificationStore(db, dialect),
    notices: createNoticeStore(db),
    tasks: createTaskStore(db, dialect),
    withdrawals: createWithdrawalStore(db, dialect),
    wallet: createWalletStore(db, dialect),
    shops: createShopStore(db, dialect),
    products: createProductStore(db, dialect),
    orders: {
      ...createOrderSteps(db, dialect),
      ...createRefundSteps(db),
      ...createGuaranteeSteps(db),
      ...createClaimSteps(db, dialect),
    },
    reviews: createReviewStore(db),
    announcements: createAnnouncementStore(db),
    invitations: createInvitationStore(db, dialect),
    articles: createArticleStore(db, dialect),
    channels: createChannelStore(db, dialect),
    circle: createCircleStore(db, dialect),
    topics: createTopicStore(db, dialect),
    reactions: createReactionStore(db, dialect, ARTICLE_REACTIONS),
    circleReactions: createReactionStore(db, dialect, CIRCLE_REACTIONS),
    reports: createReportStore(db, dialect),
    live: createLiveStore(db, dialect),
    liveLinks: createLiveLinkStore(db, dialect),
    uploadDeletions: createUploadDeletionStore(db),
    webhookDeliveries: createWebhookDeliveryStore(db, dialect),
    async migrate() {
      if (schema) await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
      // With a schema, the migrator must look for its own tables there: by default it would take a
      // kysely_migration table in any other schema for its own.
      const migrator = new Migrator({
        db,
        provider: migrationProvider,
        ...(schema ? { migrationTableSchema: schema } : {}),
      });
      const { error, results } = await migrator.migrateToLatest();
      if (error) {
        const failed = results?.find((r) => r.status === 'Error')?.migrationName;
        const reason = error instanceof Error ? error.message : JSON.stringify(error);
        throw new Error(`Migration ${failed ?? '(unknown)'} failed: ${reason}`, {
          cause: error,
        });
      }
      later?.recover();
    },
    async close() {
      if (closed) return;
      closed = true;
      later?.close();
      await beforeClose();
      await db.destroy();
    },
  };
}
