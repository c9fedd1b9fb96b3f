import { afterEach, beforeEach, vi } from 'vitest';

/**
 * Runs every test of the calling file on fake timers and returns `tick`, which advances the clock by `ms` and
 * runs what became due, microtasks included.
 */
export function useFakeClock(): (ms?: number) => Promise<void> {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  return async (ms = 0) => {
    await vi.advanceTimersByTimeAsync(ms);
  };
}
