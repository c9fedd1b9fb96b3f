/**
 * im-chat: 1 000 clients in 100 groups of 10, every client sending to its group, messages persisted. The inbound
 * rate steps up until p99 end-to-end latency (send call to each other member's event) exceeds 50 ms; the result is
 * the highest rate that held, Parley vs a raw socket.io room relay without storage, in the same run. Each server
 * runs in a process of its own (bench/server-process.ts); the clients are spread over `BENCH_PROCESSES` processes
 * of their own (bench/im-chat-clients.ts, whole groups each, so every latency is measured on one clock). Both sides
 * stay up for the whole run, warm up first (every cache full), and take turns at each rate, so that both meet the
 * machine in the same state. Steps are about a tenth apart, so that the ratio is not set by the list; a step over
 * budget is run again once before its side stops, so that one collector pause does not end it.
 * Target: Parley >= 0.7x raw.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FromClients, ParleyClients, ToClients } from '../im-chat-clients.js';
import { startServerProcess } from '../server-process.js';
import { hostBesides, type Pauses, quantile, readHostCpu, round3 } from '../stats.js';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1000);
const GROUP_SIZE = 10;
/** Processes each side's clients are spread over, whole groups each; more than one only pays with more than two cores. */
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 1);
// Up to well past what raw socket.io holds on a 2-core machine: a shorter list would cap the raw figure and flatter
// the ratio. Each side stops at its first step over budget. From 500/s up the steps are a tenth or so apart: on a
// slow machine, where both sides stop near 1 000/s, a step from 500 to 1 000 made the ratio 0.5 or 1 by chance.
const RATES = (
  process.env.BENCH_RATES ??
  '250,500,600,700,800,900,1000,1100,1250,1400,1500,1650,1800,2000,2250,2500,2750,3000,3300,3600,4000,4400,4800,5300,' +
    '5800,6400,7000,8000,10000,12000'
)
  .split(',')
  .map(Number);
/**
 * How long each step sends. Ten seconds, so that one stall of the machine (40-90 ms, in which every process on it
 * waits) does not decide a step alone: in a three-second step the deliveries one such stall delays are more than
 * 1 % of the step's, and whichever side met it first stopped, by chance (see docs/benchmarks.md).
 */
const STEP_MS = Number(process.env.BENCH_STEP_MS ?? 10_000);
/**
 * Before the climb each side runs at a moderate rate long enough for every group's members to fill their caches
 * (200 messages a conversation in Parley's SDK): a chat client lives with full caches, and the climb should not
 * measure them filling (the heap growing, the collector's first full passes) or the compiler's first minutes.
 */
const WARMUP_RATE = Number(process.env.BENCH_WARMUP_RATE ?? 800);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 30_000);
/**
 * Each step first sends at its rate this long unmeasured, then measures `STEP_MS` without a pause between. A side
 * idles while the other measures, and V8 shrinks an idle process's young generation and, through its memory reducer,
 * the limit its old generation may grow to; the first seconds back at full rate then promote more and end in a full
 * collection, in the clients' process (whose heap holds a thousand clients' caches on Parley's side) or the server's.
 * The target is about a rate held, not about those seconds (see docs/benchmarks.md, "The first seconds of a step").
 */
const LEAD_MS = Number(process.env.BENCH_LEAD_MS ?? 5000);
const DRAIN_MS = 1500;
const TICK_MS = 10;
const BUDGET_P99_MS = 50;
const CLIENTS_ENTRY = fileURLToPath(new URL('../im-chat-clients.ts', import.meta.url));
/**
 * `BENCH_IM_CLIENTS=wire`: Parley's clients are bare socket.io clients speaking its protocol, like raw's, so that the
 * run compares the servers alone; the default, `sdk`, runs `parley-im` in every client, as apps do.
 */
const PARLEY_CLIENTS: ParleyClients = process.env.BENCH_IM_CLIENTS === 'wire' ? 'wire' : 'sdk';
/** `BENCH_CLIENTS_PROFILE=<dir>` writes each clients process's CPU profile there. */
const CLIENTS_PROFILE = process.env.BENCH_CLIENTS_PROFILE;
/** `BENCH_CLIENTS_NODE_FLAGS`: Node's flags for both sides' clients processes (space-separated; none by default). */
const CLIENTS_NODE_FLAGS = (process.env.BENCH_CLIENTS_NODE_FLAGS ?? '').split(' ').filter(Boolean);

