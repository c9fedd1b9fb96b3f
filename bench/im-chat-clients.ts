/**
 * One process of im-chat's clients (see bench/scenarios/im-chat.ts): `node --import tsx bench/im-chat-clients.ts`,
 * forked with an IPC channel. It connects the clients `[from, to)` of one side (whole groups, so every delivery it
 * waits for is to its own clients), runs each rate step it is told to at its share of the rate, and reports how many
 * messages it sent, the latency of every delivery, measured on its own clock from the send call to the event, and the
 * CPU time the process used over the step. With `BENCH_DELIVERIES=<dir>` it also writes each step's deliveries there
 * (see bench/late-spans.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { createClient, type ParleyClient } from '../src/index.js';
import { CLIENT_EVENTS, SERVER_PUSHES } from '../src/protocol/events.js';
import { BENCH_APP } from './parley-server.js';
import { gcKind, type Pauses, watchPauses } from './stats.js';
import { sendPaced } from './paced.js';
import { rawClient } from './raw-im.js';

/**
 * How Parley's side connects: `sdk`, each client a `parley-im` client (the default: what an app runs); `wire`, each
 * a bare socket.io client speaking Parley's protocol, as raw's clients do, so that the run measures the servers alone.
 */
export type ParleyClients = 'sdk' | 'wire';

/** What the scenario sends to a clients process. */
export type ToClients =
  | { kind: 'raw' | 'parley'; clients: ParleyClients; url: string; from: number; to: number; groupSize: number }
  | { step: { rate: number; leadMs: number; ms: number; drainMs: number; tickMs: number } }
  | { close: true };

/** What a clients process answers. */
export type FromClients =
  | { ready: true }
  | { measuring: true }
  | { sent: number; latencies: Float64Array; cpuMicros: number; pauses: Pauses }
  | { closed: true };

const pauses = watchPauses();

/** Sends one message from client `i` to its group; returns the key its deliveries are reported by. */
type Send = (i: number, key: string) => string;

const sentAt = new Map<string, number>();
let latencies: number[] = [];
/** With `BENCH_DELIVERIES`: when each delivery's message was sent, beside `latencies`. */
const DELIVERIES_DIR = process.env.BENCH_DELIVERIES;
let sentTimes: number[] = [];
/** With `BENCH_DELIVERIES`: this process's collections over the step, when each started (ms from the origin). */
let collections: { at: number; ms: number; kind: string }[] = [];
if (DELIVERIES_DIR) {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = gcKind((entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind);
      collections.push({ at: entry.startTime, ms: entry.duration, kind });
    }
  }).observe({ entryTypes: ['gc'] });
}
const deliver = (key: string) => {
  const at = sentAt.get(key);
  if (at === undefined) return;
  latencies.push(performance.now() - at);
  if (DELIVERIES_DIR) sentTimes.push(at);
};

async function inBatches(from: number, to: number, size: number, make: (i: number) => Promise<void>): Promise<void> {
  for (let start = from; start < to; start += size) {
    const end = Math.min(to, start + size);
    await Promise.all(Array.from({ length: end - start }, (_, k) => make(start + k)));
  }
}

type BareSocket = Awaited<ReturnType<typeof rawClient>>;

/**
 * Bare socket.io clients, the same on both sides: each joins its group its side's way, hands every pushed message
 * to the same handler, and sends the same `publishIM`.
 */
async function connectBare(
  url: string,
  from: number,
  to: number,
  groupSize: number,
  join: (socket: BareSocket, i: number, group: string) => Promise<void>,
) {
  const sockets: BareSocket[] = [];
  await inBatches(from, to, 50, async (i) => {
    const socket = await rawClient(url, `u${i}`);
    await join(socket, i, `g${Math.floor(i / groupSize)}`);
    socket.on(SERVER_PUSHES.imMessage, (m: { i: string; s: string }) => {
      if (m.s !== `u${i}`) deliver(m.i);
    });
    sockets[i] = socket;
  });
  const send: Send = (i, key) => {
    sockets[i]?.emit(
      CLIENT_EVENTS.publishIM,
      { t: 'group', to: `g${Math.floor(i / groupSize)}`, mt: 'text', p: '{"text":"hi"}', guid: key },
      () => undefined,
    );
    return key;
  };
  const close = () => {
    for (const s of sockets) s?.close();
    return Promise.resolve();
  };
  return { send, close };
}

/** Raw's side: a client joins its group's room. */
const connectRaw = (url: string, from: number, to: number, groupSize: number) =>
  connectBare(url, from, to, groupSize, (socket, _i, group) => {
    socket.emit('join', group);
    return Promise.resolve();
  });

/** A request on a bare socket to a Parley server; rejects unless it is answered with code 200. */
const request = (socket: BareSocket, event: string, params: object) =>
  new Promise<void>((resolve, reject) => {
    socket.emit(event, params, (reply: { code?: number; content?: unknown }) => {
      if (reply.code === 200) resolve();
      else reject(new Error(`${event}: ${JSON.stringify(reply)}`));
    });
  });

/**
 * Parley's side without the SDK: a client authorizes and subscribes to its group as the SDK would put it on the
 * wire, then sends and receives like raw's.
 */
