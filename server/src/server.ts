import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { createHttp } from './api/index.js';
import { createAppRegistry } from './auth/apps.js';
import { createSessionService } from './auth/sessions.js';
import { DEMO_APP, type ServerConfig } from './config.js';
import { registerCsHandlers } from './gateway/cs-handlers.js';
import { registerImHandlers } from './gateway/im-handlers.js';
import { createGateway, type Gateway } from './gateway/index.js';
import { registerPing } from './gateway/ping.js';
import { registerPresenceHandlers } from './gateway/presence-handlers.js';
import { LateJoins } from './gateway/late-joins.js';
import { lateChannelJoins, registerPubsubHandlers, socketIoFanout } from './gateway/pubsub-handlers.js';
import { createRedisConnection, reconnectClients } from './gateway/redis-adapter.js';
import { createCsServices, redisCsTurns, tokenAgentPolicy } from './cs/index.js';
import { createConversationService } from './im/conversations.js';
import { createGroupService } from './im/groups.js';
import { createMessageService } from './im/messages.js';
import { createUserDirectory } from './im/users.js';
import { createLogger, type Logger } from './logger.js';
import { createMetrics, metricsRoutes } from './metrics.js';
import { createWebhooks, webhookListeners, type Webhooks } from './webhooks.js';
import { createClusterMembership } from './presence/cluster.js';
import { createRedisPresenceRegistry } from './presence/redis-registry.js';
import { createMemoryPresenceRegistry } from './presence/registry.js';
import { createPresenceService } from './presence/service.js';
import { pubsubRoutes } from './api/pubsub.js';
import { userEventRoutes } from './api/user-events.js';
import { imMessageRoutes } from './api/im-messages.js';
import { imGroupRoutes } from './api/im-groups.js';
import { createUserEvents } from './user-events.js';
import { productAgentPolicy, productRoster } from './api/product/cs.js';
import { registerProductApi } from './api/product/index.js';
import type { SmsProvider } from './members/sms.js';
import { MemoryChannelPresence } from './pubsub/presence.js';
import { createRedisChannelPresence } from './pubsub/redis-presence.js';
import { createPubsubService } from './pubsub/service.js';
import { createStore, type Store } from './store/index.js';
import { uploadRoutes } from './api/uploads.js';
import { registerUploadHandlers } from './gateway/upload-handlers.js';
import { createUploadService, type UploadService } from './uploads/service.js';

/** Options that are not configuration: what a host process or a test injects. */
export interface ParleyServerOptions {
  /** @default a pino logger at the configured level */
  logger?: Logger;
  /** The clock, in ms since the epoch. @default Date.now */
  now?: () => number;
  /**
   * Serve customer service (the `CS_*` requests). Off only for tests of the gateway itself, which need a known
   * event without a handler. @default true
   */
  customerService?: boolean;
  /** Sends login codes of the product API. @default the development provider, which logs them */
  sms?: SmsProvider;
  /** The waits between a webhook delivery's attempts (HOOK-3). @default WEBHOOK_LIMITS.retryDelaysMs */
  webhookRetryDelaysMs?: readonly number[];
}

/** Where a started server listens. */
export interface ListeningAddress {
  port: number;
  /** Base URL for clients, e.g. `http://127.0.0.1:3000`. */
  url: string;
}

/** A Parley server: socket.io and HTTP on one port, over one store. */
export interface ParleyServer {
  /** Migrates the store, connects Redis when configured, and starts listening. */
  listen(): Promise<ListeningAddress>;
  /**
   * Stops accepting, closes every client connection at the transport (so that clients reconnect, to this node
   * when it comes back or to another), then closes socket.io, HTTP, Redis and the store. Safe to call twice.
   */
  close(): Promise<void>;
  /** The socket.io server. */
  readonly io: Server;
  /** The store. */
  readonly store: Store;
  /** Where modules register their handlers. */
  readonly gateway: Gateway;
  /** The configuration it runs with. */
  readonly config: ServerConfig;
  /** Signed direct uploads and the server's own file storage, for IM and the product API alike. */
  readonly uploads: UploadService;
}

