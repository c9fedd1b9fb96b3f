import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { bearsSecret } from './api/app-auth.js';
import type { StoreTiming } from './store/timing.js';

/**
 * What the gateway tells the metrics (METRICS-2). Called on the message path, so each call only counts in a map;
 * the labels are made when Prometheus scrapes.
 */
export interface GatewayMetrics {
  /** A request (an event with an ack) was answered with `code`. */
  requested(event: string, code: number): void;
  /** `event` was pushed: once per push call, whatever number of connections it reached. */
  pushed(event: string): void;
}

/** How a webhook delivery ended on this node (METRICS-5). */
export type WebhookOutcome = 'answered' | 'given_up' | 'dropped';

/** What the webhook sender tells the metrics (METRICS-5): counts in maps, labelled at the scrape. */
export interface WebhookMetrics {
  /** An attempt to post to `appkey`'s webhook was answered 2xx (`ok`) or failed. */
  webhookAttempted(appkey: string, ok: boolean): void;
  /** A delivery to `appkey`'s webhook ended. */
  webhookFinished(appkey: string, outcome: WebhookOutcome): void;
}

/** The node's connections as the gateway knows them, read at each scrape. */
export interface ConnectionCounts {
  /** Open socket.io connections, authorized or not. */
  open: number;
  /** Connections that authorized. */
  authorized: number;
  /** Distinct users of every app with at least one authorized connection here. */
  users: number;
}

/** The server's metrics, in Prometheus' text format (METRICS-1..METRICS-5). */
export interface ServerMetrics extends GatewayMetrics, WebhookMetrics {
  /** An HTTP request was answered with `status` after `seconds`; `route` is its route's pattern. */
  answered(method: string, route: string, status: number, seconds: number): void;
  /** Where the connection gauges are read from; set once the gateway exists. */
  connections: () => ConnectionCounts;
  /** Webhook deliveries waiting in this node's memory, read at each scrape; set once the sender exists. */
  webhooksWaiting: () => number;
  /** The text `GET /metrics` answers. */
  scrape(): Promise<string>;
  /** Stops listening to the store's timings. */
  close(): void;
}

/** The buckets of every duration, in seconds: a millisecond to ten seconds. */
const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/** The store's steps (`parley:store`), as the `step` label names them. */
const STORE_STEPS = ['send_batch_store', 'send_batch_push', 'later_writes', 'log_restart'] as const;

/**
 * Creates the metrics of one node: Node's own (CPU, memory, event loop delay, collections; `parley_` in front), the
 * socket requests by event and code, the pushes by event, the connections, the HTTP requests by route and status
 * with their durations, and the SQLite store's steps.
 */
