import { createClient, type ClientOptions, type ConnectionStatusChange, type ParleyClient } from '../../src/index.js';
import { FakeServer } from './fake-server.js';

/** A deterministic random source (mulberry32) so jitter and host choice repeat run to run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A client wired to a fake server, recording its status changes. */
export interface FakeSetup {
  server: FakeServer;
  client: ParleyClient;
  statuses: ConnectionStatusChange[];
  /** Fires the "back online" signal. */
  goOnline(): void;
  /** The sequence of states so far, starting with `disconnected`. */
  path(): string[];
}

export function fakeSetup(options: Partial<ClientOptions> = {}): FakeSetup {
  const server = new FakeServer();
  let online: (() => void) | undefined;
  const client = createClient({
    hosts: ['a.test:1'],
    appkey: 'app-key',
    modules: ['pubsub'],
    transport: server.transport,
    random: seededRandom(7),
    online: (callback) => {
      online = callback;
      return () => {
        online = undefined;
      };
    },
    ...options,
  });
  const statuses: ConnectionStatusChange[] = [];
  client.on('connectionStatus', (change) => statuses.push(change));
  return {
    server,
    client,
    statuses,
    goOnline: () => online?.(),
    path: () => ['disconnected', ...statuses.map((s) => s.status)],
  };
}