/** Builds a server from validated config: store -> services -> gateway + HTTP on one node http server. */
export function createParleyServer(config: ServerConfig, options: ParleyServerOptions = {}): ParleyServer {
  const logger = options.logger ?? createLogger(config.logLevel);
  const now = options.now ?? Date.now;
  let shuttingDown = false;

  const store = createStore(config);
  const apps = createAppRegistry(config.apps);
  for (const app of config.apps.filter((a) => a.secretKey === DEMO_APP.secretKey)) {
    logger.warn(
      { appkey: app.appkey },
      'this app signs with the public demo secret key: anyone can make otps and tokens for it; set PARLEY_APPS',
    );
  }
  const sessions = createSessionService({ apps, sessions: store.sessions, sessionTtlMs: config.sessionTtlMs, now });
  const http = createHttp({
    apps,
    appDir: config.appDir,
    logger,
    now,
    isShuttingDown: () => shuttingDown,
    trustProxy: config.trustProxy,
  });
  // METRICS-1: only with a token to ask for them.
  const metrics = config.metricsToken === undefined ? undefined : createMetrics();
  if (metrics && config.metricsToken !== undefined) metricsRoutes(http, metrics, config.metricsToken);
  const io = new Server(http.server, {
    path: '/socket.io',
    allowEIO3: true,
    cors: { origin: true },
  });
  const gateway = createGateway({
    io,
    sessions,
    rateLimit: config.rateLimit,
    authorizeTimeoutMs: config.authorizeTimeoutMs,
    maxUserConnections: config.maxUserConnections,
    logger,
    now,
    metrics,
  });
  if (metrics) metrics.connections = () => gateway.connectionCounts();
  registerPing(gateway, now);

  // One node keeps presence in memory; with REDIS_URL, nodes share presence and online counts through Redis.
  const nodeId = randomUUID();
  const redis = config.redisUrl
    ? createRedisConnection({ url: config.redisUrl, prefix: config.redisPrefix, logger })
    : undefined;
  const shared = redis && { client: redis.client, prefix: config.redisPrefix, nodeId };
  const webhooks: Webhooks = createWebhooks({
    logger,
    now,
    retryDelaysMs: options.webhookRetryDelaysMs,
    // HOOK-8: deliveries wait in the store until answered, so that a restart, or another node, sends what this one left.
    keeping: { store: store.webhookDeliveries, nodeId, appOf: (appkey) => apps.byAppkey(appkey) },
    metrics,
  });
  if (metrics) metrics.webhooksWaiting = () => webhooks.waiting();
  // HOOK-1, HOOK-4..HOOK-6: what each app's server hears of, when it has a webhook.
  const hooks = webhookListeners(webhooks, (appkey) => apps.byAppkey(appkey));
  const presence = createPresenceService({
    registry: shared ? createRedisPresenceRegistry(shared) : createMemoryPresenceRegistry(),
    users: store.users,
    groups: store.groups,
    subscriptions: store.presenceSubscriptions,
    pusher: gateway.pusher,
    now,
    onPresence: hooks.presence,
  });
  const groups = createGroupService({
    groups: store.groups,
    conversations: store.conversations,
    messages: store.messages,
    presence,
    now,
    onMembership: hooks.membership,
  });
  const users = createUserDirectory({ users: store.users, now });
  const productAgents = { productAppkey: config.productAppkey, cs: config.cs, members: store.members };
  const cs = createCsServices({
    cs: store.cs,
    messages: store.messages,
    pusher: gateway.pusher,
    now,
    agentPolicy: productAgentPolicy({ ...productAgents, fallback: tokenAgentPolicy(now) }),
    roster: productRoster(productAgents),
    turns: shared && redisCsTurns({ client: shared.client, prefix: shared.prefix, logger }),
    events: hooks.cs,
  });
  const messages = createMessageService({
    messages: store.messages,
    groups,
    pusher: gateway.pusher,
    now,
    cs: cs.im,
    // IM-29: the product app's members who blocked each other exchange no private messages.
    mayMessage: async (appkey, from, to) => appkey !== config.productAppkey || !(await store.blocks.between(from, to)),
    events: hooks.messages,
  });
  const conversations = createConversationService({
    conversations: store.conversations,
    messages: store.messages,
    users,
    cs: cs.im,
    pusher: gateway.pusher,
  });
  // IM first: its connection listener stores the user's data, which presence queries may read right after.
  registerImHandlers(gateway, { messages, conversations, groups, users });
  imMessageRoutes(http, { apps, messages, users });
  imGroupRoutes(http, { apps, groups, users });
  registerPresenceHandlers(gateway, presence);
  if (options.customerService !== false) registerCsHandlers(gateway, cs);
  const channelPresence = shared
    ? createRedisChannelPresence({ ...shared, backWithinMs: config.sessionTtlMs })
    : new MemoryChannelPresence(config.sessionTtlMs);
  // Subscribers that joined after messages still crossing from other nodes (PUB-9); read by the Redis adapter.
  const lateJoins = new LateJoins(now);
  const pubsub = createPubsubService({
    store: store.pubsub,
    sessions: store.pubsubSessions,
    presence: channelPresence,
    fanout: socketIoFanout(io, lateJoins, metrics),
    nodeId,
    soleNode: !redis,
    history: config.pubsubHistory,
    sessionTtlMs: config.sessionTtlMs,
    now,
    logger,
  });
  registerPubsubHandlers(gateway, io, pubsub);
  pubsubRoutes(http, { apps, pubsub });
  const userEvents = createUserEvents({ pusher: gateway.pusher, now });
  userEventRoutes(http, { apps, userEvents });
  // Nodes sharing Redis watch each other's heartbeats; one that stops without cleanup has its users go offline.
  const cluster =
    shared &&
    createClusterMembership({
      ...shared,
      now,
      logger,
      onNodeGone: async (gone) => {
        await presence.nodeGone(gone);
        await pubsub.nodeGone(gone);
      },
      onRevived: () => reconnectClients(io),
    });
  // The upload host is the public URL; without PARLEY_PUBLIC_URL it is known only once listening (port 0 in tests).
  let publicUrl = config.publicUrl;
  const uploads = createUploadService({
    config: config.uploads,
    dataDir: config.dataDir,
    apps,
    publicUrl: () => publicUrl ?? `http://localhost:${config.port}`,
    now,
    logger,
  });
  registerUploadHandlers(gateway, uploads);
  uploadRoutes(http, { uploads });
  const productApi = registerProductApi(http, {
    members: store.members,
    loginTickets: store.loginTickets,
    ads: store.ads,
    hidden: store.hidden,
    feedback: store.feedback,
    blocks: store.blocks,
    addresses: store.addresses,
    follows: store.follows,
    certifications: store.certifications,
    notices: store.notices,
    tasks: store.tasks,
    withdrawals: store.withdrawals,
    wallet: store.wallet,
    shops: store.shops,
    products: store.products,
    orders: store.orders,
    reviews: store.reviews,
    announcements: store.announcements,
    invitations: store.invitations,
    articles: store.articles,
    channels: store.channels,
    circle: store.circle,
    topics: store.topics,
    reactions: store.reactions,
    circleReactions: store.circleReactions,
    reports: store.reports,
    live: store.live,
    liveLinks: store.liveLinks,
    uploadDeletions: store.uploadDeletions,
    pubsub,
    channelPresence,
    apps,
    config,
    logger,
    now,
    sms: options.sms,
    uploads,
    publicUrl: () => publicUrl ?? `http://localhost:${config.port}`,
    redis: shared && { client: shared.client, prefix: shared.prefix },
    userEvents,
  });

  let sweepTimer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> = Promise.resolve();
  let closing: Promise<void> | undefined;

  const sweep = () => {
    sweeping = sweeping
      .then(() => sessions.sweep(gateway.liveSessions()))
      .then((deleted) => {
        if (deleted > 0) logger.debug({ deleted }, 'expired sessions deleted');
      })
      .catch((err: unknown) => logger.error({ err }, 'session sweep failed'))
      // LIVE-17, LIVE-18: live rooms and guests left behind end even when no one looks at them.
      .then(() => productApi.endStaleLiveRooms())
      .then((ended) => {
        if (ended > 0) logger.info({ ended }, 'live rooms and guests left behind ended');
      })
      .catch((err: unknown) => logger.error({ err }, 'live room sweep failed'))
      // MEM-7: files of cancelled accounts that a stop or a failure left behind.
      .then(() => productApi.cleanUploads())
      .then((files) => {
        if (files > 0) logger.info({ files }, 'files of cancelled accounts deleted');
      })
      .catch((err: unknown) => logger.error({ err }, 'deleting cancelled accounts’ files failed'))
      // Orders move on time alone (unpaid ones expire, shipped ones complete, refunds left alone go on, sellers are
      // paid, late buyers compensated) even when no one calls, so that their notices come when they are due.
      .then(() => productApi.settleOrders())
      .then((moved) => {
        if (moved > 0) logger.debug({ moved }, 'orders settled by time');
      })
      .catch((err: unknown) => logger.error({ err }, 'settling orders failed'));
  };

  // Close the client transports before fastify closes the http server: the server only finishes closing once
  // every connection has ended, and open websockets would keep it waiting.
  http.addHook('preClose', (done) => {
    io.engine.close();
    done();
  });

  return {
    io,
    store,
    gateway,
    config,
    uploads,
    async listen() {
      await store.migrate();
      await pubsub.start();
      await webhooks.start();
      if (redis) {
        await redis.connect();
        io.adapter(redis.adapter({ excluded: lateChannelJoins(lateJoins) }));
        await cluster?.start();
      }
      // Sessions are refreshed at half their time to live at most, so none expires while its client is connected.
      sweepTimer = setInterval(sweep, Math.min(60_000, Math.floor(config.sessionTtlMs / 2)));
      sweepTimer.unref();
      await http.listen({ port: config.port, host: config.host });
      const { port } = http.server.address() as AddressInfo;
      const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
      const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
      const wildcard = config.host === '0.0.0.0' || config.host === '::';
      publicUrl ??= wildcard ? `http://localhost:${port}` : url;
      logger.info({ url }, 'parley server listening');
      return { port, url };
    },
    close() {
      closing ??= (async () => {
        shuttingDown = true;
        if (sweepTimer) clearInterval(sweepTimer);
        await http.close();
        // Sockets are gone by now; this closes the adapter. Its own http server close finds the server stopped.
        await io.close();
        await sweeping;
        await gateway.drain();
        await uploads.close();
        await webhooks.close();
        await pubsub.close();
        await cluster?.close();
        await redis?.close();
        await store.close();
        metrics?.close();
        logger.info('parley server closed');
      })();
      return closing;
    },
  };
}
