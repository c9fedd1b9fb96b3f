import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/store/index.js';
import type { SendParams } from '../src/store/im.js';
import type { StoreTiming } from '../src/store/timing.js';
import { defer, tempDir } from './helpers.js';
import { newMessage, sendParams } from './store-support.js';

/** Collects what the `parley:store` channel publishes until the test ends (or `stop()`). */
function listen(): { timings: StoreTiming[]; stop(): void } {
  const timings: StoreTiming[] = [];
  const onMessage = (message: unknown) => timings.push(message as StoreTiming);
  subscribe('parley:store', onMessage);
  const stop = () => void unsubscribe('parley:store', onMessage);
  defer(stop);
  return { timings, stop };
}

async function sqliteStore(): Promise<Store> {
  const dir = tempDir();
  const store = await openStore({
    sqlite: join(dir, 'store.db'),
    dataDir: dir,
    databaseUrl: undefined,
    databaseSchema: undefined,
  });
  defer(() => store.close());
  return store;
}

const groupSend = (messageId: string, stored: () => void): SendParams =>
  sendParams(newMessage({ messageId }), { stored });

/** Holds the thread for `ms`, as a push to many sockets would. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe("the SQLite store's timings (diagnostics channel parley:store)", () => {
  it('times each batch of sends: how many, the transaction, and the pushes after its commit', async () => {
    const store = await sqliteStore();
    const { timings } = listen();
    // Three sends in one turn of the event loop are one batch; each push holds the thread 4 ms.
    await Promise.all(['m1', 'm2', 'm3'].map((id) => store.messages.send(groupSend(id, () => busy(4)))));
    const batches = timings.filter((t) => t.kind === 'send-batch');
    expect(batches).toHaveLength(1);
    const [batch] = batches;
    expect(batch).toMatchObject({ kind: 'send-batch', messages: 3 });
    if (batch?.kind !== 'send-batch') throw new Error('no batch');
    expect(batch.storeMs).toBeGreaterThanOrEqual(0);
    // The pushes are timed apart from the transaction: three of 4 ms.
    expect(batch.pushMs).toBeGreaterThanOrEqual(12);
    expect(batch.storeMs).toBeLessThan(batch.pushMs);
  });

  it("times the later writes (senders' read offsets, groups' heads) when they are made", async () => {
    const store = await sqliteStore();
    await store.messages.send(groupSend('m1', () => undefined));
    const { timings } = listen();
    // Closing makes what is pending: the sender's read offset and the group head of m1's send.
    await store.close();
    const later = timings.filter((t) => t.kind === 'later-writes');
    expect(later).toHaveLength(1);
    expect(later[0]).toMatchObject({ kind: 'later-writes' });
    if (later[0]?.kind !== 'later-writes') throw new Error('no later writes');
    expect(later[0].writes).toBeGreaterThanOrEqual(1);
    expect(later[0].ms).toBeGreaterThanOrEqual(0);
  });

  it('publishes nothing, and measures nothing, while nobody listens', async () => {
    const store = await sqliteStore();
    const { timings, stop } = listen();
    await store.messages.send(groupSend('m1', () => undefined));
    expect(timings.filter((t) => t.kind === 'send-batch')).toHaveLength(1);
    stop();
    await store.messages.send(groupSend('m2', () => undefined));
    await store.close();
    expect(timings).toHaveLength(1);
  });
});