export function createMetrics(): ServerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'parley_' });
  const requests = new Map<string, number>();
  const pushes = new Map<string, number>();
  const webhookAttempts = new Map<string, number>();
  const webhookDeliveries = new Map<string, number>();
  const registers = [registry];

  const httpSeconds = new Histogram({
    name: 'parley_http_request_duration_seconds',
    help: 'HTTP requests answered, by method, route and status, with how long each took.',
    labelNames: ['method', 'route', 'status'],
    buckets: SECONDS_BUCKETS,
    registers,
  });

  const metrics: ServerMetrics = {
    answered(method, route, status, seconds) {
      httpSeconds.observe({ method, route, status: String(status) }, seconds);
    },
    connections: () => ({ open: 0, authorized: 0, users: 0 }),
    requested(event, code) {
      const key = `${event} ${code}`;
      requests.set(key, (requests.get(key) ?? 0) + 1);
    },
    pushed(event) {
      pushes.set(event, (pushes.get(event) ?? 0) + 1);
    },
    webhooksWaiting: () => 0,
    webhookAttempted(appkey, ok) {
      const key = `${appkey} ${ok ? 'ok' : 'failed'}`;
      webhookAttempts.set(key, (webhookAttempts.get(key) ?? 0) + 1);
    },
    webhookFinished(appkey, outcome) {
      const key = `${appkey} ${outcome}`;
      webhookDeliveries.set(key, (webhookDeliveries.get(key) ?? 0) + 1);
    },
    scrape: () => registry.metrics(),
    close() {
      unsubscribe('parley:store', onStore);
    },
  };

  new Counter({
    name: 'parley_socket_requests_total',
    help: 'Requests on the messaging socket answered, by event and answer code.',
    labelNames: ['event', 'code'],
    registers,
    collect() {
      this.reset();
      for (const [key, count] of requests) {
        const space = key.lastIndexOf(' ');
        this.inc({ event: key.slice(0, space), code: key.slice(space + 1) }, count);
      }
    },
  });
  new Counter({
    name: 'parley_socket_pushes_total',
    help: 'Pushes made to connections, by event: one per push, to however many connections it went.',
    labelNames: ['event'],
    registers,
    collect() {
      this.reset();
      for (const [event, count] of pushes) this.inc({ event }, count);
    },
  });
  /** A counter by app and one more label, from a map keyed `<appkey> <value>` (the value holds no space). */
  const byApp = (name: string, help: string, label: string, counts: Map<string, number>) =>
    new Counter({
      name,
      help,
      labelNames: ['appkey', label],
      registers,
      collect() {
        this.reset();
        for (const [key, count] of counts) {
          const space = key.lastIndexOf(' ');
          this.inc({ appkey: key.slice(0, space), [label]: key.slice(space + 1) }, count);
        }
      },
    });
  byApp(
    'parley_webhook_attempts_total',
    "Attempts to post to apps' webhooks, by app and result (ok: answered 2xx).",
    'result',
    webhookAttempts,
  );
  byApp(
    'parley_webhook_deliveries_total',
    'Webhook deliveries this node ended, by app and outcome (answered, given_up, dropped).',
    'outcome',
    webhookDeliveries,
  );
  new Gauge({
    name: 'parley_webhook_deliveries_waiting',
    help: "Webhook deliveries waiting in this node's memory; past its queue they wait in the store.",
    registers,
    collect() {
      this.set(metrics.webhooksWaiting());
    },
  });
  const connectionGauge = (name: string, help: string, read: (counts: ConnectionCounts) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read(metrics.connections()));
      },
    });
  connectionGauge('parley_socket_connections', 'Open messaging connections on this node.', (c) => c.open);
  connectionGauge(
    'parley_socket_connections_authorized',
    'Messaging connections on this node that authorized.',
    (c) => c.authorized,
  );
  connectionGauge('parley_users_connected', 'Users with an authorized connection on this node.', (c) => c.users);

  const storeSeconds = new Histogram({
    name: 'parley_store_step_seconds',
    help: 'What the SQLite store held the event loop for, by step (the PostgreSQL store does not report).',
    labelNames: ['step'],
    buckets: SECONDS_BUCKETS,
    registers,
  });
  const storeMessages = new Counter({
    name: 'parley_store_messages_total',
    help: 'Messages the SQLite store stored in batches of sends.',
    registers,
  });
  for (const step of STORE_STEPS) storeSeconds.zero({ step });
  function onStore(message: unknown) {
    const timing = message as StoreTiming;
    if (timing.kind === 'send-batch') {
      storeSeconds.observe({ step: 'send_batch_store' }, timing.storeMs / 1000);
      storeSeconds.observe({ step: 'send_batch_push' }, timing.pushMs / 1000);
      storeMessages.inc(timing.messages);
    } else {
      storeSeconds.observe({ step: timing.kind === 'later-writes' ? 'later_writes' : 'log_restart' }, timing.ms / 1000);
    }
  }
  subscribe('parley:store', onStore);
  return metrics;
}

/**
 * METRICS-1: `GET /metrics` answers the node's metrics in Prometheus' text format to a request bearing `token`
 * (`Authorization: Bearer <token>`), 401 to any other; and every HTTP request is measured (METRICS-3).
 */
export function metricsRoutes(app: FastifyInstance, metrics: ServerMetrics, token: string): void {
  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern, not its path: one series per route whatever ids the paths hold.
    metrics.answered(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });
  app.get('/metrics', async (request, reply) => {
    if (!bearsSecret(request, token)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send({ code: 401, content: 'the metrics need the metrics token' });
    }
    return reply.type('text/plain; version=0.0.4; charset=utf-8').send(await metrics.scrape());
  });
}
