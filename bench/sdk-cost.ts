/**
 * The SDK's own CPU per group message, without a network: `node --import tsx bench/sdk-cost.ts`. A thousand clients
 * in groups of ten run on an in-process transport; each message is one client's `sendMessage` (acked at once) and
 * nine pushes to the other members, each parsed from JSON as socket.io would hand it over. The baseline is the same
 * pushes to a bare handler, as the raw clients of `im-chat` have. It prints one JSON line; compare two versions of
 * the SDK by running each in turn, more than once (`SDK_COST_RUNS`), on a quiet machine.
 *
 * What `im-chat` leaves to the machine (sockets, socket.io's codec, the kernel) is the same for both sides; this
 * measures what differs, where a change to the SDK shows without the noise of two processes and a server.
 */
import type { Transport, TransportHandlers } from '../src/core/transport.js';
import { createClient, type ParleyClient } from '../src/index.js';
import { GCProfiler } from 'node:v8';
import { promotedBytes, round3 } from './stats.js';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1000);
const GROUP_SIZE = 10;
/** Enough for every cache and de-duplication window to fill, and the code to be compiled, before measuring. */
const WARMUP = Number(process.env.SDK_COST_WARMUP ?? 60_000);
const MESSAGES = Number(process.env.SDK_COST_MESSAGES ?? 100_000);
const RUNS = Number(process.env.SDK_COST_RUNS ?? 3);

let ts = 1_800_000_000_000;
const members: TransportHandlers[] = [];
const groupOf = (i: number) => Math.floor(i / GROUP_SIZE);

/** Pushes one message to every member of `from`'s group but `from`, each as its own parse of the same JSON. */
function fanOut(from: number, wire: Record<string, unknown>): void {
  const text = JSON.stringify(wire);
  const first = groupOf(from) * GROUP_SIZE;
  for (let k = first; k < Math.min(CLIENTS, first + GROUP_SIZE); k++) {
    if (k !== from) members[k]?.onPush('imMessage', JSON.parse(text));
  }
}

/** An in-process server: authorize, subscribe and publish acked at once; a publish pushed to the group. */
const transport: Transport = (_url, handlers) => {
  let me = -1;
  queueMicrotask(() => handlers.onOpen());
  return {
    emit(event, payload, ack) {
      const params = payload as Record<string, unknown>;
      let reply: unknown = { code: 200, content: null };
      if (event === 'authorize') {
        me = Number(String(params.userId).slice(1));
        members[me] = handlers;
        reply = { code: 200, sid: `s${me}`, enablePublish: true, enableSubscribe: true, mD: { GIM: { ack: false } } };
      } else if (event === 'publishIM') {
        const at = ++ts;
        const { to, guid, mt, p } = params;
        fanOut(me, { t: 'group', r: to, s: `u${me}`, i: guid, ts: at, mt, p, d: `{"n":${me}}` });
        reply = { code: 200, content: { timestamp: at } };
      }
      queueMicrotask(() => ack?.(reply));
    },
    close() {},
  };
};

let delivered = 0;
let seq = 0;
type Side = (i: number) => void;

async function sdkSide(): Promise<Side> {
  const clients: ParleyClient[] = [];
  for (let i = 0; i < CLIENTS; i++) {
    const client = createClient({ host: 'http://sdk-cost', appkey: 'bench', modules: ['im'], transport });
    await client.connect({ id: `u${i}`, data: { n: i } });
    await client.im.subscribeGroup({ groupIds: [`g${groupOf(i)}`] });
    client.im.on('GROUP_MESSAGE_RECEIVED', (m) => {
      if (m.senderId !== `u${i}`) delivered++;
    });
    clients.push(client);
  }
  return (i) => {
    const client = clients[i] as ParleyClient;
    const message = client.im.createTextMessage({ text: 'hi', to: { type: 'group', id: `g${groupOf(i)}` } });
    void client.im.sendMessage({ message });
  };
}

