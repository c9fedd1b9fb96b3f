import { ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { usePagedList } from '../../features/api/paged';
import { PagedList } from '../../features/api/PagedList';
import { ReviewCard, ReviewProducts } from '../../features/shop/ReviewCard';
import { REVIEWS_QUERY, myReviewPage } from '../../features/shop/reviews';
import { NavBar } from '../../ui/NavBar';

/**
 * My reviews (spec §2 shop/user-ping): the member's reviews from `shop/user_ping`, newest first, twenty at a time,
 * each with the shop and the products reviewed, the stars, the text, the date and the seller's reply.
 */
export default function MyReviews() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const context = { token: user?.token, locale: i18n.language };
  const list = usePagedList(
    [REVIEWS_QUERY, 'mine', user?.id],
    (before) => myReviewPage(before, context),
    user !== null,
  );
  if (!user) return null;
  return (
    <div className="page">
      <NavBar title={t('review.myTitle')} />
      <PagedList list={list} empty={<ErrorBlock status="empty" title={t('review.mineNone')} description="" />}>
        {(reviews) =>
          reviews.map((review) => (
            <ReviewCard
              key={review.id}
              review={review}
              head={
                <>
                  <div className="order-card-heading">{review.shop?.name ?? t('order.shopClosed')}</div>
                  <ReviewProducts items={review.items} />
                </>
              }
            />
          ))
        }
      </PagedList>
    </div>
  );
}
