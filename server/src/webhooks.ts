import { createHmac, randomUUID } from 'node:crypto';
import type { AppConfig } from './config.js';
import type { CsEvents } from './cs/sessions.js';
import { messageEventOf, parseJsonOr } from './im/wire.js';
import type { MessageEvents } from './im/messages.js';
import type { Logger } from './logger.js';
import type { WebhookMetrics, WebhookOutcome } from './metrics.js';
import type { MembershipAction } from './presence/service.js';
import { CS_MESSAGE_TYPES, type WirePresenceEvent } from './protocol.js';
import type { Actor } from './push.js';
import type { CsStoredMessage, WebhookDeliveryStore, WebhookDeliveryWrites } from './store/index.js';

/** Bounds of webhook deliveries (HOOK-1..HOOK-3, HOOK-8; docs/limits.md). */
export const WEBHOOK_LIMITS = {
  /** An app's server has this long to answer one attempt. */
  timeoutMs: 5_000,
  /** The waits before the second, third and fourth attempts; after the fourth, the delivery is given up. */
  retryDelaysMs: [1_000, 5_000, 25_000],
  /** Deliveries to one app under way at once. */
  concurrency: 8,
  /**
   * Deliveries one app may have waiting in a node's memory. Past it the rest wait in the store, held by no node,
   * until a node has room for them (HOOK-8); a sender without a store drops the oldest waiting (logged).
   */
  queueMax: 10_000,
  /** How often a node says it is alive and takes the deliveries no live node holds (HOOK-8). */
  sweepMs: 10_000,
  /** How long a node counts as alive after it last said so: past it, another node takes what it held. */
  aliveMs: 30_000,
  /** Deliveries a node takes at once. */
  claimMax: 500,
} as const;

/**
 * The events an app's server can hear of (HOOK-1, HOOK-4..HOOK-7); an app's `webhookEvents` picks some, all by default.
 */
export const WEBHOOK_EVENTS = [
  'im.message',
  'im.recall',
  'im.read',
  'group.join',
  'group.leave',
  'user.online',
  'user.offline',
  'cs.message',
  'cs.accept',
  'cs.transfer',
  'cs.end',
] as const;

/** One of {@link WEBHOOK_EVENTS}. */
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/** The JSON body of a delivery. */
export interface WebhookBody {
  /** Unique per delivery, the same on each attempt of it: what a receiver drops copies by. */
  id: string;
  event: WebhookEventName;
  appkey: string;
  /** When the event happened, ms. */
  time: number;
  data: unknown;
}

/** Sends events to the webhook URL of each app that has one (HOOK-1). */
export interface Webhooks {
  /**
   * Queues `data` as `event` for `app`'s webhook; nothing when the app has none, or when its `webhookEvents` leave
   * `event` out. Never throws, never waits.
   */
  send(app: AppConfig, event: WebhookEventName, data: unknown): void;
  /** Deliveries waiting in this node's memory, of every app (METRICS-5). */
  waiting(): number;
  /**
   * HOOK-8, with a store: says this node is alive and takes the deliveries no live node holds (those a stopped node
   * left), now and every {@link WEBHOOK_LIMITS.sweepMs}. Nothing without a store.
   */
  start(): Promise<void>;
  /**
   * Stops: attempts under way are let finish. With a store, what waits stays there for the next node to start
   * (HOOK-8); without one, it is dropped (logged).
   */
  close(): Promise<void>;
}

/** HOOK-8: where a node keeps its deliveries until they are answered or given up. */
export interface WebhookKeeping {
  store: WebhookDeliveryStore;
  /** This node, as its heartbeat names it. */
  nodeId: string;
  /** The app of a kept delivery this node takes; one gone, or without a webhook now, has its deliveries dropped. */
  appOf: (appkey: string) => AppConfig | undefined;
  /** @default {@link WEBHOOK_LIMITS.sweepMs} */
  sweepMs?: number;
  /** @default {@link WEBHOOK_LIMITS.aliveMs} */
  aliveMs?: number;
}

/** What {@link createWebhooks} needs. */
export interface WebhookDeps {
  logger: Logger;
  now: () => number;
  /** @default the global fetch */
  fetch?: typeof fetch;
  /** @default {@link WEBHOOK_LIMITS.retryDelaysMs} */
  retryDelaysMs?: readonly number[];
  /** HOOK-8: keeps deliveries in the store; without it they live in this node's memory only. */
  keeping?: WebhookKeeping;
  /** METRICS-5: told of each attempt and of how each delivery ended. */
  metrics?: WebhookMetrics;
}