function bareSide(): Side {
  for (let i = 0; i < CLIENTS; i++) {
    members[i] = {
      onOpen: () => undefined,
      onClose: () => undefined,
      onError: () => undefined,
      onPush: (_event, payload) => {
        if ((payload as { s: string }).s !== `u${i}`) delivered++;
      },
    };
  }
  return (i) =>
    fanOut(i, {
      t: 'group',
      r: `g${groupOf(i)}`,
      s: `u${i}`,
      i: `m${seq++}`,
      ts: ++ts,
      mt: 'text',
      p: '{"text":"hi"}',
    });
}

/** Sends `count` messages from random clients, yielding to the event loop every 100 so that acks settle. */
async function drive(send: Side, count: number): Promise<number> {
  const start = process.cpuUsage();
  for (let k = 0; k < count; k++) {
    send(Math.floor(Math.random() * CLIENTS));
    if (k % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
  }
  await new Promise((resolve) => setImmediate(resolve));
  const used = process.cpuUsage(start);
  return (used.user + used.system) / count;
}

const kind = process.argv[2];
if (kind === 'sdk' || kind === 'bare') {
  // One side in this process: its heap holds only what that side keeps.
  const send = kind === 'sdk' ? await sdkSide() : bareSide();
  await drive(send, WARMUP);
  delivered = 0;
  const profiler = new GCProfiler();
  profiler.start();
  const micros = await drive(send, MESSAGES);
  const promoted = promotedBytes(profiler.stop().statistics) / MESSAGES;
  if (delivered !== MESSAGES * (GROUP_SIZE - 1)) throw new Error(`${kind}: ${delivered} deliveries`);
  // A full collection of everything the side keeps, three times, the least counting: what marking a thousand clients'
  // state costs, which a full collection in `im-chat`'s clients' process pays on top of its other work.
  const gc = (globalThis as { gc: () => void }).gc;
  let fullGcMs = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    gc();
    fullGcMs = Math.min(fullGcMs, performance.now() - start);
  }
  const heapMb = process.memoryUsage().heapUsed / 2 ** 20;
  process.stdout.write(`${JSON.stringify({ micros, heapMb, fullGcMs, promoted })}\n`);
  process.exit(0);
}

const { execFileSync } = await import('node:child_process');
const { fileURLToPath } = await import('node:url');
const self = fileURLToPath(import.meta.url);
type Measured = { micros: number; heapMb: number; fullGcMs: number; promoted: number };
const measure = (side: 'sdk' | 'bare') =>
  JSON.parse(
    execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', self, side], { encoding: 'utf8' }),
  ) as Measured;
const sdk: Measured[] = [];
const bare: Measured[] = [];
for (let run = 0; run < RUNS; run++) {
  // Taking turns, so that a machine whose speed drifts slows both alike.
  bare.push(measure('bare'));
  sdk.push(measure('sdk'));
}
// The least CPU of the runs: noise on a shared machine only ever adds.
const best = (runs: Measured[]) => Math.min(...runs.map((r) => r.micros));
console.log(
  JSON.stringify({
    bench: 'sdk-cost',
    clients: CLIENTS,
    group_size: GROUP_SIZE,
    bare_cpu_us_per_message: round3(best(bare)),
    sdk_cpu_us_per_message: round3(best(sdk)),
    sdk_extra_us_per_message: round3(best(sdk) - best(bare)),
    bare_heap_mb: round3(Math.max(...bare.map((r) => r.heapMb))),
    sdk_heap_mb: round3(Math.max(...sdk.map((r) => r.heapMb))),
    bare_full_gc_ms: round3(Math.min(...bare.map((r) => r.fullGcMs))),
    sdk_full_gc_ms: round3(Math.min(...sdk.map((r) => r.fullGcMs))),
    bare_promoted_bytes_per_message: round3(Math.min(...bare.map((r) => r.promoted))),
    sdk_promoted_bytes_per_message: round3(Math.min(...sdk.map((r) => r.promoted))),
    runs: { bare: bare.map((r) => round3(r.micros)), sdk: sdk.map((r) => round3(r.micros)) },
  }),
);
