/**
 * perf-split: where a benchmark process's CPU time went, from Linux `perf`'s samples, in the parts that tell Parley's
 * server from raw socket.io's: the collector, storage, socket.io's broadcast, the ack, reading requests, polling, the
 * rest of the main thread and the other threads. It also names the project's own functions that took the most
 * (storage, broadcast and acks left out). Record the process with its JavaScript named (`--perf-basic-prof`):
 *
 *     NODE_OPTIONS=--perf-basic-prof BENCH_RATES=2000,2000,2000 node --import tsx bench/scenarios/im-chat.ts &
 *     perf record -F 999 -g -p <server pid> -o parley.data -- sleep 40
 *     perf script -i parley.data -F tid,time,ip,sym > parley.stacks
 *     node --import tsx bench/perf-split.ts parley.stacks --busy 60
 *
 * `--busy N` keeps only the 100 ms spans in which the main thread was sampled at least N times (at 999 Hz, 60 is a
 * thread busy 60% of the span): `im-chat`'s sides take turns, and a side's quiet spans (waking for timers) would
 * otherwise weigh as much as its steps. `--main TID` names the main thread (by default the thread sampled most);
 * `--sources DIR` is where `tsx` cached what it compiled (by default its own directory), whose source maps name each
 * own frame by its source line; `--json` prints one JSON line instead of the table. Compare two sides by a part
 * both do alike, such as the broadcast's samples per socket written.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One sample: its thread, its time in seconds and its stack, innermost frame first. */
export interface Sample {
  tid: number;
  time: number;
  frames: string[];
}

/** Parses the text of `perf script -F tid,time,ip,sym` (with call graphs). */
export function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  let current: Sample | undefined;
  for (const line of text.split('\n')) {
    const header = /^\s*(\d+)\s+(\d+(?:\.\d+)?):\s*$/.exec(line);
    if (header) {
      current = { tid: Number(header[1]), time: Number(header[2]), frames: [] };
      samples.push(current);
      continue;
    }
    const frame = /^\s+[0-9a-f]+\s+(.+)$/.exec(line);
    if (frame && current) current.frames.push((frame[1] as string).trim());
    else if (line.trim() === '') current = undefined;
  }
  return samples;
}

/** The parts of the main thread, tried in this order: a sample goes to the first part one of its frames matches. */
export const PARTS: ReadonlyArray<readonly [name: string, frame: RegExp]> = [
  ['collector', /Scaveng|Heap::|MarkCompact|Sweeper|ConcurrentMarking|MinorMC|Evacuat/],
  ['storage', /sqlite3|better_sqlite3|better-sqlite3/],
  ['broadcast', /socket\.io\/dist\/broadcast-operator\.js/],
  ['ack', /^JS:\S*packet \S*socket\.io\/dist\/socket\.js/],
  ['reading', /onStreamRead|uv__read/],
  ['polling', /epoll_pwait|epoll_wait/],
];

/** Frames of the project's own code: its sources, not its dependencies'. */
const OWN_CODE = /^(?!.*\/node_modules\/).*\/(?:server\/src|src|bench)\/[^ ]*\.ts:\d+/;
/** Parts whose own-code frames are not the request path's: they are counted in their parts. */
const NOT_OWN_WORK = /^(?:collector|storage|broadcast|ack)$/;

/** What {@link split} found. */
export interface Split {
  mainTid: number;
  /** Samples kept (all threads), and the 100 ms spans of the main thread kept out of all it was seen in. */
  samples: number;
  spans: { kept: number; seen: number };
  /** Samples by part; other threads are `thread:collector`, `thread:storage` and `thread:other`. */
  parts: Record<string, number>;
  /**
   * The project's functions: the innermost own frame of each main-thread sample outside the collector, storage,
   * broadcast and ack, most samples first.
   */
  own: Array<{ frame: string; samples: number }>;
}

/** The source line (1-based) a compiled position came from (1-based line and column, as perf names a function). */
export type SourceLines = (file: string, line: number, column: number) => number | undefined;

/** Where `tsx` keeps the modules it compiled, as `tsx` names it. */
export function tsxCacheDir(): string {
  return join(tmpdir(), `tsx-${process.geteuid ? process.geteuid() : userInfo().username}`);
}

/**
 * Source lines from `tsx`'s cache (`dir`), which holds each version of each module it compiled as JSON, `{code,
 * map}`: `tsx` compiles a module to a line or two, so perf's positions in it say little. The newest version of each
 * source counts: the one the recorded process ran, unless the source was edited and run again since.
 */
export function tsxSourceLines(dir: string): SourceLines {
  const newest = new Map<string, { mtime: number; map: SourceMapPayload }>();
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    const path = join(dir, name);
    let map: SourceMapPayload | undefined;
    try {
      map = (JSON.parse(readFileSync(path, 'utf8')) as { map?: SourceMapPayload }).map;
    } catch {
      continue;
    }
    const source = map?.sources?.[0];
    if (!map || typeof source !== 'string') continue;
    const mtime = statSync(path).mtimeMs;
    if ((newest.get(source)?.mtime ?? -1) < mtime) newest.set(source, { mtime, map });
  }
  const decoded = new Map<string, SourceMap>();
  return (file, line, column) => {
    const entry = newest.get(file);
    if (!entry) return undefined;
    let map = decoded.get(file);
    if (!map) {
      map = new SourceMap(entry.map);
      decoded.set(file, map);
    }
    const found = map.findEntry(line - 1, column - 1) as { originalLine?: number };
    return typeof found.originalLine === 'number' ? found.originalLine + 1 : undefined;
  };
}

