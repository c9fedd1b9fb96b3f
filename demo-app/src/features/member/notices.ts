import { apiPost, type CallContext } from '../api/request';
import type { ReportKind } from '../content/reports';

/** The query key of the notification list, which reading or new settings make stale. */
export const NOTICES_QUERY = 'member-notices';

/** The query key of the notification settings. */
export const NOTICE_SETTINGS_QUERY = 'member-notice-settings';

/** One notification, as `member/notify_list` answers it, newest first. */
export interface Notice {
  id: string;
  /**
   * `follow`: a new follower (`actor`); `certification`: the review of the member's certification (`data`);
   * `withdrawal`: a coin withdrawal paid or rejected (`data`); `recharge`: a recharge paid or failed (`data`); `shop`: the
   * member's shop application approved or rejected (`data`, `title` the shop's name); `product`: a product of theirs
   * put on sale, rejected or banned (`data`); `order`: an order paid or completed (to its seller) or shipped (to its
   * buyer) (`data`, `title` its first item's); `refund`: a refund of an order asked for or its goods sent back (to the
   * seller), or refused, agreed with return or paid back (to the buyer) (`data`, `amount` the refund's, `title` the
   * order's first item's); `claim`: a guarantee claim on an order filed (`pending`, to the seller) or decided
   * (`upheld` or `rejected`, to the buyer and the seller) (`data`: `kind`, the `claim`'s id, `reason`, `title` the
   * order's first item's); `review`: an order reviewed by its buyer (`reviewed`, to the seller, with the `quality`
   * rated) or the review answered by the seller (`replied`, to the buyer) (`data`, `title` the order's first item's);
   * `invitation`: a member who signed up with the member's code (`actor`) and the coins it paid (`data`); `report`: the
   * decision on the member's report (`data`, `type` what was reported); `profile_reset`: the member's profile reset by
   * an upheld report of them (`data`: the `reason`); `content_removed`: the member's article, circle post or comment
   * removed by an upheld report (`data`: the report's `type`, the content's `title`, the `reason`); `announcement`: a
   * new announcement to sellers (`data`: its id as `announcement`, its `title`); `comment`: a comment on the member's
   * article or circle post (`actor`; `data`: `subject`, its `id` and `title`, the `comment`'s id and the start of its
   * `content`); `like`: a new like of one (`actor`; `data`: `subject`, `id`, `title`).
   */
  kind:
    | 'follow'
    | 'certification'
    | 'withdrawal'
    | 'recharge'
    | 'shop'
    | 'product'
    | 'order'
    | 'refund'
    | 'claim'
    | 'review'
    | 'invitation'
    | 'report'
    | 'profile_reset'
    | 'content_removed'
    | 'announcement'
    | 'comment'
    | 'like';
  /** The member who caused it (a cancelled one with an empty name), or null for the operator's. */
  actor: { id: string; username: string; img: string } | null;
  data: {
    status?:
      | 'passed'
      | 'failed'
      | 'paid'
      | 'rejected'
      | 'success'
      | 'abnormal'
      | 'approved'
      | 'on_sale'
      | 'banned'
      | 'upheld'
      | 'dismissed'
      | 'shipped'
      | 'completed'
      | 'settled'
      | 'compensated'
      | 'pending'
      | 'refused'
      | 'returning'
      | 'returned'
      | 'refunded'
      | 'reviewed'
      | 'replied';
    product?: string;
    /** A withdrawal's: `shop` for a seller's income, absent for gold coins. */
    source?: 'shop';
    order?: string;
    /** A guarantee claim's id, and its kind. */
    claim?: string;
    kind?: 'damage' | 'counterfeit';
    total?: number;
    /** Why it was decided so; a claim's may be null when upheld. */
    reason?: string | null;
    amount?: number;
    coins?: number;
    /** The quality rated by a review, 1 to 5. */
    quality?: number;
    report?: string;
    /** What a report was of: content, or a member (`user`). Absent on notifications of reports before there was one. */
    type?: ReportKind;
    /** An announcement's id. */
    announcement?: string;
    /** What a comment or a like is on: an article (a video being one) or a circle post, by `id`. */
    subject?: 'article' | 'quanzi';
    id?: string;
    /** A comment's id, and the start of what it says; `reply` when it answers the member's own comment. */
    comment?: string;
    content?: string;
    reply?: boolean;
    title?: string;
  };
  created_at: number;
  read: boolean;
}

/** Which notifications the member gets: new followers, comments and likes, or not (system ones always). */
export interface NoticeSettings {
  follow: boolean;
  comment: boolean;
  like: boolean;
}

/** A page of the member's notifications, newest first; `before` is the id of the last one shown. */
export async function noticePage(before: string | undefined, context: CallContext): Promise<Notice[]> {
  const body = before === undefined ? {} : { before };
  return (await apiPost<{ ret: Notice[] }>('member/notify_list', body, context)).ret;
}

/** Marks the member's notifications read (one, with `id`); resolves with how many stay unread. */
export async function markNoticesRead(id: string | undefined, context: CallContext): Promise<number> {
  const body = id === undefined ? {} : { id };
  return (await apiPost<{ ret: { unread: number } }>('member/notify_read', body, context)).ret.unread;
}

/** The member's notification settings, after setting those given. */
export async function noticeSettings(changes: Partial<NoticeSettings>, context: CallContext): Promise<NoticeSettings> {
  return (await apiPost<{ ret: NoticeSettings }>('member/notify_settings', changes, context)).ret;
}
