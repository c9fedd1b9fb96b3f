import { describe, expect, it } from 'vitest';
import { sendPaced } from '../../bench/paced.js';

/** Runs the loop on a fake clock that moves only when it sleeps; returns when each send and the switch happened. */
async function run(options: { rate: number; leadMs: number; ms: number; tickMs: number }) {
  let clock = 0;
  const sends: number[] = [];
  const measures: number[] = [];
  const measured = await sendPaced({
    ...options,
    now: () => clock,
    sleep: (ms) => {
      clock += ms;
      return Promise.resolve();
    },
    send: () => sends.push(clock),
    measure: () => measures.push(sends.length),
  });
  return { measured, sends, measures };
}

describe('sendPaced', () => {
  it('sends at the rate through the lead-in and the measured part alike, and counts only the measured part', async () => {
    const { measured, sends, measures } = await run({ rate: 1000, leadMs: 50, ms: 100, tickMs: 10 });
    // One clock for both parts: 150 ms at 1 000/s, 10 a tick, no pause or burst at the switch.
    expect(sends).toHaveLength(140);
    const perTick = new Map<number, number>();
    for (const at of sends) perTick.set(at, (perTick.get(at) ?? 0) + 1);
    expect([...perTick.values()].every((n) => n === 10)).toBe(true);
    // The switch comes once, after the lead-in's sends and before the first measured one.
    expect(measures).toEqual([40]);
    expect(sends[40]).toBe(50);
    expect(measured).toBe(100);
  });

  it('measures from the start without a lead-in', async () => {
    const { measured, measures } = await run({ rate: 200, leadMs: 0, ms: 100, tickMs: 10 });
    expect(measures).toEqual([0]);
    expect(measured).toBe(18);
  });
});
