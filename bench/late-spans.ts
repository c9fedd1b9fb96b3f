/**
 * late-spans: where in a step of `im-chat` its late deliveries fell, and what the server's thread was doing then.
 * Run `im-chat` with `BENCH_DELIVERIES=<dir>` (each clients process writes each step's deliveries there) and, for the
 * server's side, `BENCH_SERVER_TIMINGS=<dir>` (the same dir), then:
 *
 *     node --import tsx bench/late-spans.ts <dir> [--budget 50] [--span 100]
 *
 * For each step it prints the deliveries, p50 and p99, how many were over the budget, and the spans of `--span` ms
 * (by send time) that held them, each with the server's records of those moments: turns of its loop 10 ms late or
 * more, collections of 5 ms or more, batches of sends that took 10 ms or more (with their cost per message), and the
 * clients process's own collections of 5 ms or more (kept with its deliveries). A tail
 * made of a few such spans is a few holds of the machine; one spread over the whole step is a side at its limit.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { quantile, round3 } from './stats.js';

/** One step's deliveries, as bench/im-chat-clients.ts writes them. */
export interface Deliveries {
  side: string;
  rate: number;
  /** The clients process's `performance.timeOrigin`: `origin + sent[i]` is a wall-clock time in ms. */
  origin: number;
  /** When each delivery's message was sent, ms from `origin`. */
  sent: readonly number[];
  /** Each delivery's latency, ms. */
  latency: readonly number[];
  /** The clients process's collections over the step, `at` in ms from `origin` (absent in older files). */
  gc?: readonly { at: number; ms: number; kind: string }[];
}

/** A span of send times that holds late deliveries. */
export interface LateSpan {
  /** Its start, ms after the step's first send. */
  offsetMs: number;
  /** Its start on the wall clock, ms. */
  at: number;
  /** Deliveries in it over the budget. */
  late: number;
  /** The longest latency among them, ms. */
  maxMs: number;
}

/** What {@link lateSpans} finds in one step. */
export interface StepTail {
  deliveries: number;
  p50: number;
  p99: number;
  /** Deliveries over the budget, and their share of all. */
  late: number;
  lateShare: number;
  /** The spans that hold them, in order. */
  spans: LateSpan[];
}

/** When the step's first message was sent, ms from its origin. */
function firstSent(step: Deliveries): number {
  let first = Infinity;
  for (const t of step.sent) if (t < first) first = t;
  return first;
}

/** Groups a step's deliveries over `budgetMs` by the `spanMs` span of their send time. */
export function lateSpans(step: Deliveries, options: { budgetMs?: number; spanMs?: number } = {}): StepTail {
  const budgetMs = options.budgetMs ?? 50;
  const spanMs = options.spanMs ?? 100;
  const first = firstSent(step);
  const bySpan = new Map<number, { late: number; maxMs: number }>();
  let late = 0;
  step.latency.forEach((ms, i) => {
    if (ms <= budgetMs) return;
    late += 1;
    const index = Math.floor(((step.sent[i] as number) - first) / spanMs);
    const span = bySpan.get(index) ?? { late: 0, maxMs: 0 };
    span.late += 1;
    span.maxMs = Math.max(span.maxMs, ms);
    bySpan.set(index, span);
  });
  const deliveries = step.latency.length;
  return {
    deliveries,
    p50: quantile(step.latency, 0.5),
    p99: quantile(step.latency, 0.99),
    late,
    lateShare: deliveries === 0 ? 0 : late / deliveries,
    spans: [...bySpan]
      .sort((a, b) => a[0] - b[0])
      .map(([index, s]) => ({
        offsetMs: index * spanMs,
        at: step.origin + first + index * spanMs,
        late: s.late,
        maxMs: s.maxMs,
      })),
  };
}

/** A record of `BENCH_SERVER_TIMINGS` (bench/serve.ts), as far as this tool reads it. */
export interface TimingRecord {
  at: number;
  kind: string;
  ms?: number;
  gc?: string;
  messages?: number;
  storeMs?: number;
  pushMs?: number;
}

/**
 * The server's records that held its thread around a span: from a span before it (a hold delays what is sent after
 * it) to the end of the one after it (a backlog takes time to work off).
 */
