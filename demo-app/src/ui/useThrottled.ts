import { useCallback, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from './toast';

/** Spec §9 "Throttle and debounce default: 500 ms". */
export const THROTTLE_MS = 500;

/**
 * `action`, run at most once every `ms` and never while a run of it is under way: a tap sooner (a double tap on a
 * like or a collect, which would otherwise undo itself) is not run and is answered with spec §8's "The operation is
 * too fast". The latest `action` of the render is the one run.
 */
export function useThrottled<A extends unknown[]>(
  action: (...args: A) => unknown,
  ms = THROTTLE_MS,
): (...args: A) => Promise<void> {
  const { t } = useTranslation();
  const latest = useRef(action);
  latest.current = action;
  const last = useRef(Number.NEGATIVE_INFINITY);
  const running = useRef(false);
  return useCallback(
    async (...args: A) => {
      const now = Date.now();
      if (running.current || now - last.current < ms) {
        toast(t('errors.too_fast'));
        return;
      }
      last.current = now;
      running.current = true;
      try {
        await latest.current(...args);
      } finally {
        running.current = false;
      }
    },
    [ms, t],
  );
}