/**
 * Splits `samples` into parts; see the file's comment for `busy` and `mainTid`. With `sourceLines`, own frames are
 * named by their source line instead of their position in the compiled module.
 */
export function split(
  samples: readonly Sample[],
  options: { busy?: number; mainTid?: number; sourceLines?: SourceLines } = {},
): Split {
  const mainTid = options.mainTid ?? mostSampled(samples);
  const span = (s: Sample) => Math.floor(s.time * 10);
  const perSpan = new Map<number, number>();
  for (const s of samples) if (s.tid === mainTid) perSpan.set(span(s), (perSpan.get(span(s)) ?? 0) + 1);
  const busy = options.busy ?? 0;
  const keptSpans = new Set([...perSpan].filter(([, count]) => count >= busy).map(([key]) => key));
  const parts: Record<string, number> = {};
  const own = new Map<string, number>();
  let kept = 0;
  for (const s of samples) {
    if (!keptSpans.has(span(s))) continue;
    kept += 1;
    const part = s.tid === mainTid ? partOf(s.frames) : `thread:${threadPartOf(s.frames)}`;
    parts[part] = (parts[part] ?? 0) + 1;
    if (s.tid !== mainTid || NOT_OWN_WORK.test(part)) continue;
    const frame = s.frames.find((f) => OWN_CODE.test(f));
    if (frame) {
      const name = ownName(frame, options.sourceLines);
      own.set(name, (own.get(name) ?? 0) + 1);
    }
  }
  return {
    mainTid,
    samples: kept,
    spans: { kept: keptSpans.size, seen: perSpan.size },
    parts,
    own: [...own].map(([frame, count]) => ({ frame, samples: count })).sort((a, b) => b.samples - a.samples),
  };
}

/**
 * An own frame, `JS:*name file:///…/server/src/x.ts:1:2` (tiered `*`, `^` or `~`; an unnamed function has no name),
 * as `name server/src/x.ts:line`, or with its compiled position where its source line is not known.
 */
function ownName(frame: string, sourceLines: SourceLines | undefined): string {
  const match = /^JS:[*^~]?(.*?)\s*(?:file:\/\/)?(\/\S*?)\/((?:server\/src|src|bench)\/\S*?):(\d+):(\d+)$/.exec(frame);
  if (!match) return frame;
  const [, name, root, file, line, column] = match as unknown as [string, string, string, string, string, string];
  const source = sourceLines?.(`${root}/${file}`, Number(line), Number(column));
  const where = source === undefined ? `${file}:${line}:${column}` : `${file}:${source}`;
  return name ? `${name} ${where}` : where;
}

function partOf(frames: readonly string[]): string {
  for (const [name, pattern] of PARTS) if (frames.some((f) => pattern.test(f))) return name;
  return 'other';
}

function threadPartOf(frames: readonly string[]): string {
  const part = partOf(frames);
  return part === 'collector' || part === 'storage' ? part : 'other';
}

function mostSampled(samples: readonly Sample[]): number {
  const counts = new Map<number, number>();
  for (const s of samples) counts.set(s.tid, (counts.get(s.tid) ?? 0) + 1);
  let best = -1;
  let most = -1;
  for (const [tid, count] of counts) {
    if (count > most) [best, most] = [tid, count];
  }
  return best;
}

/** The table {@link main} prints. */
export function format(result: Split, ownShown = 15): string {
  const pct = (n: number) => `${((n / Math.max(1, result.samples)) * 100).toFixed(1)}%`;
  const lines = [
    `main thread ${result.mainTid}; ${result.samples} samples in ` +
      `${result.spans.kept} of ${result.spans.seen} spans of 100 ms`,
    ...Object.entries(result.parts)
      .sort((a, b) => b[1] - a[1])
      .map(([name, count]) => `${name.padEnd(18)} ${String(count).padStart(7)} ${pct(count).padStart(7)}`),
    'own code, innermost frame (outside the collector, storage, broadcast and ack):',
    ...result.own
      .slice(0, ownShown)
      .map((o) => `${String(o.samples).padStart(7)} ${pct(o.samples).padStart(7)}  ${o.frame}`),
  ];
  return lines.join('\n');
}

function main(argv: readonly string[]): void {
  const file = argv.find((a, i) => !a.startsWith('--') && !argv[i - 1]?.match(/^--(?:busy|main|sources)$/));
  if (!file) {
    process.stderr.write(
      'usage: perf-split.ts <perf script output> [--busy N] [--main TID] [--sources DIR] [--json]\n',
    );
    process.exitCode = 2;
    return;
  }
  const option = (name: string) => {
    const at = argv.indexOf(name);
    return at >= 0 && argv[at + 1] !== undefined ? Number(argv[at + 1]) : undefined;
  };
  const busy = option('--busy');
  const mainTid = option('--main');
  const sourcesAt = argv.indexOf('--sources');
  const sources = sourcesAt >= 0 ? argv[sourcesAt + 1] : tsxCacheDir();
  if ([busy, mainTid].some((n) => n !== undefined && !(Number.isInteger(n) && n >= 0))) {
    process.stderr.write('--busy and --main take a whole number\n');
    process.exitCode = 2;
    return;
  }
  const result = split(parseSamples(readFileSync(file, 'utf8')), {
    ...(busy !== undefined ? { busy } : {}),
    ...(mainTid !== undefined ? { mainTid } : {}),
    ...(sources ? { sourceLines: tsxSourceLines(sources) } : {}),
  });
  process.stdout.write(
    argv.includes('--json') ? `${JSON.stringify({ bench: 'perf-split', ...result })}\n` : `${format(result)}\n`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