export function holdsNear(records: readonly TimingRecord[], span: LateSpan, spanMs = 100): TimingRecord[] {
  return records.filter((r) => {
    if (r.at < span.at - spanMs || r.at >= span.at + 2 * spanMs) return false;
    if (r.kind === 'loop-late') return (r.ms ?? 0) >= 10;
    if (r.kind === 'gc') return (r.ms ?? 0) >= 5;
    if (r.kind === 'send-batch') return (r.storeMs ?? 0) + (r.pushMs ?? 0) >= 10;
    return (r.ms ?? 0) >= 5;
  });
}

/** A step's own collections (its clients process's) as records on the wall clock, for {@link holdsNear}. */
export function clientRecords(step: Deliveries): TimingRecord[] {
  return (step.gc ?? []).map((c) => ({ at: step.origin + c.at, kind: 'gc', gc: c.kind, ms: c.ms }));
}

/** One record, short: `loop-late 23ms`, `gc minor 8ms`, `batch 64 msgs 22ms (340 us/msg)`. */
export function describeHold(r: TimingRecord): string {
  if (r.kind === 'send-batch') {
    const ms = (r.storeMs ?? 0) + (r.pushMs ?? 0);
    const messages = r.messages ?? 0;
    return `batch ${messages} msgs ${Math.round(ms)}ms (${Math.round((ms * 1000) / Math.max(1, messages))} us/msg)`;
  }
  if (r.kind === 'gc') return `gc ${r.gc ?? ''} ${Math.round(r.ms ?? 0)}ms`;
  return `${r.kind} ${Math.round(r.ms ?? 0)}ms`;
}

function main(argv: readonly string[]): void {
  const dir = argv.find((a, i) => !a.startsWith('--') && !argv[i - 1]?.match(/^--(?:budget|span)$/));
  const option = (name: string, fallback: number) => {
    const at = argv.indexOf(name);
    return at >= 0 ? Number(argv[at + 1]) : fallback;
  };
  const budgetMs = option('--budget', 50);
  const spanMs = option('--span', 100);
  if (!dir || !(budgetMs > 0) || !(spanMs > 0)) {
    process.stderr.write('usage: late-spans.ts <dir> [--budget ms] [--span ms]\n');
    process.exitCode = 2;
    return;
  }
  const files = readdirSync(dir);
  const timings = new Map<string, TimingRecord[]>();
  for (const f of files.filter((f) => f.endsWith('.timings'))) {
    const side = f.split('-')[0] as string;
    const lines = readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean);
    timings.set(side, [...(timings.get(side) ?? []), ...lines.map((l) => JSON.parse(l) as TimingRecord)]);
  }
  const steps = files
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ file: f, step: JSON.parse(readFileSync(join(dir, f), 'utf8')) as Deliveries }))
    .filter(({ step }) => Array.isArray(step.sent) && Array.isArray(step.latency))
    .sort((a, b) => a.step.origin + (a.step.sent[0] ?? 0) - (b.step.origin + (b.step.sent[0] ?? 0)));
  for (const { file, step } of steps) {
    const tail = lateSpans(step, { budgetMs, spanMs });
    process.stdout.write(
      `${file}: ${step.side} ${step.rate}/s, ${tail.deliveries} delivered, p50 ${round3(tail.p50)} ms, ` +
        `p99 ${round3(tail.p99)} ms, ${tail.late} over ${budgetMs} ms (${(tail.lateShare * 100).toFixed(2)}%) ` +
        `in ${tail.spans.length} spans of ${spanMs} ms\n`,
    );
    const first = firstSent(step);
    const full = (step.gc ?? []).filter((c) => c.kind === 'major');
    if (full.length > 0) {
      const when = full.map((c) => `+${((c.at - first) / 1000).toFixed(1)} s ${Math.round(c.ms)}ms`);
      process.stdout.write(`  clients' full collections: ${when.join(', ')}\n`);
    }
    const records = timings.get(step.side) ?? [];
    const clients = clientRecords(step);
    for (const span of tail.spans) {
      const holds = holdsNear(records, span, spanMs).map(describeHold);
      const clientHolds = holdsNear(clients, span, spanMs).map(describeHold);
      process.stdout.write(
        `  +${(span.offsetMs / 1000).toFixed(1)} s: ${span.late} late, up to ${Math.round(span.maxMs)} ms` +
          `${holds.length > 0 ? `; server: ${holds.join(', ')}` : ''}` +
          `${clientHolds.length > 0 ? `; clients: ${clientHolds.join(', ')}` : ''}\n`,
      );
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
