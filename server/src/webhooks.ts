import { createHmac, randomUUID } from 'node:crypto';
import type { AppConfig } from './config.js';
import type { CsEvents } from './cs/sessions.js';
import { messageEventOf, parseJsonOr } from './im/wire.js';
import type { MessageEvents } from './im/messages.js';
import type { Logger } from './logger.js';
import type { MembershipAction } from './presence/service.js';
import { CS_MESSAGE_TYPES, type WirePresenceEvent } from './protocol.js';
import type { Actor } from './push.js';
import type { CsStoredMessage } from './store/index.js';

/** Bounds of webhook deliveries (HOOK-1..HOOK-3; docs/limits.md). */
export const WEBHOOK_LIMITS = {
  /** An app's server has this long to answer one attempt. */
  timeoutMs: 5_000,
  /** The waits before the second, third and fourth attempts; after the fourth, the delivery is given up. */
  retryDelaysMs: [1_000, 5_000, 25_000],
  /** Deliveries to one app under way at once. */
  concurrency: 8,
  /** Deliveries one app may have waiting on a node; past it the oldest waiting is dropped (and logged). */
  queueMax: 10_000,
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
  /** Stops: what waits is dropped (logged), attempts under way are let finish. */
  close(): Promise<void>;
}

/** What {@link createWebhooks} needs. */
export interface WebhookDeps {
  logger: Logger;
  now: () => number;
  /** @default the global fetch */
  fetch?: typeof fetch;
  /** @default {@link WEBHOOK_LIMITS.retryDelaysMs} */
  retryDelaysMs?: readonly number[];
}

/**
 * HOOK-2: the signature of a delivery: HMAC-SHA256 with the app's secret key over `<timestamp>.<body>`, in hex, as
 * `X-Parley-Signature: sha256=<hex>` beside `X-Parley-Timestamp: <timestamp>` (ms).
 */
export function webhookSignature(secretKey: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secretKey).update(`${timestamp}.${body}`, 'utf8').digest('hex')}`;
}

/** Creates the webhook sender of one node. */
export function createWebhooks(deps: WebhookDeps): Webhooks {
  const { logger } = deps;
  const delays = deps.retryDelaysMs ?? WEBHOOK_LIMITS.retryDelaysMs;
  const post = deps.fetch ?? fetch;
  const queues = new Map<string, { app: AppConfig; waiting: WebhookBody[]; running: number }>();
  const timers = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  const running = new Set<Promise<void>>();
  let closed = false;

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
  const attempt = async (app: AppConfig, url: string, body: WebhookBody): Promise<boolean> => {
    const text = JSON.stringify(body);
    const timestamp = String(deps.now());
    try {
      const res = await post(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'parley-webhooks',
          'x-parley-event': body.event,
          'x-parley-delivery': body.id,
          'x-parley-timestamp': timestamp,
          'x-parley-signature': webhookSignature(app.secretKey, timestamp, text),
        },
        body: text,
        signal: AbortSignal.timeout(WEBHOOK_LIMITS.timeoutMs),
        redirect: 'manual',
      });
      await res.body?.cancel();
      return res.ok;
    } catch {
      return false;
    }
  };

  /** HOOK-3: a delivery, tried again after each wait while it fails; given up (logged) after the last. */
  const deliver = async (app: AppConfig, url: string, body: WebhookBody) => {
    for (let tries = 0; ; tries++) {
      if (await attempt(app, url, body)) return;
      const wait = delays[tries];
      if (wait === undefined || closed) {
        logger.warn({ appkey: app.appkey, id: body.id, tries: tries + 1 }, 'a webhook delivery failed; given up');
        return;
      }
      await pause(wait);
      if (closed) {
        logger.warn({ appkey: app.appkey, id: body.id }, 'a webhook delivery left unsent at close');
        return;
      }
    }
  };

  const pump = (appkey: string) => {
    const queue = queues.get(appkey);
    const url = queue?.app.webhookUrl;
    if (!queue || url === undefined) return;
    while (!closed && queue.running < WEBHOOK_LIMITS.concurrency) {
      const body = queue.waiting.shift();
      if (!body) break;
      queue.running += 1;
      const work: Promise<void> = deliver(queue.app, url, body).finally(() => {
        running.delete(work);
        queue.running -= 1;
        pump(appkey);
      });
      running.add(work);
    }
  };

  return {
    send(app, event, data) {
      if (closed || app.webhookUrl === undefined) return;
      if (app.webhookEvents !== undefined && !app.webhookEvents.includes(event)) return;
      let queue = queues.get(app.appkey);
      if (!queue) {
        queue = { app, waiting: [], running: 0 };
        queues.set(app.appkey, queue);
      }
      if (queue.waiting.length >= WEBHOOK_LIMITS.queueMax) {
        const dropped = queue.waiting.shift();
        logger.warn({ appkey: app.appkey, id: dropped?.id }, 'webhook deliveries pile up; the oldest waiting dropped');
      }
      queue.waiting.push({ id: randomUUID(), event, appkey: app.appkey, time: deps.now(), data });
      pump(app.appkey);
    },
    async close() {
      closed = true;
      for (const entry of timers) {
        clearTimeout(entry.timer);
        entry.resolve();
      }
      timers.clear();
      const left = [...queues.values()].reduce((sum, q) => sum + q.waiting.length, 0);
      if (left > 0) logger.warn({ deliveries: left }, 'webhook deliveries left unsent at close');
      for (const queue of queues.values()) queue.waiting.length = 0;
      await Promise.all(running);
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
