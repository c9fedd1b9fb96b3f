/** Small statistics helpers shared by the scenarios. */
import { readFileSync } from 'node:fs';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { GCProfiler } from 'node:v8';

/** The q-quantile (0..1) of `values`, by nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

/** Rounds to three decimals for printing. */
export function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** The collection's kind, from a `gc` performance entry's `detail.kind`. */
export function gcKind(flag: number | undefined): string {
  if (flag === constants.NODE_PERFORMANCE_GC_MAJOR) return 'major';
  if (flag === constants.NODE_PERFORMANCE_GC_MINOR) return 'minor';
  if (flag === constants.NODE_PERFORMANCE_GC_INCREMENTAL) return 'incremental';
  if (flag === constants.NODE_PERFORMANCE_GC_WEAKCB) return 'weak callbacks';
  return 'unknown';
}

/**
 * What held a process's event loop over a span, milliseconds: its longest delay and the collector's pauses (all of
 * them together and the longest). A latency tail that lines up with these comes from that process. With them, the
 * bytes its scavenges promoted to the old generation: objects that outlived two scavenges, which only a full
 * collection takes back once they die (see {@link promotedBytes}).
 */
export interface Pauses {
  loopMaxMs: number;
  gcMs: number;
  gcMaxMs: number;
  promotedBytes: number;
  /** Full collections (mark-sweep-compact) over the span: each marks the whole heap, with the helpers' threads. */
  fullCollections: number;
}

/**
 * What the scavenges among `statistics` (a `GCProfiler`'s) moved into the old generation, in bytes: the growth of
 * the old space across each of them.
 */
export function promotedBytes(statistics: ReturnType<GCProfiler['stop']>['statistics']): number {
  const oldSpace = (heap: (typeof statistics)[number]['beforeGC']) =>
    heap.heapSpaceStatistics.find((space) => space.spaceName === 'old_space')?.spaceUsedSize ?? 0;
  let promoted = 0;
  for (const gc of statistics) {
    if (gc.gcType === 'Scavenge') promoted += Math.max(0, oldSpace(gc.afterGC) - oldSpace(gc.beforeGC));
  }
  return promoted;
}

/** How many of `statistics` (a `GCProfiler`'s) were full collections. */
export function fullCollections(statistics: ReturnType<GCProfiler['stop']>['statistics']): number {
  return statistics.filter((gc) => gc.gcType === 'MarkSweepCompact').length;
}

/** Watches this process's event loop and collector; `take()` returns what held them since the last `take()`. */
export function watchPauses(): { take(): Pauses } {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  let gcMs = 0;
  let gcMaxMs = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcMs += entry.duration;
      gcMaxMs = Math.max(gcMaxMs, entry.duration);
    }
  }).observe({ entryTypes: ['gc'] });
  let collections = new GCProfiler();
  collections.start();
  return {
    take() {
      const { statistics } = collections.stop();
      collections = new GCProfiler();
      collections.start();
      const pauses = {
        loopMaxMs: loop.max / 1e6,
        gcMs,
        gcMaxMs,
        promotedBytes: promotedBytes(statistics),
        fullCollections: fullCollections(statistics),
      };
      loop.reset();
      gcMs = 0;
      gcMaxMs = 0;
      return pauses;
    },
  };
}

/**
 * The calling thread's CPU time so far in microseconds, user and system, from `/proc/thread-self/stat` (Linux);
 * null elsewhere. Linux counts it in clock ticks of 10 ms (its usual 100 Hz): read it over seconds, not a call.
 */
export function threadCpuMicros(): number | null {
  try {
    // Fields after the command's closing parenthesis; utime and stime are the 14th and 15th of the whole line.
    const fields = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1e6) / 100 : null;
  } catch {
    return null;
  }
}

/** Write calls and bytes written so far by this process, files and sockets alike (`/proc/self/io`); null elsewhere. */
export function processWrites(): { calls: number; bytes: number } | null {
  try {
    const io = new Map(
      readFileSync('/proc/self/io', 'utf8')
        .split('\n')
        .map((line) => line.split(': ') as [string, string]),
    );
    const calls = Number(io.get('syscw'));
    const bytes = Number(io.get('wchar'));
    return Number.isFinite(calls) && Number.isFinite(bytes) ? { calls, bytes } : null;
  } catch {
    return null;
  }
}

/** The machine's CPU time so far, all cores together, in milliseconds (`/proc/stat`'s first line). */
export interface HostCpu {
  /** Time the cores ran anything: user, nice, system, interrupts. */
  busyMs: number;
  /** Time the hypervisor ran something else while this machine had work (`steal`). */
  stealMs: number;
  /** All of it: busy, idle, waiting on I/O, and stolen. */
  totalMs: number;
}

/**
 * Parses `/proc/stat`'s aggregate `cpu` line, whose fields are user, nice, system, idle, iowait, irq, softirq, steal
 * (then guest time, already counted in user); null when the text has none. Linux counts them in ticks of 10 ms.
 */
export function parseHostCpu(stat: string): HostCpu | null {
  const line = stat.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return null;
  const ms = line
    .trim()
    .split(/\s+/)
    .slice(1, 9)
    .map((field) => Number(field) * 10);
  if (ms.length < 7 || !ms.every(Number.isFinite)) return null;
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = ms;
  const busyMs = user + nice + system + irq + softirq;
  return { busyMs, stealMs: steal, totalMs: busyMs + idle + iowait + steal };
}

/** The machine's CPU time so far (see {@link parseHostCpu}); null off Linux. */
export function readHostCpu(): HostCpu | null {
  try {
    return parseHostCpu(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return null;
  }
}

/**
 * What the rest of the machine did over a span measured from `before` to `after`: the share of all the cores' time
 * the hypervisor took (`steal_pct`), and how many cores' worth of work ran besides the measured side's own processes
 * (`others_cores`: other services, and the scenario and the idle side), given those processes' CPU time over the span
 * in microseconds. A step run while either is high met a busy host, not only the other processes' code.
 */
export function hostBesides(
  before: HostCpu,
  after: HostCpu,
  sideCpuMicros: number,
  spanMs: number,
): { steal_pct: number; others_cores: number } {
  const total = after.totalMs - before.totalMs;
  const steal = after.stealMs - before.stealMs;
  const others = after.busyMs - before.busyMs - sideCpuMicros / 1000;
  return {
    steal_pct: total > 0 ? Math.round((steal / total) * 1000) / 10 : 0,
    others_cores: spanMs > 0 ? Math.round((Math.max(0, others) / spanMs) * 100) / 100 : 0,
  };
}
