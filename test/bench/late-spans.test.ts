import { describe, expect, it } from 'vitest';
import { clientRecords, describeHold, holdsNear, lateSpans, type Deliveries } from '../../bench/late-spans.js';

const step: Deliveries = {
  side: 'parley',
  rate: 4000,
  origin: 1_000_000,
  // Sent at 10, 20, 130, 140, 150 and 960 ms; the first send starts the spans.
  sent: [10, 20, 130, 140, 150, 960],
  latency: [3, 4, 60, 80, 4, 51],
};

describe('late-spans', () => {
  it('groups the deliveries over the budget by the span of their send time', () => {
    const tail = lateSpans(step);
    expect(tail).toMatchObject({ deliveries: 6, p50: 4, p99: 80, late: 3, lateShare: 0.5 });
    expect(tail.spans).toEqual([
      { offsetMs: 100, at: 1_000_110, late: 2, maxMs: 80 },
      { offsetMs: 900, at: 1_000_910, late: 1, maxMs: 51 },
    ]);
  });

  it('takes the budget and the span as given', () => {
    const tail = lateSpans(step, { budgetMs: 55, spanMs: 1000 });
    expect(tail.late).toBe(2);
    expect(tail.spans).toEqual([{ offsetMs: 0, at: 1_000_010, late: 2, maxMs: 80 }]);
    expect(lateSpans({ ...step, sent: [], latency: [] })).toMatchObject({ deliveries: 0, late: 0, spans: [] });
  });

  it('lines up the server’s holds around a span, and says what each was', () => {
    const span = { offsetMs: 100, at: 5_000, late: 2, maxMs: 80 };
    const records = [
      { at: 4_899, kind: 'loop-late', ms: 40 },
      { at: 4_950, kind: 'loop-late', ms: 23.4 },
      { at: 4_960, kind: 'loop-late', ms: 6 },
      { at: 5_010, kind: 'gc', gc: 'minor', ms: 8.2 },
      { at: 5_020, kind: 'gc', gc: 'minor', ms: 2.5 },
      { at: 5_050, kind: 'send-batch', messages: 64, storeMs: 4.5, pushMs: 17.6 },
      { at: 5_060, kind: 'send-batch', messages: 6, storeMs: 0.1, pushMs: 0.5 },
      { at: 5_150, kind: 'later-writes', ms: 13.8 },
      { at: 5_200, kind: 'loop-late', ms: 30 },
    ];
    expect(holdsNear(records, span).map(describeHold)).toEqual([
      'loop-late 23ms',
      'gc minor 8ms',
      'batch 64 msgs 22ms (345 us/msg)',
      'later-writes 14ms',
    ]);
  });

  it('puts the clients’ own collections on the wall clock, beside the server’s records', () => {
    const withGc: Deliveries = {
      ...step,
      gc: [
        { at: 100, ms: 21.4, kind: 'major' },
        { at: 120, ms: 3, kind: 'minor' },
        { at: 5_000, ms: 9, kind: 'minor' },
      ],
    };
    const records = clientRecords(withGc);
    expect(records[0]).toEqual({ at: 1_000_100, kind: 'gc', gc: 'major', ms: 21.4 });
    const [span] = lateSpans(withGc).spans;
    expect(holdsNear(records, span as NonNullable<typeof span>).map(describeHold)).toEqual(['gc major 21ms']);
    expect(clientRecords(step)).toEqual([]);
  });
});
