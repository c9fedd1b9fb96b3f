import type { GCProfiler } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { fullCollections, hostBesides, parseHostCpu, promotedBytes } from '../../bench/stats.js';

type Statistics = ReturnType<GCProfiler['stop']>['statistics'];
type Collection = Statistics[number];

/** A collection whose old space held `before` bytes before it and `after` after it. */
function collection(gcType: Collection['gcType'], before: number, after: number): Collection {
  const heap = (oldSpace: number): Collection['beforeGC'] =>
    ({
      heapStatistics: {},
      heapSpaceStatistics: [
        { spaceName: 'new_space', spaceUsedSize: 1_000_000 },
        { spaceName: 'old_space', spaceUsedSize: oldSpace },
      ],
    }) as unknown as Collection['beforeGC'];
  return { gcType, cost: 1, beforeGC: heap(before), afterGC: heap(after) };
}

describe('bench/stats promotedBytes', () => {
  it("sums the old space's growth across scavenges only", () => {
    const statistics: Statistics = [
      collection('Scavenge', 10_000, 12_500),
      // A full collection moves young survivors too, but what it does is not counted: only scavenges'.
      collection('MarkSweepCompact', 12_500, 14_000),
      collection('Scavenge', 4_000, 4_600),
      // A scavenge during which the old space shrank (sweeping finished meanwhile) promoted nothing countable.
      collection('Scavenge', 4_600, 4_100),
    ];
    expect(promotedBytes(statistics)).toBe(3_100);
  });

  it('is zero without collections', () => {
    expect(promotedBytes([])).toBe(0);
  });
});

describe('bench/stats fullCollections', () => {
  it('counts the mark-sweep-compact collections only', () => {
    const statistics: Statistics = [
      collection('Scavenge', 10_000, 12_500),
      collection('MarkSweepCompact', 12_500, 4_000),
      collection('Scavenge', 4_000, 4_600),
      collection('MarkSweepCompact', 4_600, 4_100),
    ];
    expect(fullCollections(statistics)).toBe(2);
    expect(fullCollections(statistics.slice(0, 1))).toBe(0);
  });
});

describe('bench/stats host CPU', () => {
  const stat = (fields: string) => `cpu  ${fields}\ncpu0 1 2 3 4 5 6 7 8 0 0\nintr 1 2 3\n`;

  it("reads /proc/stat's aggregate line in milliseconds: busy, stolen, and all of it", () => {
    // user nice system idle iowait irq softirq steal guest guest_nice, in ticks of 10 ms.
    expect(parseHostCpu(stat('100 5 40 800 10 1 4 20 30 0'))).toEqual({
      busyMs: 1500,
      stealMs: 200,
      totalMs: 9800,
    });
  });

  it('counts no steal on a kernel whose line stops before it, and nothing without the line', () => {
    expect(parseHostCpu(stat('100 0 50 850 0 0 0'))).toEqual({ busyMs: 1500, stealMs: 0, totalMs: 10_000 });
    expect(parseHostCpu('intr 1 2 3\n')).toBeNull();
    expect(parseHostCpu('cpu  a b c d e f g\n')).toBeNull();
  });

  it("gives the host's steal share and the cores busy besides the side's own processes over a span", () => {
    const before = { busyMs: 10_000, stealMs: 1_000, totalMs: 40_000 };
    // Ten seconds of two cores: 20 s in all, 15 s busy of which the side's processes ran 12 s, 1 s stolen.
    const after = { busyMs: 25_000, stealMs: 2_000, totalMs: 60_000 };
    expect(hostBesides(before, after, 12_000_000, 10_000)).toEqual({ steal_pct: 5, others_cores: 0.3 });
    // The side's own figures can run a tick ahead of the machine's: never fewer than no cores.
    expect(hostBesides(before, after, 16_000_000, 10_000).others_cores).toBe(0);
  });
});