/** What one step of one side measured. */
interface StepRun {
  sent: number;
  latencies: number[];
  /** CPU time over the step, microseconds: the clients' processes together, and the server's process. */
  clientsCpu: number;
  serverCpu: number;
  /** The server's main thread's share of `serverCpu`, where the system tells. */
  serverMainCpu: number | null;
  /** The server's write calls and bytes over the step, where the system tells (Linux). */
  serverWrites: { calls: number; bytes: number } | null;
  /** What held the clients' event loops: the longest delay and collector pause of any process, all pauses summed. */
  clientsPauses: Pauses;
  /** What held the server's event loop over the step. */
  serverPauses: Pauses;
  /** The server's JavaScript heap in use at the step's end, bytes. */
  serverHeapBytes: number;
  /** What the rest of the machine did over the step (see {@link hostBesides}); null off Linux. */
  host: HostBesides | null;
}

interface Side {
  /**
   * Runs one step at `rate` across the processes, `leadMs` unmeasured then `ms` measured; returns every process's
   * figures of the measured part together.
   */
  step(rate: number, ms?: number, leadMs?: number): Promise<StepRun>;
  /** Starts the server's profile over, when there is one (`BENCH_SERVER_PROFILE`). */
  restartProfile(): void;
  close(): Promise<void>;
}

