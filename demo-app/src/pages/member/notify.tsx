import { useQueryClient } from '@tanstack/react-query';
import { Avatar, Badge, ErrorBlock, List } from 'antd-mobile';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { usePagedList } from '../../features/api/paged';
import { PagedList } from '../../features/api/PagedList';
import { relativeTime } from '../../features/im/time';
import { useNow } from '../../features/im/useNow';
import { NOTICES_QUERY, markNoticesRead, noticePage, type Notice } from '../../features/member/notices';
import { SHOP_QUERY, shopInfo } from '../../features/shop/api';
import { SERVICE_GUARANTEES } from '../../features/shop/guarantees';
import { orderView } from '../../features/shop/orders';
import { NavBar } from '../../ui/NavBar';
import { toastError } from '../../ui/toast';
import './feedback.css';

/**
 * What a notification says, and where it leads: a target, or the order of a decided guarantee claim, which both its
 * buyer and its seller hear of and which opens as the member sees it.
 */
type NoticeLine = { text: string; target: string } | { text: string; claimedOrder: string };

/** What a notification says, and where it leads. */
function useNoticeLine(): (notice: Notice) => NoticeLine {
  const { t } = useTranslation();
  const { user } = useSession();
  return (notice) => {
    if (notice.kind === 'follow' && notice.actor) {
      const name = notice.actor.username || t('im.user', { id: notice.actor.id });
      return { text: t('notify.followed', { name }), target: `user/home?id=${encodeURIComponent(notice.actor.id)}` };
    }
    if ((notice.kind === 'comment' || notice.kind === 'like') && notice.actor) {
      const name = notice.actor.username || t('im.user', { id: notice.actor.id });
      const post = notice.data.subject === 'quanzi';
      const target = encodeURIComponent(notice.data.id ?? '');
      const words = { name, title: notice.data.title ?? '' };
      // A comment opens the comments; a like, the article, or who liked the post (a post has no page of its own).
      if (notice.kind === 'comment') {
        const key = notice.data.reply ? 'notify.replied' : post ? 'notify.commentedPost' : 'notify.commented';
        return {
          text: t(key, { ...words, content: notice.data.content ?? '' }),
          target: `article/ping?id=${target}${post ? '&type=quanzi' : ''}`,
        };
      }
      return {
        text: t(post ? 'notify.likedPost' : 'notify.liked', words),
        target: post ? `article/ping-zan?id=${target}&type=quanzi` : `article/view?id=${target}`,
      };
    }
    if (notice.kind === 'invitation' && notice.actor) {
      const name = notice.actor.username || t('im.user', { id: notice.actor.id });
      const coins = notice.data.coins ?? 0;
      return {
        text: coins > 0 ? t('notify.invited', { name, coins }) : t('notify.invitedNoCoins', { name }),
        target: 'renwu/yaoqing',
      };
    }
    if (notice.kind === 'report') {
      const words = { title: notice.data.title ?? '', reason: notice.data.reason ?? '' };
      const upheld = notice.data.type === 'user' ? 'notify.reportUpheldUser' : 'notify.reportUpheld';
      return {
        text: notice.data.status === 'upheld' ? t(upheld, words) : t('notify.reportDismissed', words),
        target: `article/jubao_view?id=${encodeURIComponent(notice.data.report ?? '')}`,
      };
    }
    if (notice.kind === 'content_removed') {
      // What is left of the member's writing is on their home.
      const what = notice.data.type === 'article' || notice.data.type === 'quanzi' ? notice.data.type : 'comment';
      return {
        text: t(`notify.contentRemoved_${what}`, { title: notice.data.title ?? '', reason: notice.data.reason ?? '' }),
        target: `user/home?id=${encodeURIComponent(user?.id ?? '')}`,
      };
    }
    if (notice.kind === 'profile_reset') {
      return { text: t('notify.profileReset', { reason: notice.data.reason ?? '' }), target: 'member/sz-user' };
    }
    if (notice.kind === 'withdrawal') {
      const amount = notice.data.amount ?? 0;
      const shop = notice.data.source === 'shop';
      const reason = notice.data.reason ?? '';
      const text =
        notice.data.status === 'paid'
          ? t('notify.withdrawalPaid', { amount })
          : t(shop ? 'notify.shopWithdrawalRejected' : 'notify.withdrawalRejected', { amount, reason });
      return { text, target: shop ? 'shop/business-tixian' : 'renwu/tixian_list' };
    }
    if (notice.kind === 'recharge') {
      const amount = notice.data.amount ?? 0;
      const reason = notice.data.reason ?? '';
      const text =
        notice.data.status === 'success'
          ? t('notify.rechargePaid', { amount })
          : notice.data.status === 'abnormal'
            ? t('notify.rechargeAbnormal', { amount, reason })
            : t('notify.rechargeFailed', { amount, reason });
      return { text, target: 'member/recharge-records' };
    }
    if (notice.kind === 'product') {
      const words = { title: notice.data.title ?? '', reason: notice.data.reason ?? '' };
      const key = {
        on_sale: 'notify.productOnSale',
        rejected: 'notify.productRejected',
        banned: 'notify.productBanned',
      };
      const status = notice.data.status as keyof typeof key;
      return { text: t(key[status] ?? key.rejected, words), target: 'shop/business-index' };
    }
    if (notice.kind === 'order') {
      const words = { title: notice.data.title ?? '', total: notice.data.total ?? 0 };
      const key = {
        paid: 'notify.orderPaid',
        shipped: 'notify.orderShipped',
        completed: 'notify.orderCompleted',
        settled: 'notify.orderSettled',
        compensated: 'notify.orderCompensated',
      };
      const status = notice.data.status as keyof typeof key;
      // The seller's orders (paid, completed, settled) open in their business area; the buyer's (shipped,
      // compensated) in theirs.
      const buyers = status === 'shipped' || status === 'compensated';
      const target = buyers ? `shop/user-order-view?id=${notice.data.order ?? ''}` : 'shop/business-order';
      return { text: t(key[status] ?? key.paid, words), target };
    }
    if (notice.kind === 'refund') {
      const words = { title: notice.data.title ?? '', amount: notice.data.amount ?? 0 };
      const order = encodeURIComponent(notice.data.order ?? '');
      // The seller hears of a refund to decide on or goods to receive; the buyer, of what the seller did.
      if (notice.data.status === 'pending' || notice.data.status === 'returned') {
        const key = notice.data.status === 'pending' ? 'notify.refundPending' : 'notify.refundReturned';
        return { text: t(key, words), target: `shop/business-drawback?id=${order}` };
      }
      const key = {
        refused: 'notify.refundRefused',
        returning: 'notify.refundReturning',
        refunded: 'notify.refundRefunded',
      };
      const status = notice.data.status as keyof typeof key;
      return { text: t(key[status] ?? key.refused, words), target: `shop/user-order-view?id=${order}` };
    }
    if (notice.kind === 'claim') {
      const kind = notice.data.kind === 'counterfeit' ? 'counterfeit' : 'damage';
      const words = {
        title: notice.data.title ?? '',
        reason: notice.data.reason ?? '',
        times: SERVICE_GUARANTEES.counterfeitTimes,
      };
      const order = notice.data.order ?? '';
      // The seller hears of a claim filed; the buyer and the seller, of the platform's decision.
      if (notice.data.status === 'pending') {
        return {
          text: t(`notify.claimPending_${kind}`, words),
          target: `shop/business-order-view?id=${encodeURIComponent(order)}`,
        };
      }
      const decision = notice.data.status === 'upheld' ? 'Upheld' : 'Rejected';
      return { text: t(`notify.claim${decision}_${kind}`, words), claimedOrder: order };
    }
    if (notice.kind === 'review') {
      const words = { title: notice.data.title ?? '', quality: notice.data.quality ?? 0 };
      // The seller hears of a review to answer; the buyer, of the answer.
      return notice.data.status === 'replied'
        ? { text: t('notify.reviewReplied', words), target: 'shop/user-ping' }
        : { text: t('notify.reviewReviewed', words), target: 'shop/business-ping' };
    }
    if (notice.kind === 'announcement') {
      return {
        text: t('notify.announcement', { title: notice.data.title ?? '' }),
        target: `shop/business-gonggao-view?id=${encodeURIComponent(notice.data.announcement ?? '')}`,
      };
    }
    if (notice.kind === 'shop') {
      const words = { title: notice.data.title ?? '', reason: notice.data.reason ?? '' };
      const text =
        notice.data.status === 'approved' ? t('notify.shopApproved', words) : t('notify.shopRejected', words);
      return { text, target: notice.data.status === 'approved' ? 'shop/business-index' : 'shop/user-add' };
    }
    const text =
      notice.data.status === 'passed'
        ? t('notify.certPassed')
        : t('notify.certFailed', { reason: notice.data.reason ?? '' });
    return { text, target: 'member/renzheng' };
  };
}