const connectParleyWire = (url: string, from: number, to: number, groupSize: number) =>
  connectBare(url, from, to, groupSize, async (socket, i, group) => {
    await request(socket, CLIENT_EVENTS.authorize, {
      appkey: BENCH_APP.appkey,
      userId: `u${i}`,
      userData: JSON.stringify({ n: i }),
      sid: null,
      mP: { GIM: { imAck: false } },
      a: false,
    });
    await request(socket, CLIENT_EVENTS.subscribeGroups, { groupIds: [group] });
  });

async function connectParley(url: string, from: number, to: number, groupSize: number) {
  const clients: ParleyClient[] = [];
  await inBatches(from, to, 50, async (i) => {
    const client = createClient({ host: url, appkey: BENCH_APP.appkey, modules: ['im'] });
    await client.connect({ id: `u${i}`, data: { n: i } });
    await client.im.subscribeGroup({ groupIds: [`g${Math.floor(i / groupSize)}`] });
    client.im.on('GROUP_MESSAGE_RECEIVED', (m) => {
      if (m.senderId !== `u${i}`) deliver(m.messageId);
    });
    clients[i] = client;
  });
  const send: Send = (i, _key) => {
    const client = clients[i];
    if (!client) return _key;
    const message = client.im.createTextMessage({
      text: 'hi',
      to: { type: 'group', id: `g${Math.floor(i / groupSize)}` },
    });
    void client.im.sendMessage({ message }).catch(() => undefined);
    return message.messageId;
  };
  const close = async () => {
    await Promise.all(clients.map((c) => c?.disconnect()));
  };
  return { send, close };
}

const reply = (message: FromClients) => process.send?.(message);
let side: { send: Send; close(): Promise<void> } | undefined;
let sideName = '';
let range = { from: 0, to: 0 };
let seq = 0;
let steps = 0;

/**
 * `BENCH_DELIVERIES`: one step's deliveries as `<dir>/<side>-<pid>-<step>-<rate>.json`, `{side, rate, origin,
 * sent, latency, gc}`: each delivery's send time in ms from `origin` (this process's `performance.timeOrigin`, so
 * that `origin + sent` is the wall clock of `BENCH_SERVER_TIMINGS`' records) and its latency in ms, and this
 * process's collections over the step (`{at, ms, kind}`, `at` from `origin` too).
 */
function writeDeliveries(dir: string, rate: number): void {
  const file = join(dir, `${sideName}-${process.pid}-${steps++}-${rate}.json`);
  const body = {
    side: sideName,
    rate,
    origin: performance.timeOrigin,
    sent: sentTimes,
    latency: latencies,
    gc: collections,
  };
  writeFileSync(file, JSON.stringify(body));
}

/**
 * Sends at `rate` from random clients of this process: for `leadMs` unmeasured (then it says `measuring`), then for
 * `ms` measured; drains, and reports the measured part. The lead-in's own deliveries are not counted: its keys are
 * forgotten when the measured part starts, while its traffic goes on without a pause.
 */
async function runStep({
  rate,
  leadMs,
  ms,
  drainMs,
  tickMs,
}: {
  rate: number;
  leadMs: number;
  ms: number;
  drainMs: number;
  tickMs: number;
}) {
  const count = range.to - range.from;
  let cpuBefore = process.cpuUsage();
  const sent = await sendPaced({
    rate,
    leadMs,
    ms,
    tickMs,
    now: () => performance.now(),
    sleep: (wait) => new Promise((resolve) => setTimeout(resolve, wait)),
    send() {
      // The clock starts before the send call, on both sides.
      const at = performance.now();
      const i = range.from + Math.floor(Math.random() * count);
      sentAt.set((side as { send: Send }).send(i, `${process.pid}-${seq++}`), at);
    },
    measure() {
      latencies = [];
      sentTimes = [];
      collections = [];
      sentAt.clear();
      pauses.take();
      cpuBefore = process.cpuUsage();
      if (leadMs > 0) reply({ measuring: true });
    },
  });
  await new Promise((resolve) => setTimeout(resolve, drainMs));
  const cpu = process.cpuUsage(cpuBefore);
  if (DELIVERIES_DIR) writeDeliveries(DELIVERIES_DIR, rate);
  reply({
    sent,
    latencies: Float64Array.from(latencies),
    cpuMicros: cpu.user + cpu.system,
    pauses: pauses.take(),
  });
}

/** True once the scenario asked us to close: the channel then closes by our own hand. */
let closing = false;
process.on('message', (message: ToClients) => {
  void (async () => {
    if ('kind' in message) {
      range = { from: message.from, to: message.to };
      sideName = message.kind;
      const connect =
        message.kind === 'raw' ? connectRaw : message.clients === 'wire' ? connectParleyWire : connectParley;
      side = await connect(message.url, message.from, message.to, message.groupSize);
      reply({ ready: true });
    } else if ('step' in message) {
      await runStep(message.step);
    } else {
      closing = true;
      await side?.close();
      reply({ closed: true });
      process.disconnect();
    }
  })();
});
// The scenario is gone without closing us (it failed or was killed): a thousand sockets would reconnect forever.
process.once('disconnect', () => {
  if (!closing) process.exit(1);
});