/** One clients process: its messages in order, as promises. */
function clientsProcess(): { child: ChildProcess; next(): Promise<FromClients>; send(m: ToClients): void } {
  const child = fork(CLIENTS_ENTRY, [], {
    execArgv: [
      ...CLIENTS_NODE_FLAGS,
      ...(CLIENTS_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${CLIENTS_PROFILE}`] : []),
      '--import',
      'tsx',
    ],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const inbox: FromClients[] = [];
  const waiting: Array<{ resolve: (m: FromClients) => void; reject: (e: Error) => void }> = [];
  let exited: Error | undefined;
  child.on('message', (m: FromClients) => {
    const waiter = waiting.shift();
    if (waiter) waiter.resolve(m);
    else inbox.push(m);
  });
  child.once('exit', (code) => {
    exited = new Error(`im-chat clients exited with ${String(code)}`);
    for (const waiter of waiting.splice(0)) waiter.reject(exited);
  });
  return {
    child,
    next: () =>
      new Promise<FromClients>((resolve, reject) => {
        const queued = inbox.shift();
        if (queued) resolve(queued);
        else if (exited) reject(exited);
        else waiting.push({ resolve, reject });
      }),
    send: (m) => child.send(m),
  };
}

async function startSide(kind: 'raw' | 'parley'): Promise<Side> {
  const server = await startServerProcess(kind);
  const groups = Math.ceil(CLIENTS / GROUP_SIZE);
  const procs = Array.from({ length: PROCESSES }, (_, p) => {
    const from = Math.floor((groups * p) / PROCESSES) * GROUP_SIZE;
    const to = Math.min(CLIENTS, Math.floor((groups * (p + 1)) / PROCESSES) * GROUP_SIZE);
    return { ...clientsProcess(), share: (to - from) / CLIENTS, from, to };
  });
  // One process connects at a time, as one process did before: a thousand handshakes at once are their own test.
  for (const proc of procs) {
    proc.send({ kind, clients: PARLEY_CLIENTS, url: server.url, from: proc.from, to: proc.to, groupSize: GROUP_SIZE });
    await proc.next();
  }
  return {
    async step(rate, ms = STEP_MS, leadMs = LEAD_MS) {
      for (const proc of procs) {
        proc.send({ step: { rate: rate * proc.share, leadMs, ms, drainMs: DRAIN_MS, tickMs: TICK_MS } });
      }
      // The server's figures cover the measured part: from when every clients process has said it measures.
      if (leadMs > 0) {
        const measuring = await Promise.all(procs.map((proc) => proc.next()));
        if (!measuring.every((m) => 'measuring' in m)) throw new Error('im-chat clients answered out of turn');
      }
      const hostBefore = readHostCpu();
      const startedAt = performance.now();
      const before = await server.usage();
      const answers = await Promise.all(procs.map((proc) => proc.next()));
      const after = await server.usage();
      const hostAfter = readHostCpu();
      const spanMs = performance.now() - startedAt;
      const serverCpu = after.cpuMicros - before.cpuMicros;
      const serverMainCpu =
        before.mainThreadCpuMicros !== null && after.mainThreadCpuMicros !== null
          ? after.mainThreadCpuMicros - before.mainThreadCpuMicros
          : null;
      const serverWrites =
        before.writes && after.writes
          ? { calls: after.writes.calls - before.writes.calls, bytes: after.writes.bytes - before.writes.bytes }
          : null;
      let sent = 0;
      let clientsCpu = 0;
      const latencies: number[] = [];
      const clientsPauses: Pauses = { loopMaxMs: 0, gcMs: 0, gcMaxMs: 0, promotedBytes: 0, fullCollections: 0 };
      for (const answer of answers) {
        if (!('sent' in answer)) throw new Error('im-chat clients answered out of turn');
        sent += answer.sent;
        clientsCpu += answer.cpuMicros;
        clientsPauses.loopMaxMs = Math.max(clientsPauses.loopMaxMs, answer.pauses.loopMaxMs);
        clientsPauses.gcMs += answer.pauses.gcMs;
        clientsPauses.gcMaxMs = Math.max(clientsPauses.gcMaxMs, answer.pauses.gcMaxMs);
        clientsPauses.promotedBytes += answer.pauses.promotedBytes;
        clientsPauses.fullCollections += answer.pauses.fullCollections;
        for (const value of answer.latencies) latencies.push(value);
      }
      const host = hostBefore && hostAfter ? hostBesides(hostBefore, hostAfter, clientsCpu + serverCpu, spanMs) : null;
      return {
        sent,
        latencies,
        clientsCpu,
        serverCpu,
        serverMainCpu,
        serverWrites,
        clientsPauses,
        serverPauses: after.pauses,
        serverHeapBytes: after.heapUsedBytes,
        host,
      };
    },
    restartProfile: () => server.restartProfile(),
    async close() {
      for (const proc of procs) proc.send({ close: true });
      await Promise.all(procs.map((proc) => proc.next()));
      await server.close();
    },
  };
}

/**
 * CPU time per message sent, microseconds: where a side's cores went. `server_main_thread` is the server's main
 * thread's share of `server` (null where the system does not tell): what its other threads (SQLite's checkpointer,
 * the collector's helpers) spend is the difference.
 */
type CpuPerMessage = { clients: number; server: number; server_main_thread: number | null };
/** The server's writes per message sent (sockets and storage together): what storing a message adds shows here. */
type WritesPerMessage = { calls: number; bytes: number } | null;
type HostBesides = ReturnType<typeof hostBesides>;
type Step = {
  rate: number;
  /** The median says whether a side is saturated (queues everywhere) or only paused now and then (a tail). */
  p50: number;
  p99: number;
  delivered: number;
  cpu_us_per_message: CpuPerMessage;
  server_writes_per_message: WritesPerMessage;
  /** What held each side's event loops over the step (see {@link Pauses}). */
  pauses_ms: { clients: PausesMs; server: PausesMs };
  /** Bytes per message sent that each side's scavenges promoted to the old generation (see {@link Pauses}). */
  promoted_bytes_per_message: { clients: number; server: number };
  /** The server's JavaScript heap in use at the step's end, MiB. */
  server_heap_mib: number;
  /**
   * The hypervisor's share of the machine's time and the cores busy besides this side's processes, over the step:
   * a step that met a busy host says so here.
   */
  host: HostBesides | null;
};

/** One side's climb: the highest rate whose p99 stayed within budget so far, and each step's figures. */
interface Climb {
  name: string;
  side: Side;
  best: number;
  steps: Step[];
  stopped: boolean;
}

/**
 * Runs the rate steps for both sides, taking turns at each rate (the order alternates from one rate to the next),
 * so that a machine whose speed drifts over a run, as shared machines' do, slows both alike. A side stops at its
 * first step over budget, run twice.
 */
async function climbTogether(climbs: Climb[]): Promise<void> {
  for (const climb of climbs) {
    const { sent } = await climb.side.step(WARMUP_RATE, WARMUP_MS, 0);
    console.log(`${climb.name}: warmed up with ${sent} messages at ${WARMUP_RATE}/s`);
  }
  // A server profile (BENCH_SERVER_PROFILE) covers the measured steps only.
  for (const climb of climbs) climb.side.restartProfile();
  for (const [index, rate] of RATES.entries()) {
    const turn = index % 2 === 0 ? climbs : [...climbs].reverse();
    for (const climb of turn.filter((c) => !c.stopped)) {
      let step = await runStep(climb.side, climb.name, rate);
      if (step.p99 > BUDGET_P99_MS) step = await runStep(climb.side, climb.name, rate);
      climb.steps.push(step);
      if (step.p99 > BUDGET_P99_MS) climb.stopped = true;
      else climb.best = rate;
    }
    if (climbs.every((c) => c.stopped)) break;
  }
}

type PausesMs = { loop_max: number; gc: number; gc_max: number; full_collections: number };
const pausesMs = (p: Pauses): PausesMs => ({
  loop_max: round3(p.loopMaxMs),
  gc: Math.round(p.gcMs),
  gc_max: round3(p.gcMaxMs),
  full_collections: p.fullCollections,
});

/** Runs one step; returns its p99 (infinite when deliveries are missing). */
async function runStep(side: Side, name: string, rate: number): Promise<Step> {
  const run = await side.step(rate);
  const { sent, latencies, clientsPauses, serverPauses, serverWrites } = run;
  const serverHeapMib = Math.round(run.serverHeapBytes / 2 ** 20);
  const expected = sent * (GROUP_SIZE - 1);
  // Deliveries still missing after the drain count as over budget.
  const p99 = latencies.length >= expected * 0.99 ? quantile(latencies, 0.99) : Number.POSITIVE_INFINITY;
  const p50 = quantile(latencies, 0.5);
  const cpu: CpuPerMessage = {
    clients: Math.round(run.clientsCpu / sent),
    server: Math.round(run.serverCpu / sent),
    server_main_thread: run.serverMainCpu === null ? null : Math.round(run.serverMainCpu / sent),
  };
  const writes = serverWrites
    ? { calls: round3(serverWrites.calls / sent), bytes: Math.round(serverWrites.bytes / sent) }
    : null;
  const promoted = {
    clients: Math.round(clientsPauses.promotedBytes / sent),
    server: Math.round(serverPauses.promotedBytes / sent),
  };
  console.log(
    `${name}: ${rate}/s inbound, ${latencies.length}/${expected} delivered, p50 ${round3(p50)} ms, p99 ${round3(p99)} ms, ` +
      `CPU per message ${cpu.clients} us clients + ${cpu.server} us server` +
      (cpu.server_main_thread === null ? '' : ` (${cpu.server_main_thread} us on its main thread)`) +
      (writes ? `, server writes per message ${writes.calls} (${writes.bytes} bytes)` : '') +
      `; loop held up to ${round3(clientsPauses.loopMaxMs)} ms in clients, ${round3(serverPauses.loopMaxMs)} ms in ` +
      `server; collector ${Math.round(clientsPauses.gcMs)} ms (longest ${round3(clientsPauses.gcMaxMs)}, ` +
      `${clientsPauses.fullCollections} full) in clients, ${Math.round(serverPauses.gcMs)} ms (longest ` +
      `${round3(serverPauses.gcMaxMs)}, ${serverPauses.fullCollections} full) in server; promoted per message ` +
      `${promoted.clients} bytes in clients, ${promoted.server} in server; server heap ${serverHeapMib} MiB` +
      (run.host ? `; host ${run.host.steal_pct} % stolen, ${run.host.others_cores} cores busy besides` : ''),
  );
  return {
    rate,
    p50: round3(p50),
    p99: round3(p99),
    delivered: latencies.length,
    cpu_us_per_message: cpu,
    server_writes_per_message: writes,
    pauses_ms: { clients: pausesMs(clientsPauses), server: pausesMs(serverPauses) },
    promoted_bytes_per_message: promoted,
    server_heap_mib: serverHeapMib,
    host: run.host,
  };
}

const climbs: Climb[] = [];
for (const name of ['raw', 'parley'] as const) {
  climbs.push({ name, side: await startSide(name), best: 0, steps: [], stopped: false });
}
await climbTogether(climbs);
for (const climb of climbs) await climb.side.close();
const [rawResult, parleyResult] = climbs as [Climb, Climb];
// Where each side's CPU went at the highest rate both held: the figures that say what limits the ratio, and less
// noisy than the rates themselves.
const common = Math.min(rawResult.best, parleyResult.best);
const stepAt = (climb: Climb) => [...climb.steps].reverse().find((step) => step.rate === common);

const result = {
  bench: 'im-chat',
  clients: CLIENTS,
  group_size: GROUP_SIZE,
  client_processes: PROCESSES,
  parley_clients: PARLEY_CLIENTS,
  raw_max_inbound_per_s: rawResult.best,
  parley_max_inbound_per_s: parleyResult.best,
  ratio: round3(rawResult.best > 0 ? parleyResult.best / rawResult.best : 0),
  target_ratio: 0.7,
  cpu_compared_at_per_s: common,
  raw_cpu_us_per_message: stepAt(rawResult)?.cpu_us_per_message ?? null,
  parley_cpu_us_per_message: stepAt(parleyResult)?.cpu_us_per_message ?? null,
  raw_server_writes_per_message: stepAt(rawResult)?.server_writes_per_message ?? null,
  parley_server_writes_per_message: stepAt(parleyResult)?.server_writes_per_message ?? null,
  raw_steps: rawResult.steps,
  parley_steps: parleyResult.steps,
};
console.log(JSON.stringify(result));
process.exit(0);
