import { useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { PAGE_SIZE, type usePagedList } from '../api/paged';
import { REVIEWS_QUERY, productReviewPage, type ProductReviewPage, type Review, type ReviewSummary } from './reviews';

/** Pages of reviews, as every paged list has them, and the summary of the first page, the freshest. */
function reviewsOf(data: InfiniteData<ProductReviewPage, string | undefined>) {
  return {
    pages: data.pages.map((page) => page.reviews),
    pageParams: data.pageParams,
    summary: data.pages[0]?.summary,
  };
}

/**
 * Product `id`'s reviews read a page at a time, newest first, as a {@link usePagedList} list (for `PagedList`), and how
 * the product was rated, from the first page. The product's page and its reviews' page share it, so that the second
 * opens on what the first read.
 */
export function useProductReviews(id: string): {
  list: ReturnType<typeof usePagedList<Review>>;
  summary: ReviewSummary | undefined;
} {
  const { i18n } = useTranslation();
  const { user } = useSession();
  const context = { token: user?.token, locale: i18n.language };
  const query = useInfiniteQuery({
    queryKey: [REVIEWS_QUERY, 'product', id, user?.id],
    queryFn: ({ pageParam }) => productReviewPage({ id, before: pageParam }, context),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.reviews.length < PAGE_SIZE ? undefined : last.reviews.at(-1)?.id),
    select: reviewsOf,
    enabled: true,
  });
  return { list: { query, items: query.data?.pages.flat() ?? [] }, summary: query.data?.summary };
}
