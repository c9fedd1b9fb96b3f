import { useInfiniteQuery } from '@tanstack/react-query';

/** The product API's lists give this many a page; a shorter page is the last. */
export const PAGE_SIZE = 20;

/**
 * A product API list read a page at a time, newest first: each page after the first asks for what comes `before`
 * the last item's id. The items of all pages loaded are `items`.
 */
export function usePagedList<T extends { id: string }>(
  queryKey: readonly unknown[],
  fetchPage: (before: string | undefined) => Promise<T[]>,
  enabled: boolean,
) {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: T[]) => (last.length < PAGE_SIZE ? undefined : last.at(-1)?.id),
    enabled,
  });
  return { query, items: query.data?.pages.flat() ?? [] };
}
