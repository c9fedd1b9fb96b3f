/**
 * pubsub-fanout: one channel with 1000 subscribers (socket.io clients in this process), a publisher at increasing
 * rates. For each side the result is the highest rate of deliveries per second at which every message reached
 * every subscriber with a p99 latency of at most 50 ms. Parley (SDK publish -> server: validate, de-duplicate,
 * store for history, room broadcast) is measured against raw socket.io (emit -> server -> room broadcast of the
 * same payload) in the same run. Both servers run in a child process and every client in this one, so that the
 * two cores split server and client work as two machines would. Target: Parley >= 0.9x raw.
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Server } from 'socket.io';
import { io as rawClient, type Socket } from 'socket.io-client';
import { createClient } from '../../src/index.js';
import { loadConfig } from '../../server/src/config.js';
import { silentLogger } from '../../server/src/logger.js';
import { createParleyServer } from '../../server/src/server.js';
import { serverNodeFlags } from '../server-process.js';
import { quantile, round3 } from '../stats.js';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 1000);
const RATES = (process.env.BENCH_RATES ?? '10,15,20,25,30,35,40,45,50,60,70,80,100,130,160,200').split(',').map(Number);
const STEP_MS = Number(process.env.BENCH_STEP_MS ?? 2000);
const P99_BUDGET_MS = 50;
const CHANNEL = 'bench';

/** What one side of the comparison offers the ladder. */
interface Side {
  /** Subscriber sockets, each already subscribed to the channel. */
  subscribers: Socket[];
  /** Publishes `content` once. */
  publish(content: string): void;
  close(): Promise<void>;
}

async function openSockets(url: string, n: number): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let i = 0; i < n; i += 100) {
    const batch = Array.from({ length: Math.min(100, n - i) }, () =>
      rawClient(url, { transports: ['websocket'], forceNew: true, reconnection: false }),
    );
    await Promise.all(batch.map((s) => new Promise<void>((resolve) => s.once('connect', () => resolve()))));
    sockets.push(...batch);
  }
  return sockets;
}

/** Starts the raw socket.io server: subscribe joins the channel's room, publish broadcasts to it. */
async function startRawServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const http = createServer();
  const io = new Server(http, { path: '/socket.io' });
  io.on('connection', (socket) => {
    socket.on('subscribe', (params: { channels: string[] }, ack: (reply: unknown) => void) => {
      void socket.join(params.channels.map((c) => `ch:bench:${c}`));
      ack({ code: 200, resultCode: 200, content: null });
    });
    socket.on('publish', (p: { channel: string; content: string; guid: string }, ack: (reply: unknown) => void) => {
      const message = { n: p.channel, c: p.content, t: Date.now(), i: p.guid, a: false };
      io.to(`ch:bench:${p.channel}`).emit('message', message);
      ack({ code: 200, resultCode: 200, content: { time: message.t, guid: p.guid } });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    close: async () => {
      await io.close();
    },
  };
}

async function rawSide(url: string): Promise<Side> {
  const subscribers = await openSockets(url, SUBSCRIBERS);
  await Promise.all(subscribers.map((s) => s.emitWithAck('subscribe', { channels: [CHANNEL] })));
  const [publisher] = await openSockets(url, 1);
  let n = 0;
  return {
    subscribers,
    publish: (content) => {
      publisher!.emit('publish', { channel: CHANNEL, content, guid: `raw-${n++}` }, () => undefined);
    },
    close: () => {
      for (const s of [...subscribers, publisher!]) s.close();
      return Promise.resolve();
    },
  };
}

const APP = { appkey: 'bench', secretKey: 'bench-secret', name: 'bench', requireOtp: false, requireAccessToken: false };

/** Starts the Parley server with one open app and no rate limit in the way. */
async function startParleyServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createParleyServer(
    {
      ...loadConfig({}),
      port: 0,
      host: '127.0.0.1',
      sqlite: ':memory:',
      apps: [APP],
      logLevel: 'silent',
      rateLimit: { perSecond: 1_000_000, burst: 1_000_000 },
    },
    { logger: silentLogger() },
  );
  const { url } = await server.listen();
  return { url, close: () => server.close() };
}

async function parleySide(url: string): Promise<Side> {
  const subscribers = await openSockets(url, SUBSCRIBERS);
  await Promise.all(
    subscribers.map(async (s, i) => {
      await s.emitWithAck('authorize', { appkey: APP.appkey, userId: `s${i}`, sid: null, mP: { GWS: null } });
      await s.emitWithAck('subscribe', { channels: [CHANNEL], resubscribe: false });
    }),
  );
  const publisher = createClient({ host: url, appkey: APP.appkey, modules: ['pubsub'] });
  await publisher.connect({ id: 'publisher' });
  return {
    subscribers,
    publish: (content) => {
      publisher.pubsub.publish({ channel: CHANNEL, message: content }).catch((err: unknown) => {
        console.error('publish failed', err);
      });
    },
    close: async () => {
      for (const s of subscribers) s.close();
      await publisher.disconnect();
    },
  };
}

/** Publishes at `rate` per second for STEP_MS; returns delivered count, expected count and latencies. */
async function step(
  side: Side,
  rate: number,
): Promise<{ deliveriesPerS: number; p50: number; p99: number; complete: boolean }> {
  const latencies: number[] = [];
  const onMessage = (event: string, payload: { c?: string }) => {
    if (event === 'message' && payload?.c !== undefined) latencies.push(performance.now() - Number(payload.c));
  };
  for (const s of side.subscribers) s.onAny(onMessage);
  const started = performance.now();
  let sent = 0;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const elapsed = performance.now() - started;
      const due = Math.min(Math.floor((elapsed * rate) / 1000), Math.floor((STEP_MS * rate) / 1000));
      while (sent < due) {
        side.publish(String(performance.now()));
        sent += 1;
      }
      if (elapsed >= STEP_MS) {
        clearInterval(timer);
        resolve();
      }
    }, 2);
  });
  const expected = sent * side.subscribers.length;
  const deadline = performance.now() + 2000;
  while (latencies.length < expected && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  for (const s of side.subscribers) s.offAny(onMessage);
  const complete = latencies.length >= expected;
  return {
    deliveriesPerS: (latencies.length * 1000) / STEP_MS,
    p50: quantile(latencies, 0.5),
    p99: complete ? quantile(latencies, 0.99) : Number.POSITIVE_INFINITY,
    complete,
  };
}