/**
 * Opens order `id` as the member sees it: on the seller's page when it is their shop's, else on the buyer's; a
 * refusal says why.
 */
function useOpenClaimedOrder(): (id: string) => Promise<void> {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const queryClient = useQueryClient();
  return async (id) => {
    const context = { token: user?.token, locale: i18n.language };
    try {
      const [order, info] = await Promise.all([
        orderView(id, context),
        queryClient.fetchQuery({ queryKey: [SHOP_QUERY, user?.id], queryFn: () => shopInfo(context) }),
      ]);
      const sold = order.shop !== null && order.shop.id === info.shop?.id;
      open(`shop/${sold ? 'business-order-view' : 'user-order-view'}?id=${encodeURIComponent(id)}`);
    } catch (error) {
      toastError(errorText(error, t));
    }
  };
}

/**
 * Notifications (spec §2 member/notify): new followers, comments on the member's articles and posts and likes of
 * them, the review of the member's certification and of their coin withdrawals and of their shop application, the
 * payment of their recharges, their orders, refunds, guarantee claims and reviews, friends who signed up with their
 * invitation, decisions on their reports and on reports of what they wrote or of their profile, newest first, twenty
 * at a time, the unread marked. Opening the page marks them all read, which clears the badge.
 */
export default function Notifications() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const queryClient = useQueryClient();
  const line = useNoticeLine();
  const openClaimedOrder = useOpenClaimedOrder();
  const now = useNow();
  const context = { token: user?.token, locale: i18n.language };
  const list = usePagedList([NOTICES_QUERY, user?.id], (before) => noticePage(before, context), user !== null);
  const marked = useRef(false);
  const unread = list.items.some((notice) => !notice.read);

  // Once the member has seen what is unread, it is read: the badge clears, the marks stay until they leave.
  useEffect(() => {
    if (!unread || marked.current) return;
    marked.current = true;
    void markNoticesRead(undefined, context)
      .then(() => queryClient.invalidateQueries({ queryKey: ['member/info'] }))
      .catch(() => undefined);
  });

  if (!user) return null;
  return (
    <div className="page">
      <NavBar
        title={t('notify.title')}
        right={
          <button type="button" className="feedback-mine" onClick={() => open('member/sz-notify')}>
            {t('notify.settings')}
          </button>
        }
      />
      <PagedList list={list} empty={<ErrorBlock status="empty" title={t('notify.none')} description="" />}>
        {(items) => (
          <List>
            {items.map((notice) => {
              const shown = line(notice);
              return (
                <List.Item
                  key={notice.id}
                  prefix={
                    <Badge content={notice.read ? null : Badge.dot}>
                      <Avatar src={notice.actor?.img ?? ''} style={{ '--size': '40px', '--border-radius': '50%' }} />
                    </Badge>
                  }
                  description={relativeTime(notice.created_at, now, t, i18n.language)}
                  onClick={() => ('target' in shown ? open(shown.target) : void openClaimedOrder(shown.claimedOrder))}
                  data-testid="notice"
                  data-read={notice.read}
                >
                  {shown.text}
                </List.Item>
              );
            })}
          </List>
        )}
      </PagedList>
    </div>
  );
}
