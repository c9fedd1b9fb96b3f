import { useQueryClient } from '@tanstack/react-query';
import { Button, ErrorBlock, List, Rate, TextArea } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { OrderItems } from '../../features/shop/OrderCard';
import { ORDERS_QUERY, type Order } from '../../features/shop/orders';
import {
  REVIEWS_QUERY,
  REVIEW_LIMITS,
  REVIEW_RATINGS,
  reviewBlock,
  reviewOrder,
  reviewProblem,
  type ReviewDraft,
  type ReviewRating,
} from '../../features/shop/reviews';
import { OrderPage } from '../../features/shop/OrderPage';
import { CharCount } from '../../ui/CharCount';
import { toast, toastError } from '../../ui/toast';
import '../../features/shop/orders.css';
import '../../features/shop/products.css';
import '../../features/shop/reviews.css';
import '../member/feedback.css';

/** The target of the order's page. */
const orderTarget = (order: Order) => `shop/user-order-view?id=${encodeURIComponent(order.id)}`;

/**
 * The review form of a completed order: the three ratings as stars, none picked to begin with, and the text with its
 * count; checked in the form's order before sending, then the order's page opens in its place.
 */
function ReviewForm({ order }: { order: Order }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<ReviewDraft>({ quality: 0, service: 0, logistics: 0, content: '' });
  const [sending, setSending] = useState(false);
  const length = [...draft.content.trim()].length;
  const { contentMax } = REVIEW_LIMITS;

  const rate = (rating: ReviewRating, value: number) => setDraft((before) => ({ ...before, [rating]: value }));

  const send = async () => {
    const problem = reviewProblem(draft);
    if (problem) return toastError(t(`errors.${problem}`));
    setSending(true);
    try {
      await reviewOrder(order.id, draft, { token: user?.token, locale: i18n.language });
      toast(t('review.submitted'));
      await queryClient.invalidateQueries({ queryKey: [ORDERS_QUERY] });
      await queryClient.invalidateQueries({ queryKey: [REVIEWS_QUERY] });
      void navigate(`/${orderTarget(order)}`, { replace: true });
    } catch (error) {
      toastError(errorText(error, t));
      // The order may have moved on (reviewed meanwhile, or its time passed): the page then says so.
      await queryClient.invalidateQueries({ queryKey: [ORDERS_QUERY] });
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <List header={t('review.rate')}>
        {REVIEW_RATINGS.map((rating) => (
          <List.Item key={rating}>
            <div className="review-rate-field">
              <span id={`review-${rating}`}>{t(`review.${rating}`)}</span>
              <Rate
                value={draft[rating]}
                onChange={(value) => rate(rating, value)}
                count={REVIEW_LIMITS.ratingMax}
                aria-labelledby={`review-${rating}`}
              />
            </div>
          </List.Item>
        ))}
      </List>
      <List header={<label htmlFor="review-content">{t('review.content')}</label>}>
        <List.Item>
          <TextArea
            id="review-content"
            value={draft.content}
            onChange={(content) => setDraft((before) => ({ ...before, content }))}
            autoSize={{ minRows: 3, maxRows: 8 }}
            placeholder={t('review.contentPlaceholder', { max: contentMax })}
          />
          <CharCount length={length} max={contentMax} />
        </List.Item>
      </List>
      <div className="page-actions">
        <Button block color="primary" loading={sending} onClick={() => void send()}>
          {t('review.submit')}
        </Button>
      </div>
    </>
  );
}

/**
 * What the order holds, then the review form; an order not completed, reviewed already or past its time to review
 * says so instead, with the way to its page.
 */
function OrderToReview({ order }: { order: Order }) {
  const { t } = useTranslation();
  const open = useNavigateTo();
  const blocked = reviewBlock(order);
  return (
    <>
      <section className="order-section">
        <h2>{order.shop?.name ?? t('order.shopClosed')}</h2>
        <OrderItems items={order.items} />
      </section>
      {blocked ? (
        <ErrorBlock status="default" title={t(`errors.${blocked}`)} description="">
          <Button onClick={() => open(orderTarget(order))}>{t('review.viewOrder')}</Button>
        </ErrorBlock>
      ) : (
        <ReviewForm order={order} />
      )}
    </>
  );
}

/**
 * Write a review (spec §2 shop/user-ping-add, param id; §3 "Review: quality, service and logistics ratings (1 to 5),
 * text"; §5 "text up to 200 characters; all three ratings required"): the order from `shop/order_view`, and the review
 * sent with `shop/ping_add`.
 */
export default function WriteReview() {
  const { t } = useTranslation();
  return <OrderPage title={t('review.writeTitle')}>{(order) => <OrderToReview order={order} />}</OrderPage>;
}