/**
 * Climbs the rate ladder with both sides, one step each in turn so that drift (JIT, GC, heap growth) hits both
 * alike; a side stops at its first step over the budget. Returns each side's best passing deliveries per second.
 */
async function ladder(sides: Record<'raw' | 'parley', Side>): Promise<Record<'raw' | 'parley', number>> {
  const best = { raw: 0, parley: 0 };
  const done = { raw: false, parley: false };
  for (const name of ['raw', 'parley'] as const) await step(sides[name], RATES[0] ?? 5); // warm-up
  for (const rate of RATES) {
    for (const name of ['raw', 'parley'] as const) {
      if (done[name]) continue;
      // One step over budget can be a GC pause or the other process; a rate fails only if it fails twice running.
      let r = await step(sides[name], rate);
      let pass = r.complete && r.p99 <= P99_BUDGET_MS;
      if (!pass) {
        r = await step(sides[name], rate);
        pass = r.complete && r.p99 <= P99_BUDGET_MS;
      }
      console.log(
        `${name} rate ${rate}/s: ${Math.round(r.deliveriesPerS)} deliveries/s, p50 ${round3(r.p50)} ms, ` +
          `p99 ${round3(r.p99)} ms${r.complete ? '' : ' (messages missing)'}${pass ? '' : ' (over budget)'}`,
      );
      if (pass) best[name] = Math.max(best[name], r.deliveriesPerS);
      else done[name] = true;
    }
    if (done.raw && done.parley) break;
  }
  return best;
}

if (process.argv[2] === 'servers') {
  // The child: both servers, until the parent says stop.
  const [rawServer, parleyServer] = await Promise.all([startRawServer(), startParleyServer()]);
  process.send?.({ raw: rawServer.url, parley: parleyServer.url });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // A close that hangs does not keep the servers (and Parley's temporary store) alive.
    setTimeout(() => process.exit(1), 5000).unref();
    void Promise.all([rawServer.close(), parleyServer.close()]).then(() => process.exit(0));
  };
  process.once('message', stop);
  // The parent is gone (it failed or was killed) without saying stop: do not outlive it.
  process.once('disconnect', stop);
} else {
  // Both servers share this process, with the Node flags Parley's server starts with (bench/server-process.ts).
  const child = fork(fileURLToPath(import.meta.url), ['servers'], {
    execArgv: [...serverNodeFlags(), '--import', 'tsx'],
  });
  const urls = await new Promise<{ raw: string; parley: string }>((resolve) =>
    child.once('message', (m) => resolve(m as { raw: string; parley: string })),
  );
  const raw = await rawSide(urls.raw);
  const parley = await parleySide(urls.parley);
  const { raw: rawBest, parley: parleyBest } = await ladder({ raw, parley });
  await raw.close();
  await parley.close();
  child.send('stop');
  await new Promise((resolve) => child.once('exit', resolve));
  report(rawBest, parleyBest);
}

function report(rawBest: number, parleyBest: number): void {
  const result = {
    bench: 'pubsub-fanout',
    subscribers: SUBSCRIBERS,
    p99_budget_ms: P99_BUDGET_MS,
    raw_deliveries_per_s: Math.round(rawBest),
    parley_deliveries_per_s: Math.round(parleyBest),
    ratio: round3(rawBest > 0 ? parleyBest / rawBest : 0),
    target_ratio: 0.9,
  };
  console.log(JSON.stringify(result));
  process.exit(0);
}
