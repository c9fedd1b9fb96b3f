import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { format, parseSamples, split, tsxSourceLines } from '../../bench/perf-split.js';
import { tempDir } from '../../server/test/helpers.js';

/** One sample as `perf script -F tid,time,ip,sym` prints it, innermost frame first. */
function sample(tid: number, time: number, ...frames: string[]): string {
  const lines = frames.map((f, i) => `\t    ${(0x7f00 + i).toString(16)} ${f}`);
  return [` ${tid}   ${time.toFixed(6)}: `, ...lines, ''].join('\n');
}

const MAIN = 100;
const WORKER = 101;
const PUBLISH = 'JS:*publish file:///work/main/server/src/im/messages.ts:1:1350';
const DISPATCH = 'JS:* file:///work/main/server/src/gateway/index.ts:1:3817';
const LOOP = 'uv_run';

const text = [
  // 0.0 s: a busy span of the main thread (five samples).
  sample(MAIN, 0.01, '__libc_pwrite', 'sqlite3VdbeExec', 'sqlite3_step', PUBLISH, LOOP),
  sample(
    MAIN,
    0.02,
    'JS:*apply /x/node_modules/socket.io-adapter/dist/in-memory-adapter.js:251:10',
    'JS:*emit /x/node_modules/socket.io/dist/broadcast-operator.js:162:9',
    PUBLISH,
    LOOP,
  ),
  sample(
    MAIN,
    0.03,
    'v8::internal::Scavenger::ScavengePage',
    'JS:*emit /x/node_modules/socket.io/dist/broadcast-operator.js:162:9',
    LOOP,
  ),
  sample(
    MAIN,
    0.04,
    'JS:*sendPacket /x/node_modules/engine.io/build/socket.js:386:15',
    'JS:*packet /x/node_modules/socket.io/dist/socket.js:347:11',
    DISPATCH,
    LOOP,
  ),
  sample(
    MAIN,
    0.05,
    'JS:*safeParse /x/node_modules/zod/v4/mini/schemas.js:25:14',
    'JS:*check file:///work/main/src/protocol/validate.ts:1:159',
    DISPATCH,
    LOOP,
  ),
  // The checkpointer's thread, in the same span.
  sample(WORKER, 0.06, 'sqlite3WalCheckpoint', 'JS:^pragma /x/node_modules/better-sqlite3/lib/methods/pragma.js:4:33'),
  // 1.0 s: a quiet span (one sample): the process woke for a timer.
  sample(MAIN, 1.01, 'epoll_pwait', 'uv__io_poll', LOOP),
].join('\n');

describe('bench/perf-split', () => {
  it('parses each sample with its thread, time and frames, innermost first', () => {
    const samples = parseSamples(text);
    expect(samples).toHaveLength(7);
    expect(samples[0]).toEqual({
      tid: MAIN,
      time: 0.01,
      frames: ['__libc_pwrite', 'sqlite3VdbeExec', 'sqlite3_step', PUBLISH, LOOP],
    });
    expect(samples[5]?.tid).toBe(WORKER);
  });

  it('puts each sample in the first part one of its frames matches, other threads apart', () => {
    const result = split(parseSamples(text));
    expect(result.mainTid).toBe(MAIN);
    expect(result.samples).toBe(7);
    // The scavenge inside the broadcast is the collector's: the collector is tried first.
    expect(result.parts).toEqual({
      storage: 1,
      broadcast: 1,
      collector: 1,
      ack: 1,
      other: 1,
      polling: 1,
      'thread:storage': 1,
    });
  });

  it('names the innermost own frame of the request path, leaving out storage, broadcast and ack', () => {
    const result = split(parseSamples(text));
    expect(result.own).toEqual([{ frame: 'check src/protocol/validate.ts:1:159', samples: 1 }]);
    expect(format(result)).toContain('check src/protocol/validate.ts:1:159');
  });

  it("does not take a dependency's TypeScript sources for the project's own", () => {
    const dependency = 'JS:*parse /work/main/node_modules/some-lib/src/parse.ts:3:7';
    const result = split(parseSamples(sample(MAIN, 0.01, dependency, DISPATCH, LOOP)));
    expect(result.own).toEqual([{ frame: 'server/src/gateway/index.ts:1:3817', samples: 1 }]);
  });

  it('keeps only the spans in which the main thread was busy enough', () => {
    const result = split(parseSamples(text), { busy: 3 });
    expect(result.spans).toEqual({ kept: 1, seen: 2 });
    // The quiet span's poll is gone; the worker's sample in the busy span stays.
    expect(result.samples).toBe(6);
    expect(result.parts.polling).toBeUndefined();
    expect(result.parts['thread:storage']).toBe(1);
  });

  it('takes the main thread it is told', () => {
    const result = split(parseSamples(text), { mainTid: WORKER });
    expect(result.mainTid).toBe(WORKER);
    expect(result.parts.storage).toBe(1);
    expect(result.parts['thread:other']).toBe(3);
  });

  describe("source lines from tsx's cache", () => {
    const SOURCE = '/work/main/server/src/im/messages.ts';
    /** A cached module as tsx writes it: generated column 10 of line 1 comes from source line `line`, column 3. */
    const cached = (dir: string, name: string, line: 6 | 11, mtime: number) => {
      // Base64 VLQ: generated column 10 (U), source 0 (A), line +5 (K) or +10 (U), column 2 (E).
      const mappings = line === 6 ? 'AAAA,UAKE' : 'AAAA,UAUE';
      const file = join(dir, name);
      writeFileSync(file, JSON.stringify({ code: '', map: { version: 3, sources: [SOURCE], names: [], mappings } }));
      utimesSync(file, mtime, mtime);
    };

    it("maps a compiled position to its source line, from the newest of the module's versions", () => {
      const dir = tempDir();
      cached(dir, '1-new', 11, 2_000);
      cached(dir, '2-old', 6, 1_000);
      writeFileSync(join(dir, '3-not-json'), 'not json');
      const lines = tsxSourceLines(dir);
      expect(lines(SOURCE, 1, 13)).toBe(11);
      expect(lines('/work/main/server/src/other.ts', 1, 13)).toBeUndefined();
      expect(tsxSourceLines(join(dir, 'missing'))(SOURCE, 1, 13)).toBeUndefined();
    });

    it('names own frames by their source line where it is known', () => {
      const dir = tempDir();
      cached(dir, 'only', 6, 1_000);
      const text = [
        sample(MAIN, 0.01, 'JS:*publish file:///work/main/server/src/im/messages.ts:1:11', LOOP),
        sample(MAIN, 0.02, 'JS:* file:///work/main/server/src/gateway/index.ts:1:3817', LOOP),
      ].join('\n');
      const result = split(parseSamples(text), { sourceLines: tsxSourceLines(dir) });
      expect(result.own).toEqual([
        { frame: 'publish server/src/im/messages.ts:6', samples: 1 },
        { frame: 'server/src/gateway/index.ts:1:3817', samples: 1 },
      ]);
    });
  });
});
