import { Avatar, Rate } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { REVIEW_LIMITS, REVIEW_RATINGS, type Review, type ReviewSummary } from './reviews';
import './orders.css';
import './reviews.css';

/** A review's three ratings, each its label and its stars (spec §3 "quality, service and logistics ratings"). */
export function ReviewRatings({ review }: { review: Review }) {
  const { t } = useTranslation();
  return (
    <div className="review-ratings">
      {REVIEW_RATINGS.map((rating) => {
        const label = t(`review.${rating}`);
        return (
          <div key={rating} className="review-rating">
            <span className="review-rating-label">{label}</span>
            <Rate
              readOnly
              value={review[rating]}
              count={REVIEW_LIMITS.ratingMax}
              aria-label={t('review.stars', { label, n: review[rating] })}
            />
          </div>
        );
      })}
    </div>
  );
}

/** Who wrote a review: their avatar and username (a cancelled member's by id). */
export function ReviewMember({ member }: { member: Review['member'] }) {
  const { t } = useTranslation();
  return (
    <span className="review-member">
      <Avatar src={member.img} style={{ '--size': '28px', '--border-radius': '50%' }} />
      <span>{member.username || t('im.user', { id: member.id })}</span>
    </span>
  );
}

/** What a review is of: the order's products, each with its image and title, opening the product's page. */
export function ReviewProducts({ items }: { items: Review['items'] }) {
  const open = useNavigateTo();
  return (
    <ul className="order-items">
      {items.map((item) => (
        <li key={item.product_id}>
          <button
            type="button"
            className="order-item review-product"
            onClick={() => open(`shop/view?id=${encodeURIComponent(item.product_id)}`)}
          >
            <img className="product-thumb" src={item.image} alt="" />
            <span className="order-item-title">{item.title}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The seller's answer to a review, once given. */
function ReviewReply({ review }: { review: Review }) {
  const { t } = useTranslation();
  if (!review.reply) return null;
  return (
    <div className="review-reply" data-testid="review-reply">
      <span className="review-reply-label">{t('review.reply')}</span>
      {review.reply}
    </div>
  );
}

/**
 * A review in a list: `head` (who wrote it, or what it is of), the three ratings, the text, when it was written, the
 * seller's reply when there is one, then `children` (what can be done about it).
 */
export function ReviewCard({ review, head, children }: { review: Review; head?: ReactNode; children?: ReactNode }) {
  const { i18n } = useTranslation();
  return (
    <article className="review-card" data-testid="review">
      {head && <header className="review-card-head">{head}</header>}
      <ReviewRatings review={review} />
      {review.content && <p className="review-content">{review.content}</p>}
      <time className="review-date" dateTime={new Date(review.created_at).toISOString()}>
        {new Date(review.created_at).toLocaleDateString(i18n.language)}
      </time>
      <ReviewReply review={review} />
      {children}
    </article>
  );
}

/** The buyer's review of an order, on the order's page: ratings, text, when, and the seller's reply. */
export function ReviewDetails({ review }: { review: Review }) {
  const { t } = useTranslation();
  return (
    <section className="order-section" data-testid="order-review">
      <h2>{t('review.mine')}</h2>
      <ReviewCard review={review} />
    </section>
  );
}

/** How a product was rated: how many reviews, and each rating's average to one decimal. */
export function ReviewSummaryLine({ summary }: { summary: ReviewSummary }) {
  const { t } = useTranslation();
  return (
    <section className="order-section" data-testid="review-summary">
      <h2>{t('review.count', { count: summary.count })}</h2>
      <div className="review-summary">
        {REVIEW_RATINGS.map((rating) => (
          <span key={rating}>
            {t('review.average', { label: t(`review.${rating}`), score: summary[rating].toFixed(1) })}
          </span>
        ))}
      </div>
    </section>
  );
}
