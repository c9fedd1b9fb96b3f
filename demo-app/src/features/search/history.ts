/** Where the searches made on this device are kept (spec §2 search/index). */
export const SEARCH_HISTORY_KEY = 'search_history';

/** How many recent searches are kept. */
export const SEARCH_HISTORY_MAX = 10;

/** The recent searches, newest first; none when what is stored is not a list of words. */
export function searchHistory(): string[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(SEARCH_HISTORY_KEY) ?? '[]');
    return Array.isArray(stored) ? stored.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

/** Puts `keyword` first among the recent searches, once, keeping the newest {@link SEARCH_HISTORY_MAX}. */
export function rememberSearch(keyword: string): string[] {
  const words = keyword.trim();
  if (words === '') return searchHistory();
  const next = [words, ...searchHistory().filter((item) => item !== words)].slice(0, SEARCH_HISTORY_MAX);
  localStorage.setItem(SEARCH_HISTORY_KEY, JSON.stringify(next));
  return next;
}

/** Forgets the recent searches. */
export function clearSearchHistory(): void {
  localStorage.removeItem(SEARCH_HISTORY_KEY);
}
