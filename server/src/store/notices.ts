import type { Kysely } from 'kysely';
import { keysetOf, olderThan } from './keyset.js';
import type { Database } from './schema.js';

/**
 * What a notification tells: a new follower, a certification reviewed, a withdrawal paid or rejected, a recharge
 * paid or failed, a shop application or a product reviewed, an order paid (to its seller), shipped (to its buyer) or
 * completed (to its seller), a refund asked for or goods sent back (to the seller) or decided or paid back (to the
 * buyer), a guarantee claim filed (to the seller) or decided (to both), an order reviewed (to its seller) or a review
 * answered (to its buyer), a member who signed up with the member's invitation, the decision on the member's report,
 * the member's profile reset or content removed by an upheld report, or an announcement to sellers.
 */
export type NoticeKind =
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

/** One notification of a member. */
export interface NoticeRecord {
  id: string;
  memberId: string;
  kind: NoticeKind;
  /** The member who caused it (the follower), or '' for the operator's. */
  actorId: string;
  /** What else the kind needs (a review's status and reason, a withdrawal's amount). */
  data: Record<string, unknown>;
  createdAt: number;
  readAt?: number;
}

/** The product app's notifications and notification settings. */
export interface NoticeStore {
  /**
   * Adds a notification, or raises the member's one with the same `dedupeKey` again (new time and data, unread),
   * in one statement.
   */
  put(notice: Omit<NoticeRecord, 'readAt'> & { dedupeKey: string }): Promise<void>;
  /**
   * A member's notifications, newest first, at most `limit`; with `before` (an id of theirs), only those before it.
   * Undefined when `before` is not theirs.
   */
  list(memberId: string, options: { before?: string | undefined; limit: number }): Promise<NoticeRecord[] | undefined>;
  /** How many of the member's notifications are unread. */
  unread(memberId: string): Promise<number>;
  /** Deletes the member's notification with `dedupeKey`, if there is one; true when there was. */
  remove(memberId: string, dedupeKey: string): Promise<boolean>;
  /** Marks the member's notification `id` read, or all of them without `id`. */
  markRead(memberId: string, params: { id?: string | undefined; now: number }): Promise<void>;
  /** The kinds the member switched off. */
  off(memberId: string): Promise<NoticeKind[]>;
  /** Sets the kinds the member switched off. */
  setOff(memberId: string, kinds: readonly NoticeKind[]): Promise<void>;
}

type NoticeTables = {
  member_notices: {
    id: string;
    member_id: string;
    kind: string;
    dedupe_key: string;
    actor_id: string;
    data: string;
    created_at: number;
    read_at: number | null;
  };
  member_notify_settings: { member_id: string; off: string };
};

type Row = Omit<NoticeTables['member_notices'], 'dedupe_key'>;

const recordOf = (row: Row): NoticeRecord => ({
  id: row.id,
  memberId: row.member_id,
  kind: row.kind as NoticeKind,
  actorId: row.actor_id,
  data: JSON.parse(row.data) as Record<string, unknown>,
  createdAt: Number(row.created_at),
  ...(row.read_at !== null && { readAt: Number(row.read_at) }),
});

const COLUMNS = ['id', 'member_id', 'kind', 'actor_id', 'data', 'created_at', 'read_at'] as const;

/** The Kysely implementation of {@link NoticeStore}. */
export function createNoticeStore(base: Kysely<Database>): NoticeStore {
  const db = base.withTables<NoticeTables>();
  return {
    async put({ id, memberId, kind, dedupeKey, actorId, data, createdAt }) {
      const json = JSON.stringify(data);
      await db
        .insertInto('member_notices')
        .values({
          id,
          member_id: memberId,
          kind,
          dedupe_key: dedupeKey,
          actor_id: actorId,
          data: json,
          created_at: createdAt,
          read_at: null,
        })
        .onConflict((oc) =>
          oc.columns(['member_id', 'dedupe_key']).doUpdateSet({ data: json, created_at: createdAt, read_at: null }),
        )
        .execute();
    },
    async list(memberId, { before, limit }) {
      const cursor = await keysetOf(db, 'member_notices', before, { column: 'member_id', value: memberId });
      if (cursor === 'missing') return undefined;
      const rows = await db
        .selectFrom('member_notices')
        .select(COLUMNS)
        .where('member_id', '=', memberId)
        .where(olderThan(cursor, { time: 'created_at', id: 'id' }))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(recordOf);
    },
    async unread(memberId) {
      const counted = await db
        .selectFrom('member_notices')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('member_id', '=', memberId)
        .where('read_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(counted.n);
    },
    async remove(memberId, dedupeKey) {
      const result = await db
        .deleteFrom('member_notices')
        .where('member_id', '=', memberId)
        .where('dedupe_key', '=', dedupeKey)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
    async markRead(memberId, { id, now }) {
      await db
        .updateTable('member_notices')
        .set({ read_at: now })
        .where('member_id', '=', memberId)
        .where('read_at', 'is', null)
        .$if(id !== undefined, (q) => q.where('id', '=', id as string))
        .execute();
    },
    async off(memberId) {
      const row = await db
        .selectFrom('member_notify_settings')
        .select('off')
        .where('member_id', '=', memberId)
        .executeTakeFirst();
      return row && row.off !== '' ? (row.off.split(',') as NoticeKind[]) : [];
    },
    async setOff(memberId, kinds) {
      const off = [...new Set(kinds)].sort().join(',');
      await db
        .insertInto('member_notify_settings')
        .values({ member_id: memberId, off })
        .onConflict((oc) => oc.column('member_id').doUpdateSet({ off }))
        .execute();
    },
  };
}
