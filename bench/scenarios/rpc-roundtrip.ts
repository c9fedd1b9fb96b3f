/**
 * rpc-roundtrip: 20 000 sequential request/ack round trips through the Parley SDK and server, against raw
 * socket.io emit-with-ack to a server that answers the same reply, in the same process and run. Both sides run
 * in alternating blocks so that drift (JIT, GC, the other core) hits both alike.
 * Target: Parley p50 within 1.3x of raw.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Server } from 'socket.io';
import { io as rawClient } from 'socket.io-client';
import { createClient } from '../../src/index.js';
import { CLIENT_EVENTS } from '../../src/protocol/index.js';
import { loadConfig } from '../../server/src/config.js';
import { silentLogger } from '../../server/src/logger.js';
import { createParleyServer } from '../../server/src/server.js';
import { quantile, round3 } from '../stats.js';

const TOTAL = Number(process.env.BENCH_ROUNDTRIPS ?? 20_000);
const BLOCKS = 10;
const WARMUP = 1000;

async function rawSide() {
  const http = createServer();
  const io = new Server(http, { path: '/socket.io' });
  io.on('connection', (socket) => {
    socket.on(CLIENT_EVENTS.ping, (_params: unknown, ack: (reply: unknown) => void) => {
      ack({ code: 200, resultCode: 200, content: { time: Date.now() } });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const socket = rawClient(`http://127.0.0.1:${port}`, { transports: ['websocket'], forceNew: true });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return {
    roundTrip: () => new Promise<unknown>((resolve) => socket.emit(CLIENT_EVENTS.ping, {}, resolve)),
    close: async () => {
      socket.close();
      await io.close();
    },
  };
}

async function parleySide() {
  const app = {
    appkey: 'bench',
    secretKey: 'bench-secret',
    name: 'bench',
    requireOtp: false,
    requireAccessToken: false,
  };
  const server = createParleyServer(
    {
      ...loadConfig({}),
      port: 0,
      host: '127.0.0.1',
      sqlite: ':memory:',
      apps: [app],
      logLevel: 'silent',
      rateLimit: { perSecond: 1_000_000, burst: 1_000_000 },
    },
    { logger: silentLogger() },
  );
  const { url } = await server.listen();
  const client = createClient({ host: url, appkey: app.appkey, modules: ['pubsub'] });
  await client.connect({ id: 'bench-user' });
  const requests = client.connection.requests;
  return {
    roundTrip: () => requests.send({ event: CLIENT_EVENTS.ping, params: {}, kind: 'query' }),
    close: async () => {
      await client.disconnect();
      await server.close();
    },
  };
}

async function measure(roundTrip: () => Promise<unknown>, n: number, into: number[]): Promise<void> {
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await roundTrip();
    into.push(performance.now() - started);
  }
}

const raw = await rawSide();
const parley = await parleySide();
await measure(raw.roundTrip, WARMUP, []);
await measure(parley.roundTrip, WARMUP, []);
const rawTimes: number[] = [];
const parleyTimes: number[] = [];
const perBlock = Math.ceil(TOTAL / BLOCKS);
for (let b = 0; b < BLOCKS; b++) {
  await measure(raw.roundTrip, perBlock, rawTimes);
  await measure(parley.roundTrip, perBlock, parleyTimes);
}
await parley.close();
await raw.close();

const rawP50 = quantile(rawTimes, 0.5);
const parleyP50 = quantile(parleyTimes, 0.5);
const result = {
  bench: 'rpc-roundtrip',
  roundtrips: rawTimes.length,
  raw_p50_ms: round3(rawP50),
  parley_p50_ms: round3(parleyP50),
  raw_p99_ms: round3(quantile(rawTimes, 0.99)),
  parley_p99_ms: round3(quantile(parleyTimes, 0.99)),
  ratio_p50: round3(parleyP50 / rawP50),
  target_ratio_p50: 1.3,
};
console.log(`raw p50 ${result.raw_p50_ms} ms, parley p50 ${result.parley_p50_ms} ms, ratio ${result.ratio_p50}`);
console.log(JSON.stringify(result));
process.exit(0);
