/**
 * im-latency: private chat at 1 000 messages per second for ten seconds; end-to-end latency from the send call
 * to the receiver's event, Parley (validated, persisted in SQLite, acked, de-duplicated) vs a raw socket.io relay
 * without storage, in the same run; each server in a process of its own (bench/server-process.ts). The first three
 * seconds of each side warm it up and are not counted: in a server's first seconds of traffic V8 still compiles its
 * hot code (60-100 functions a second in Parley's over the first three, under 10 after), and both sides' p99 then
 * measured the warm-up rather than the steady state. The sides take turns, two rounds each (`BENCH_ROUNDS`), and each
 * side's p50 and p99 are over all its rounds' messages (`messages` is per round). Each side's CPU per measured
 * message, its server's and its clients' (this process), is in the JSON line. Target: Parley p99 <= raw p99 + 3 ms.
 */
import { performance } from 'node:perf_hooks';
import { createClient, type ParleyClient } from '../../src/index.js';
import { BENCH_APP } from '../parley-server.js';
import { rawClient } from '../raw-im.js';
import { startServerProcess, type ServerProcess, type ServerUsage } from '../server-process.js';
import { quantile, round3 } from '../stats.js';

const RATE = Number(process.env.BENCH_RATE ?? 1000);
/** Ten seconds: the p99 of 10 000 messages is their 100th slowest, which one pause of either side moves less. */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = RATE * Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const TOTAL = WARMUP + RATE * SECONDS;
const TICK_MS = 2;
const PER_TICK = (RATE * TICK_MS) / 1000;

/** CPU microseconds per measured message: the server's process, and this process (the side's two clients). */
interface Cost {
  server: number;
  clients: number;
}

/**
 * Sends `TOTAL` messages at `RATE` with `send(i)`; resolves when `received()` reaches TOTAL or 10 s pass, with what
 * the side spent from the end of its warm-up.
 */
async function drive(send: (i: number) => void, received: () => number, server: ServerProcess): Promise<Cost> {
  let sent = 0;
  // Asked for without waiting for the answer, so that the sending does not pause at the warm-up's end.
  let from: { server: Promise<ServerUsage>; clients: NodeJS.CpuUsage } | undefined;
  const start = performance.now();
  while (sent < TOTAL) {
    if (sent >= WARMUP && from === undefined) from = { server: server.usage(), clients: process.cpuUsage() };
    const due = Math.min(TOTAL, Math.floor(((performance.now() - start) / 1000) * RATE) + PER_TICK);
    while (sent < due) send(sent++);
    await new Promise((resolve) => setTimeout(resolve, TICK_MS));
  }
  const deadline = performance.now() + 10_000;
  while (received() < TOTAL && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  const clients = process.cpuUsage(from?.clients);
  const serverFrom = from ? (await from.server).cpuMicros : 0;
  const serverNow = (await server.usage()).cpuMicros;
  const measured = TOTAL - WARMUP;
  return {
    server: Math.round((serverNow - serverFrom) / measured),
    clients: Math.round((clients.user + clients.system) / measured),
  };
}

/** Send times by message id; the latencies of the messages sent after the warm-up. */
class Recorder {
  readonly #sent = new Map<string, { at: number; index: number }>();
  readonly latencies: number[] = [];
  received = 0;

  sent(id: string, index: number): void {
    this.#sent.set(id, { at: performance.now(), index });
  }

  arrived(id: string): void {
    this.received += 1;
    const sent = this.#sent.get(id);
    if (sent && sent.index >= WARMUP) this.latencies.push(performance.now() - sent.at);
  }
}

async function raw(): Promise<{ latencies: number[]; cost: Cost }> {
  const server = await startServerProcess('raw');
  const alice = await rawClient(server.url, 'alice');
  const bob = await rawClient(server.url, 'bob');
  const recorder = new Recorder();
  bob.on('imMessage', (m: { i: string }) => {
    recorder.arrived(m.i);
    bob.emit('imAck', { publishGuid: m.i });
  });
  const cost = await drive(
    (i) => {
      const guid = `raw-${i}`;
      recorder.sent(guid, i);
      alice.emit(
        'publishIM',
        { t: 'private', to: 'bob', p: JSON.stringify({ text: `m${i}` }), guid, mt: 'text' },
        () => undefined,
      );
    },
    () => recorder.received,
    server,
  );
  alice.close();
  bob.close();
  await server.close();
  return { latencies: recorder.latencies, cost };
}

async function parley(): Promise<{ latencies: number[]; cost: Cost }> {
  const server = await startServerProcess('parley');
  const connect = async (id: string): Promise<ParleyClient> => {
    const client = createClient({ host: server.url, appkey: BENCH_APP.appkey, modules: ['im'] });
    await client.connect({ id, data: { name: id } });
    return client;
  };
  const alice = await connect('alice');
  const bob = await connect('bob');
  const recorder = new Recorder();
  bob.im.on('PRIVATE_MESSAGE_RECEIVED', (m) => recorder.arrived(m.messageId));
  const cost = await drive(
    (i) => {
      const message = alice.im.createTextMessage({ text: `m${i}`, to: { type: 'private', id: 'bob' } });
      recorder.sent(message.messageId, i);
      void alice.im.sendMessage({ message });
    },
    () => recorder.received,
    server,
  );
  await alice.disconnect();
  await bob.disconnect();
  await server.close();
  return { latencies: recorder.latencies, cost };
}

/**
 * The sides take turns, `ROUNDS` each, every round with a server of its own, and each side's latencies are pooled:
 * a spell of the machine's noise then falls on one round of one side, not on all of it.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const rawLatencies: number[] = [];
const parleyLatencies: number[] = [];
const rawCosts: Cost[] = [];
const parleyCosts: Cost[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  const rawRound = await raw();
  rawLatencies.push(...rawRound.latencies);
  rawCosts.push(rawRound.cost);
  const parleyRound = await parley();
  parleyLatencies.push(...parleyRound.latencies);
  parleyCosts.push(parleyRound.cost);
}
/** A side's CPU per message over its rounds. */
const costOf = (costs: readonly Cost[], part: keyof Cost) =>
  Math.round(costs.reduce((sum, cost) => sum + cost[part], 0) / costs.length);
const rawP99 = quantile(rawLatencies, 0.99);
const parleyP99 = quantile(parleyLatencies, 0.99);
const result = {
  bench: 'im-latency',
  rate_per_s: RATE,
  rounds: ROUNDS,
  messages: TOTAL - WARMUP,
  warmup_messages: WARMUP,
  raw_received: rawLatencies.length,
  parley_received: parleyLatencies.length,
  raw_p50_ms: round3(quantile(rawLatencies, 0.5)),
  raw_p99_ms: round3(rawP99),
  parley_p50_ms: round3(quantile(parleyLatencies, 0.5)),
  parley_p99_ms: round3(parleyP99),
  ratio: round3(parleyP99 / rawP99),
  p99_over_raw_ms: round3(parleyP99 - rawP99),
  target_p99_over_raw_ms: 3,
  raw_server_cpu_us: costOf(rawCosts, 'server'),
  parley_server_cpu_us: costOf(parleyCosts, 'server'),
  raw_clients_cpu_us: costOf(rawCosts, 'clients'),
  parley_clients_cpu_us: costOf(parleyCosts, 'clients'),
};
console.log(
  `raw p50/p99 ${result.raw_p50_ms}/${result.raw_p99_ms} ms, parley ${result.parley_p50_ms}/${result.parley_p99_ms} ms`,
);
console.log(JSON.stringify(result));
process.exit(0);