/**
 * HOOK-2: the signature of a delivery: HMAC-SHA256 with the app's secret key over `<timestamp>.<body>`, in hex, as
 * `X-Parley-Signature: sha256=<hex>` beside `X-Parley-Timestamp: <timestamp>` (ms).
 */
export function webhookSignature(secretKey: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secretKey).update(`${timestamp}.${body}`, 'utf8').digest('hex')}`;
}

/** A delivery in a node's memory: its body as posted, and the attempts made so far (by any node). */
interface Delivery {
  id: string;
  event: string;
  text: string;
  attempts: number;
}

/** The event a kept body names. */
function eventOf(text: string): string {
  const event = (parseJsonOr(text, {}) as { event?: unknown }).event;
  return typeof event === 'string' ? event : '';
}

const noWrites = (): WebhookDeliveryWrites => ({ added: [], tried: [], done: [] });

/** Creates the webhook sender of one node. */
export function createWebhooks(deps: WebhookDeps): Webhooks {
  const { logger, keeping, metrics } = deps;
  const delays = deps.retryDelaysMs ?? WEBHOOK_LIMITS.retryDelaysMs;
  const post = deps.fetch ?? fetch;
  const queues = new Map<string, { app: AppConfig; waiting: Delivery[]; running: number }>();
  const timers = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  const running = new Set<Promise<void>>();
  let closed = false;
  let closing: Promise<void> | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> | undefined;

  // HOOK-8: what changes in the store is gathered and written in one transaction at a time, in order: the changes of
  // a turn of the event loop, or, while a write is under way, of every turn until it ends. A busy app then costs one
  // write per turn at most, and a slow database fewer, larger ones rather than a queue of them.
  let writes = noWrites();
  let flushQueued = false;
  let writing: Promise<void> | undefined;
  const pendingWrites = () => writes.added.length + writes.tried.length + writes.done.length > 0;
  const flush = () => {
    flushQueued = false;
    if (!keeping || writing || !pendingWrites()) return;
    const batch = writes;
    writes = noWrites();
    // A delivery answered before it was written is never written.
    const done = new Set(batch.done);
    const tried = new Map(batch.tried.map((t) => [t.id, t.attempts]));
    const added: WebhookDeliveryWrites['added'] = [];
    for (const row of batch.added) {
      const attempts = tried.get(row.id);
      tried.delete(row.id);
      if (done.delete(row.id)) continue;
      added.push(attempts === undefined ? row : { ...row, attempts });
    }
    const next = { added, tried: [...tried].map(([id, attempts]) => ({ id, attempts })), done: [...done] };
    writing = keeping.store
      .write(next)
      .catch((err: unknown) => logger.warn({ err }, 'keeping webhook deliveries failed'))
      .finally(() => {
        writing = undefined;
        flush();
      });
  };
  /** Until everything gathered so far is written (or failed, logged). */
  const written = async () => {
    flush();
    while (writing) await writing;
  };
  const changed = () => {
    if (flushQueued) return;
    flushQueued = true;
    setImmediate(flush);
  };
  const markDone = (appkey: string, id: string, outcome: WebhookOutcome) => {
    metrics?.webhookFinished(appkey, outcome);
    if (!keeping) return;
    writes.done.push(id);
    changed();
  };
  const markTried = (id: string, attempts: number) => {
    if (!keeping) return;
    writes.tried.push({ id, attempts });
    changed();
  };

  /** Waits `ms`, or less when the sender closes. */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          timers.delete(entry);
          resolve();
        }, ms),
        resolve,
      };
      timers.add(entry);
    });

  /** One attempt: true once the app's server answered 2xx. */
  const attempt = async (app: AppConfig, url: string, delivery: Delivery): Promise<boolean> => {
    const timestamp = String(deps.now());
    try {
      const res = await post(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'parley-webhooks',
          'x-parley-event': delivery.event,
          'x-parley-delivery': delivery.id,
          'x-parley-timestamp': timestamp,
          'x-parley-signature': webhookSignature(app.secretKey, timestamp, delivery.text),
        },
        body: delivery.text,
        signal: AbortSignal.timeout(WEBHOOK_LIMITS.timeoutMs),
        redirect: 'manual',
      });
      await res.body?.cancel();
      metrics?.webhookAttempted(app.appkey, res.ok);
      return res.ok;
    } catch {
      metrics?.webhookAttempted(app.appkey, false);
      return false;
    }
  };

  /**
   * HOOK-3: a delivery, tried again after each wait while it fails; given up (logged) after the last. HOOK-8: a
   * delivery another node began goes on from the attempts it made.
   */
  const deliver = async (app: AppConfig, url: string, delivery: Delivery) => {
    for (;;) {
      const ok = await attempt(app, url, delivery);
      delivery.attempts += 1;
      if (ok) return markDone(app.appkey, delivery.id, 'answered');
      const wait = delays[delivery.attempts - 1];
      if (wait === undefined || (closed && !keeping)) {
        logger.warn(
          { appkey: app.appkey, id: delivery.id, tries: delivery.attempts },
          'a webhook delivery failed; given up',
        );
        return markDone(app.appkey, delivery.id, 'given_up');
      }
      markTried(delivery.id, delivery.attempts);
      // Kept: it waits in the store for the next node to start.
      if (closed) return;
      await pause(wait);
      if (closed) {
        if (!keeping) logger.warn({ appkey: app.appkey, id: delivery.id }, 'a webhook delivery left unsent at close');
        return;
      }
    }
  };

  const queueOf = (app: AppConfig) => {
    let queue = queues.get(app.appkey);
    if (!queue) {
      queue = { app, waiting: [], running: 0 };
      queues.set(app.appkey, queue);
    }
    return queue;
  };

  const pump = (appkey: string) => {
    const queue = queues.get(appkey);
    const url = queue?.app.webhookUrl;
    if (!queue || url === undefined) return;
    while (!closed && queue.running < WEBHOOK_LIMITS.concurrency) {
      const delivery = queue.waiting.shift();
      if (!delivery) break;
      queue.running += 1;
      const work: Promise<void> = deliver(queue.app, url, delivery).finally(() => {
        running.delete(work);
        queue.running -= 1;
        pump(appkey);
      });
      running.add(work);
    }
  };

  /** HOOK-8: says this node is alive, then takes what no live node holds, as far as its queues have room. */
  const sweep = async () => {
    if (!keeping || closed) return;
    const now = deps.now();
    await keeping.store.heartbeat(keeping.nodeId, now + (keeping.aliveMs ?? WEBHOOK_LIMITS.aliveMs), now);
    let fullest = 0;
    for (const queue of queues.values()) fullest = Math.max(fullest, queue.waiting.length);
    const limit = Math.min(WEBHOOK_LIMITS.claimMax, WEBHOOK_LIMITS.queueMax - fullest);
    if (limit <= 0) return;
    // This node's own changes first: what it finished is not taken again.
    await written();
    const taken = await keeping.store.claim(keeping.nodeId, now, limit);
    // Closed meanwhile: what was taken is let go with the rest at close.
    if (closed) return;
    for (const row of taken) {
      const app = keeping.appOf(row.appkey);
      const event = eventOf(row.body);
      const wanted = app?.webhookEvents === undefined || app.webhookEvents.some((e) => e === event);
      if (app?.webhookUrl === undefined || !wanted) {
        logger.warn({ appkey: row.appkey, id: row.id }, 'a kept webhook delivery its app no longer takes; dropped');
        markDone(row.appkey, row.id, 'dropped');
        continue;
      }
      queueOf(app).waiting.push({ id: row.id, event, text: row.body, attempts: row.attempts });
      pump(app.appkey);
    }
  };
  /** One sweep at a time: a timer firing while one is under way (a slow database) is skipped, not queued. */
  const runSweep = () => {
    sweeping ??= sweep()
      .catch((err: unknown) => logger.warn({ err }, 'taking kept webhook deliveries failed'))
      .finally(() => {
        sweeping = undefined;
      });
    return sweeping;
  };

  return {
    send(app, event, data) {
      if (closed || app.webhookUrl === undefined) return;
      if (app.webhookEvents !== undefined && !app.webhookEvents.includes(event)) return;
      const id = randomUUID();
      const time = deps.now();
      const body: WebhookBody = { id, event, appkey: app.appkey, time, data };
      const delivery: Delivery = { id, event, text: JSON.stringify(body), attempts: 0 };
      const queue = queueOf(app);
      const room = queue.waiting.length < WEBHOOK_LIMITS.queueMax;
      if (keeping) {
        // HOOK-8: past the queue it waits in the store, held by no node, until one has room for it.
        writes.added.push({
          id,
          appkey: app.appkey,
          body: delivery.text,
          attempts: 0,
          owner: room ? keeping.nodeId : null,
          createdAt: time,
        });
        changed();
        if (!room) return;
      } else if (!room) {
        const dropped = queue.waiting.shift();
        metrics?.webhookFinished(app.appkey, 'dropped');
        logger.warn({ appkey: app.appkey, id: dropped?.id }, 'webhook deliveries pile up; the oldest waiting dropped');
      }
      queue.waiting.push(delivery);
      pump(app.appkey);
    },
    waiting() {
      let waiting = 0;
      for (const queue of queues.values()) waiting += queue.waiting.length;
      return waiting;
    },
    async start() {
      if (!keeping || closed) return;
      await runSweep();
      sweepTimer = setInterval(() => void runSweep(), keeping.sweepMs ?? WEBHOOK_LIMITS.sweepMs);
      sweepTimer.unref();
    },
    close() {
      closing ??= (async () => {
        closed = true;
        if (sweepTimer) clearInterval(sweepTimer);
        for (const entry of timers) {
          clearTimeout(entry.timer);
          entry.resolve();
        }
        timers.clear();
        const left = [...queues.values()].reduce((sum, q) => sum + q.waiting.length, 0);
        for (const queue of queues.values()) queue.waiting.length = 0;
        await Promise.all(running);
        await sweeping;
        if (!keeping) {
          if (left > 0) logger.warn({ deliveries: left }, 'webhook deliveries left unsent at close');
          return;
        }
        await written();
        try {
          // HOOK-8: what this node held is any node's to take, its own next start's first.
          await keeping.store.leave(keeping.nodeId);
          if (left > 0) logger.info({ deliveries: left }, 'webhook deliveries kept for the next start');
        } catch (err) {
          logger.warn(
            { err },
            'letting go of webhook deliveries failed; another node takes them once this one is gone',
          );
        }
      })();
      return closing;
    },
  };
}

/** What the services tell {@link webhookListeners}' hooks of, by the service that tells it. */
export interface WebhookListeners {
  messages: MessageEvents;
  cs: CsEvents;
  membership: (actor: Actor, groupIds: readonly string[], action: MembershipAction) => void;
  presence: (appkey: string, event: WirePresenceEvent) => void;
}

/**
 * The services' hooks that post to apps' webhooks (HOOK-1, HOOK-4..HOOK-7): each event in the SDK's names, the
 * users' data parsed. An app without a webhook costs one check.
 */
export function webhookListeners(
  webhooks: Webhooks,
  appOf: (appkey: string) => AppConfig | undefined,
): WebhookListeners {
  return {
    messages: {
      stored(actor, message) {
        if (actor.app.webhookUrl !== undefined) webhooks.send(actor.app, 'im.message', messageEventOf(message));
      },
      recalled(actor, { scene, targetId, messages }) {
        if (actor.app.webhookUrl === undefined) return;
        webhooks.send(actor.app, 'im.recall', {
          scene,
          recallerId: actor.userId,
          recallerData: actor.userData,
          // The other user of a private chat, or the group.
          to: targetId,
          messages: messages.map((m) => ({ messageId: m.messageId, timestamp: m.ts })),
        });
      },
      read(actor, { scene, targetId, time }) {
        if (actor.app.webhookUrl === undefined) return;
        webhooks.send(actor.app, 'im.read', { scene, readerId: actor.userId, to: targetId, timestamp: time });
      },
    },
    cs: {
      stored(actor, message) {
        if (actor.app.webhookUrl === undefined) return;
        webhooks.send(actor.app, CS_EVENTS.get(message.type) ?? 'cs.message', csMessageEventOf(message));
      },
    },
    membership(actor, groupIds, action) {
      if (actor.app.webhookUrl === undefined) return;
      webhooks.send(actor.app, action === 'join' ? 'group.join' : 'group.leave', {
        userId: actor.userId,
        userData: actor.userData,
        groupIds,
      });
    },
    presence(appkey, event) {
      const app = appOf(appkey);
      if (app?.webhookUrl === undefined || (event.action !== 'online' && event.action !== 'offline')) return;
      webhooks.send(app, event.action === 'online' ? 'user.online' : 'user.offline', {
        userId: event.userId,
        userData: parseJsonOr(event.userData, {}),
        timestamp: event.time,
      });
    },
  };
}

/** HOOK-7: the session events' message types (CS-14) and the webhook events they are posted as. */
const CS_EVENTS: ReadonlyMap<string, WebhookEventName> = new Map([
  [CS_MESSAGE_TYPES.accept, 'cs.accept'],
  [CS_MESSAGE_TYPES.transfer, 'cs.transfer'],
  [CS_MESSAGE_TYPES.end, 'cs.end'],
]);

/** HOOK-7: a stored customer-service message or session event as an app's server hears of it. */
function csMessageEventOf(message: CsStoredMessage) {
  return {
    teamId: message.teamId,
    customerId: message.customerId,
    sessionId: message.sessionId,
    messageId: message.messageId,
    timestamp: message.ts,
    senderId: message.senderId,
    senderData: parseJsonOr(message.senderData, {}),
    type: message.type,
    payload: parseJsonOr(message.payload, null),
    // Whether an agent had accepted the customer when it was stored.
    accepted: message.accepted,
  };
}
