/** An opaque timer handle. */
export type TimerHandle = object | number;

/**
 * The clock and timers the SDK uses, injectable so tests control time. The default reads the globals at call
 * time, so test runners' fake timers apply to it too.
 */
export interface Timers {
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  now(): number;
}

/** Timers over `globalThis`. */
export const systemTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => {
    globalThis.clearTimeout(handle as Parameters<typeof globalThis.clearTimeout>[0]);
  },
  now: () => Date.now(),
};

/** A source of the browser's "back online" signal; returns an unsubscribe function. */
export type OnlineSource = (onOnline: () => void) => () => void;

/** Listens to `window`'s `online` event where there is a window; elsewhere never fires. */
export const browserOnline: OnlineSource = (onOnline) => {
  const w = (globalThis as { window?: Pick<Window, 'addEventListener' | 'removeEventListener'> }).window;
  if (!w || typeof w.addEventListener !== 'function') return () => undefined;
  w.addEventListener('online', onOnline);
  return () => w.removeEventListener('online', onOnline);
};
