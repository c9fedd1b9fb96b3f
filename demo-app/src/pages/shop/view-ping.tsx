import { ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PagedList } from '../../features/api/PagedList';
import { ReviewCard, ReviewMember, ReviewSummaryLine } from '../../features/shop/ReviewCard';
import { useProductReviews } from '../../features/shop/useProductReviews';
import { NavBar } from '../../ui/NavBar';
import '../../features/shop/orders.css';
import '../../features/shop/reviews.css';

/**
 * A product's reviews (spec §2 shop/view-ping, param id; §3 Review), open to visitors: how it was rated, then its
 * reviews from `shop/ping_list`, newest first, twenty at a time, each with who wrote it, the stars, the text, the
 * date and the seller's reply.
 */
export default function ProductReviews() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const { list, summary } = useProductReviews(params.get('id') ?? '');
  return (
    <div className="page">
      <NavBar title={t('review.title')} />
      {summary && <ReviewSummaryLine summary={summary} />}
      <PagedList list={list} empty={<ErrorBlock status="empty" title={t('review.none')} description="" />}>
        {(reviews) =>
          reviews.map((review) => (
            <ReviewCard key={review.id} review={review} head={<ReviewMember member={review.member} />} />
          ))
        }
      </PagedList>
    </div>
  );
}
