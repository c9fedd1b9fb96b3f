import { describe, expect, it } from 'vitest';
import { KeyedMutex } from '../src/im/mutex.js';

/** A promise with its resolve and reject at hand. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('KeyedMutex', () => {
  it("runs one key's tasks one at a time, in the order they came, each with its own result", async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    const first = deferred();
    const a = mutex.run('k', async () => {
      log.push('a starts');
      await first.promise;
      log.push('a ends');
      return 'A';
    });
    const b = mutex.run('k', () => {
      log.push('b runs');
      return Promise.resolve('B');
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(log).toEqual(['a starts']);
    first.resolve();
    expect(await Promise.all([a, b])).toEqual(['A', 'B']);
    expect(log).toEqual(['a starts', 'a ends', 'b runs']);
  });

  it("runs different keys' tasks side by side", async () => {
    const mutex = new KeyedMutex();
    const held = deferred();
    const slow = mutex.run('a', () => held.promise);
    expect(await mutex.run('b', () => Promise.resolve('b done'))).toBe('b done');
    held.resolve();
    await slow;
  });

  it("rejects a failed task's own promise and still runs the tasks queued behind it", async () => {
    const mutex = new KeyedMutex();
    const failing = mutex.run('k', () => Promise.reject(new Error('boom')));
    const next = mutex.run('k', () => Promise.resolve('after'));
    await expect(failing).rejects.toThrow('boom');
    expect(await next).toBe('after');
  });

  it('keeps idle keys until they number 1 024, then lets every idle one go at once, never a busy one', async () => {
    const mutex = new KeyedMutex();
    for (let i = 0; i < 1023; i += 1) await mutex.run(`idle-${i}`, () => Promise.resolve());
    const held = deferred();
    const busy = mutex.run('busy', () => held.promise);
    expect(mutex.size).toBe(1024);
    // A key that comes back while idle is the one it had: nothing is added.
    await mutex.run('idle-7', () => Promise.resolve());
    expect(mutex.size).toBe(1024);
    // A new key past the bound sweeps: the busy key stays, and runs what comes next after what it runs now.
    await mutex.run('new', () => Promise.resolve());
    expect(mutex.size).toBe(2);
    const order: string[] = [];
    const queued = mutex.run('busy', () => {
      order.push('second');
      return Promise.resolve();
    });
    await Promise.resolve();
    expect(order).toEqual([]);
    held.resolve();
    await Promise.all([busy, queued]);
    expect(order).toEqual(['second']);
  });

  it('sweeps again only once the keys number twice those still busy at the last sweep', async () => {
    const mutex = new KeyedMutex();
    const held = deferred();
    const busy = Array.from({ length: 1024 }, (_, i) => mutex.run(`busy-${i}`, () => held.promise));
    // Every key is busy: the sweep lets none go, and the next comes at 2 048 keys, not at every new one.
    await mutex.run('one more', () => Promise.resolve());
    expect(mutex.size).toBe(1025);
    for (let i = 0; i < 1023; i += 1) await mutex.run(`later-${i}`, () => Promise.resolve());
    expect(mutex.size).toBe(2048);
    held.resolve();
    await Promise.all(busy);
    await mutex.run('past the bound', () => Promise.resolve());
    expect(mutex.size).toBe(1);
  });
});
