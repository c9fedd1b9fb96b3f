import { useQueryClient } from '@tanstack/react-query';
import { Button, ErrorBlock, List, TextArea } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { usePagedList } from '../../features/api/paged';
import { PagedList } from '../../features/api/PagedList';
import { OrderTabs } from '../../features/shop/OrderTabs';
import { ReviewCard, ReviewMember, ReviewProducts } from '../../features/shop/ReviewCard';
import {
  REVIEWS_QUERY,
  REVIEW_LIMITS,
  replyToReview,
  replyValid,
  shopReviewPage,
  type Review,
} from '../../features/shop/reviews';
import { CharCount } from '../../ui/CharCount';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';
import '../member/feedback.css';

/** The seller's tabs: the reviews still to answer, then all of them. */
const TABS = ['unreplied', 'all'] as const;

/**
 * The seller's answer to `review`, 1 to 200 characters with its count, checked before it is sent; sent, every list of
 * reviews reads again. `onClose` folds the form away.
 */
function ReplyForm({ review, onClose }: { review: Review; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const [content, setContent] = useState('');
  const [sending, setSending] = useState(false);
  const length = [...content.trim()].length;
  const max = REVIEW_LIMITS.replyMax;
  const id = `reply-${review.id}`;

  const send = async () => {
    if (!replyValid(content)) return toastError(t('errors.review_reply_invalid'));
    setSending(true);
    try {
      await replyToReview(review.id, content, { token: user?.token, locale: i18n.language });
      toast(t('review.replied'));
    } catch (error) {
      toastError(errorText(error, t));
    }
    setSending(false);
    // Answered here or before (`review_replied`), the review is read again with its reply.
    await queryClient.invalidateQueries({ queryKey: [REVIEWS_QUERY] });
  };

  return (
    <section className="order-refund-form">
      <List header={<label htmlFor={id}>{t('review.replyLabel')}</label>}>
        <List.Item>
          <TextArea
            id={id}
            value={content}
            onChange={setContent}
            autoSize={{ minRows: 2, maxRows: 6 }}
            placeholder={t('review.replyPlaceholder', { max })}
          />
          <CharCount length={length} max={max} />
        </List.Item>
      </List>
      <div className="order-card-actions">
        <Button size="small" fill="outline" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button size="small" color="primary" loading={sending} onClick={() => void send()}>
          {t('review.replySend')}
        </Button>
      </div>
    </section>
  );
}

/** A review of one of the seller's orders: the buyer, the products, the review, and the way to answer it once. */
function ShopReview({ review }: { review: Review }) {
  const { t } = useTranslation();
  const [replying, setReplying] = useState(false);
  return (
    <ReviewCard
      review={review}
      head={
        <>
          <ReviewMember member={review.member} />
          <ReviewProducts items={review.items} />
        </>
      }
    >
      {!review.reply &&
        (replying ? (
          <ReplyForm review={review} onClose={() => setReplying(false)} />
        ) : (
          <div className="order-card-actions">
            <Button size="small" color="primary" fill="outline" onClick={() => setReplying(true)}>
              {t('review.answer')}
            </Button>
          </div>
        ))}
    </ReviewCard>
  );
}

/** The reviews of the seller's orders in `tab`, newest first, a page at a time. */
function ShopReviews({ tab }: { tab: (typeof TABS)[number] }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const context = { token: user?.token, locale: i18n.language };
  const list = usePagedList(
    [REVIEWS_QUERY, 'shop', user?.id, tab],
    (before) => shopReviewPage({ replied: tab === 'unreplied' ? false : undefined, before }, context),
    user !== null,
  );
  const empty = tab === 'unreplied' ? t('review.unrepliedNone') : t('review.none');
  return (
    <PagedList list={list} empty={<ErrorBlock status="empty" title={empty} description="" />}>
      {(reviews) => reviews.map((review) => <ShopReview key={review.id} review={review} />)}
    </PagedList>
  );
}

/**
 * Review management (spec §1 "review management"; §2 shop/business-ping): the reviews of the seller's orders from
 * `shop/business_ping`, those to answer and all of them, each with its buyer, products, stars, text and date, and the
 * seller's reply, given once with `shop/business_ping_reply`.
 */
export default function ShopReviewsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  if (!user) return null;
  return (
    <div className="page">
      <NavBar title={t('shop.reviews')} />
      <OrderTabs tabs={TABS} title={(tab) => t(`review.tab_${tab}`)}>
        {(tab) => <ShopReviews tab={tab} />}
      </OrderTabs>
    </div>
  );
}
