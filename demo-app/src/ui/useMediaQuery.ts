import { useSyncExternalStore } from 'react';

/** A screen wide enough for two columns: a tablet or a desktop browser. */
export const WIDE_SCREEN = '(min-width: 768px)';

/** Whether the media query `query` matches now, following it as it changes; false where there is no `matchMedia`. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (changed) => {
      if (typeof window.matchMedia !== 'function') return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    () => typeof window.matchMedia === 'function' && window.matchMedia(query).matches,
  );
}
