import type { GCProfiler } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { fullCollections, promotedBytes } from '../../bench/stats.js';

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
