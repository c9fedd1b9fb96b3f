import { sql, type Kysely } from 'kysely';
import { notBlockedWith } from './blocked.js';
import { containsAny } from './contains.js';
import { olderThan } from './keyset.js';
import type { Database } from './schema.js';
import { LIVE_STATUS } from './live.js';
import { OPEN_REFUND } from './orders.js';
import { endLinks } from './live-links.js';
import { recordUploadDeletions } from './upload-deletions.js';

/** What a member tells about themselves besides name and avatar (spec §3); empty strings while unset. */
export interface MemberDetails {
  gender: 'male' | 'female' | 'hidden';
  /** `YYYY-MM-DD`. */
  birthday: string;
  region: string;
  /** The brief introduction, or signature (`qianming`). */
  intro: string;
  /** The URL of the profile's background image. */
  background: string;
}

/** Details of a member who has set none. */
export const NO_DETAILS: MemberDetails = { gender: 'hidden', birthday: '', region: '', intro: '', background: '' };

/** The nickname a member is given at sign-up, from their phone; an upheld report of them gives it back. */
export const signUpNickname = (phone: string): string => `user${phone.slice(-4)}`;

/** A product member as stored. */
export interface MemberRecord extends MemberDetails {
  id: string;
  phone: string;
  username: string;
  img: string;
  /** Unread notifications, shown in the user tab's badge. */
  notifyBadge: number;
  createdAt: number;
  /** When the nickname was last changed by the member; null if never (the one given at sign-up). */
  usernameChangedAt: number | null;
  /** When the member cancelled their account ({@link MemberStore.cancel}); absent while it is open. */
  cancelledAt?: number | undefined;
}

/** A phone's SMS code, as {@link MemberStore.attemptCode} hands it out. */
export interface MemberCodeRecord {
  /** The code; empty once it was used to log in. */
  code: string;
  sentAt: number;
}

/** How often a phone may be sent a code: all of it checked in the one statement that stores the code. */
export interface MemberCodeQuota {
  /** No new code until this long after the last one. */
  resendMs: number;
  /** At most `maxSends` codes in a window of this long, which starts at its first send. */
  windowMs: number;
  maxSends: number;
}

/** Members, their login tokens and pending SMS codes. */
export interface MemberStore {
  /** The member with this phone number, if any. */
  byPhone(phone: string): Promise<MemberRecord | undefined>;
  /** The member with this id, if any. */
  byId(id: string): Promise<MemberRecord | undefined>;
  /** Adds a member, with {@link NO_DETAILS} for details left out; fails if the id or the phone is taken. */
  insert(member: Omit<MemberRecord, keyof MemberDetails> & Partial<MemberDetails>): Promise<void>;
  /**
   * Changes a member's nickname (recording `now` as its change time) and/or avatar; fields left out keep theirs. With
   * a nickname, `renamedBefore` makes it one statement's condition that the last change was at or before that time
   * (or never): false then, and nothing is changed, so that parallel renames cannot both pass (MEM-5).
   */
  updateProfile(
    id: string,
    changes: { username?: string; img?: string; details?: Partial<MemberDetails>; now: number; renamedBefore?: number },
  ): Promise<boolean>;
  /**
   * Open members for `viewerId` to find (spec §2 user/user_list): those whose nickname holds `keyword` (any case)
   * or whose id is `keyword`, or all without one; newest first, at most `limit`; with `before` (a member id found),
   * only those who joined before it. Cancelled members and members one of whom has blocked the other are left out.
   * Undefined when `before` is no member.
   */
  search(
    viewerId: string,
    params: { keyword?: string | undefined; before?: string | undefined; limit: number },
  ): Promise<MemberRecord[] | undefined>;
  /** Stores a login token for a member until `expiresAt`. */
  addToken(params: { token: string; memberId: string; expiresAt: number }): Promise<void>;
  /** The member a token names, if the token exists and has not expired at `now`. */
  byToken(token: string, now: number): Promise<MemberRecord | undefined>;
  /** Removes a token (logout). */
  deleteToken(token: string): Promise<void>;
  /**
   * Stores a new code for a phone, replacing its earlier one and resetting its attempts, unless `quota` refuses:
   * false then. One statement, so that parallel sends for one phone cannot both pass.
   */
  putCode(params: { phone: string; code: string; now: number; quota: MemberCodeQuota }): Promise<boolean>;
  /**
   * Counts one attempt at a phone's code and returns the code, unless it has had `maxAttempts` already (or there is
   * none): undefined then. Atomic, so parallel guesses get no more than `maxAttempts` between them.
   */
  attemptCode(phone: string, maxAttempts: number): Promise<MemberCodeRecord | undefined>;
  /** Uses a phone's code up if it is still `code`: true for the one caller that did. */
  consumeCode(phone: string, code: string): Promise<boolean>;
  /**
   * Cancels a member's account (MEM-7), in one transaction: the row keeps its id, the time and the reason, and loses
   * phone and profile; the member's tokens, feedback, block list, addresses, follows both ways, certification,
   * notifications (theirs, and those they caused) and settings, sign-ins and coins, and pending code go. False if there
   * is no such open account (none, or cancelled already). `orders`, and nothing changed, while an order they bought
   * or sold is paid or shipped and not yet complete; their unpaid orders, bought or sold, are cancelled (the stock
   * bought returns).
   */
  cancel(id: string, params: { reason: string; now: number }): Promise<boolean | 'orders'>;
}

/** Tables of `0005_members`, typed here so that the shared schema file stays untouched by this feature; a type
 * alias, not an interface, because `withTables` needs an index-signature-compatible type. */
type MembersTables = {
  members: {
    id: string;
    phone: string;
    username: string;
    img: string;
    notify_badge: number;
    created_at: number;
    username_changed_at: number | null;
    cancelled_at: number | null;
    cancel_reason: string | null;
    gender: string;
    birthday: string;
    region: string;
    intro: string;
    background: string;
  };
  member_feedback: { member_id: string };
  member_blocks: { member_id: string; blocked_id: string };
  member_follows: { member_id: string; followed_id: string };
  member_certifications: { member_id: string };
  member_notices: { member_id: string; actor_id: string };
  member_notify_settings: { member_id: string };
  member_signins: { member_id: string };
  member_coins: { member_id: string };
  member_payout_accounts: { member_id: string };
  member_invitations: { inviter_id: string };
  articles: { member_id: string };
  article_comments: { member_id: string };
  article_likes: { member_id: string };
  member_reports: { member_id: string };
  article_collections: { member_id: string };
  member_channels: { member_id: string };
  circle_posts: { member_id: string };
  circle_votes: { member_id: string };
  circle_comments: { member_id: string };
  circle_likes: { member_id: string };
  member_hidden: { member_id: string };
  live_rooms: { anchor_id: string; status: number; ended_at: number | null };
  shops: { member_id: string };
  products: { member_id: string };
  member_addresses: { member_id: string };
  member_tokens: { token: string; member_id: string; expires_at: number };
  /** `failures` counts attempts, right or wrong (the name predates that). */
  member_codes: {
    phone: string;
    code: string;
    sent_at: number;
    failures: number;
    window_start: number;
    window_sends: number;
  };
};

type MemberRow = MembersTables['members'];

const toRecord = (row: MemberRow): MemberRecord => ({
  id: row.id,
  phone: row.phone,
  username: row.username,
  img: row.img,
  notifyBadge: Number(row.notify_badge),
  createdAt: Number(row.created_at),
  usernameChangedAt: row.username_changed_at === null ? null : Number(row.username_changed_at),
  gender: row.gender === 'male' || row.gender === 'female' ? row.gender : 'hidden',
  birthday: row.birthday,
  region: row.region,
  intro: row.intro,
  background: row.background,
  ...(row.cancelled_at !== null && { cancelledAt: Number(row.cancelled_at) }),
});

/** The phone column of a cancelled account: unique, and no number, so that the phone can sign up again. */
const cancelledPhone = (id: string) => `cancelled:${id}`;

/** The Kysely implementation of {@link MemberStore}. */
export function createMemberStore(base: Kysely<Database>, dialect: 'sqlite' | 'postgres'): MemberStore {
  const db = base.withTables<MembersTables>();
  const member = () => db.selectFrom('members').selectAll();
  return {
    async byPhone(phone) {
      const row = await member().where('phone', '=', phone).executeTakeFirst();
      return row && toRecord(row);
    },
    async byId(id) {
      const row = await member().where('id', '=', id).executeTakeFirst();
      return row && toRecord(row);
    },
    async search(viewerId, { keyword, before, limit }) {
      let cursor: { created_at: number; id: string } | undefined;
      if (before !== undefined) {
        const found = await member().where('id', '=', before).executeTakeFirst();
        if (!found) return undefined;
        cursor = { created_at: Number(found.created_at), id: found.id };
      }
      const rows = await member()
        .where('cancelled_at', 'is', null)
        .$if(keyword !== undefined, (q) =>
          q.where((eb) =>
            eb.or([containsAny('members', ['username'], keyword as string, dialect), eb('id', '=', keyword as string)]),
          ),
        )
        .where(notBlockedWith(viewerId, 'members.id'))
        .where(olderThan(cursor && { at: cursor.created_at, id: cursor.id }, { time: 'created_at', id: 'id' }))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toRecord);
    },
    async insert(m) {
      await db
        .insertInto('members')
        .values({
          id: m.id,
          phone: m.phone,
          username: m.username,
          img: m.img,
          notify_badge: m.notifyBadge,
          created_at: m.createdAt,
          username_changed_at: m.usernameChangedAt,
          gender: m.gender ?? NO_DETAILS.gender,
          birthday: m.birthday ?? NO_DETAILS.birthday,
          region: m.region ?? NO_DETAILS.region,
          intro: m.intro ?? NO_DETAILS.intro,
          background: m.background ?? NO_DETAILS.background,
        })
        .execute();
    },
    async updateProfile(id, changes) {
      const set = {
        ...(changes.username !== undefined && { username: changes.username, username_changed_at: changes.now }),
        ...(changes.img !== undefined && { img: changes.img }),
        ...changes.details,
      };
      if (Object.keys(set).length === 0) return true;
      const { renamedBefore } = changes;
      const result = await db
        .updateTable('members')
        .set(set)
        .where('id', '=', id)
        .$if(changes.username !== undefined && renamedBefore !== undefined, (q) =>
          q.where((eb) =>
            eb.or([eb('username_changed_at', 'is', null), eb('username_changed_at', '<=', renamedBefore as number)]),
          ),
        )
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async addToken({ token, memberId, expiresAt }) {
      await db.insertInto('member_tokens').values({ token, member_id: memberId, expires_at: expiresAt }).execute();
    },
    async byToken(token, now) {
      const row = await db
        .selectFrom('member_tokens')
        .innerJoin('members', 'members.id', 'member_tokens.member_id')
        .selectAll('members')
        .where('member_tokens.token', '=', token)
        .where('member_tokens.expires_at', '>', now)
        // A login that found the member just before the account was cancelled may add its token just after.
        .where('members.cancelled_at', 'is', null)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    async deleteToken(token) {
      await db.deleteFrom('member_tokens').where('token', '=', token).execute();
    },
    async putCode({ phone, code, now, quota }) {
      const windowOver = now - quota.windowMs;
      const result = await db
        .insertInto('member_codes')
        .values({ phone, code, sent_at: now, failures: 0, window_start: now, window_sends: 1 })
        .onConflict((oc) =>
          oc
            .column('phone')
            .doUpdateSet((eb) => {
              const newWindow = eb('member_codes.window_start', '<=', windowOver);
              return {
                code,
                sent_at: now,
                failures: 0,
                window_start: eb.case().when(newWindow).then(now).else(eb.ref('member_codes.window_start')).end(),
                window_sends: eb
                  .case()
                  .when(newWindow)
                  .then(1)
                  .else(eb('member_codes.window_sends', '+', 1))
                  .end(),
              };
            })
            .where((eb) =>
              eb.and([
                eb('member_codes.sent_at', '<=', now - quota.resendMs),
                eb.or([
                  eb('member_codes.window_start', '<=', windowOver),
                  eb('member_codes.window_sends', '<', quota.maxSends),
                ]),
              ]),
            ),
        )
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async attemptCode(phone, maxAttempts) {
      const row = await db
        .updateTable('member_codes')
        .set((eb) => ({ failures: eb('failures', '+', 1) }))
        .where('phone', '=', phone)
        .where('failures', '<', maxAttempts)
        .returning(['code', 'sent_at'])
        .executeTakeFirst();
      return row && { code: row.code, sentAt: Number(row.sent_at) };
    },
    async cancel(id, { reason, now }) {
      return db.transaction().execute(async (trx) => {
        const open = await trx
          .selectFrom('members')
          .select('phone')
          .where('id', '=', id)
          .where('cancelled_at', 'is', null)
          .executeTakeFirst();
        if (!open) return false;
        // Under way: paid and not yet received, or a refund or a claim waiting (a completed order's return, say).
        const trading =
          await sql`select id from orders where (buyer_id = ${id} or seller_id = ${id}) and (status in ('paid', 'shipped') or refund_status in (${sql.join(OPEN_REFUND)}) or claim_status = 'pending') limit 1`.execute(
            trx,
          );
        if (trading.rows.length > 0) return 'orders' as const;
        const unpaid = await sql<{
          id: string;
        }>`update orders set status = 'cancelled', closed_at = ${now} where (buyer_id = ${id} or seller_id = ${id}) and status = 'unpaid' returning id`.execute(
          trx,
        );
        for (const order of unpaid.rows) {
          await sql`update products set stock = stock + (select quantity from order_items where order_items.order_id = ${order.id} and order_items.product_id = products.id) where id in (select product_id from order_items where order_id = ${order.id})`.execute(
            trx,
          );
        }
        // The files its data names go once this commits (MEM-7): read before the rows naming them are deleted.
        await recordUploadDeletions(trx, id, now);
        const result = await trx
          .updateTable('members')
          .set({
            phone: cancelledPhone(id),
            username: '',
            img: '',
            ...NO_DETAILS,
            cancelled_at: now,
            cancel_reason: reason,
          })
          .where('id', '=', id)
          .where('cancelled_at', 'is', null)
          .executeTakeFirst();
        if (result.numUpdatedRows === 0n) return false;
        await trx.deleteFrom('member_tokens').where('member_id', '=', id).execute();
        await trx.deleteFrom('member_feedback').where('member_id', '=', id).execute();
        await trx.deleteFrom('member_blocks').where('member_id', '=', id).execute();
        await trx.deleteFrom('member_addresses').where('member_id', '=', id).execute();
        await trx
          .deleteFrom('member_follows')
          .where((eb) => eb.or([eb('member_id', '=', id), eb('followed_id', '=', id)]))
          .execute();
        await trx.deleteFrom('member_certifications').where('member_id', '=', id).execute();
        await trx
          .deleteFrom('member_notices')
          .where((eb) => eb.or([eb('member_id', '=', id), eb('actor_id', '=', id)]))
          .execute();
        await trx.deleteFrom('member_notify_settings').where('member_id', '=', id).execute();
        await trx.deleteFrom('member_signins').where('member_id', '=', id).execute();
        await trx.deleteFrom('member_coins').where('member_id', '=', id).execute();
        // Withdrawals stay, with the account each was paid to: the operator's books need them.
        await trx.deleteFrom('member_payout_accounts').where('member_id', '=', id).execute();
        // Whom the member invited goes; that the member was invited stays, so that their phone is invited once.
        await trx.deleteFrom('member_invitations').where('inviter_id', '=', id).execute();
        await trx.deleteFrom('articles').where('member_id', '=', id).execute();
        await trx.deleteFrom('article_comments').where('member_id', '=', id).execute();
        await trx.deleteFrom('article_likes').where('member_id', '=', id).execute();
        await trx.deleteFrom('member_reports').where('member_id', '=', id).execute();
        await trx.deleteFrom('article_collections').where('member_id', '=', id).execute();
        await trx.deleteFrom('member_channels').where('member_id', '=', id).execute();
        await trx.deleteFrom('circle_posts').where('member_id', '=', id).execute();
        await trx.deleteFrom('circle_votes').where('member_id', '=', id).execute();
        await trx.deleteFrom('circle_comments').where('member_id', '=', id).execute();
        await trx.deleteFrom('circle_likes').where('member_id', '=', id).execute();
        await trx.deleteFrom('member_hidden').where('member_id', '=', id).execute();
        // The member's live room not ended ends now: it stays, with its chat, for moderation.
        await trx
          .updateTable('live_rooms')
          .set({ status: LIVE_STATUS.ended, ended_at: now })
          .where('anchor_id', '=', id)
          .where('status', '<', LIVE_STATUS.ended)
          .execute();
        // Every co-broadcast link open in their rooms, and theirs in others' rooms, ends with it.
        await endLinks(
          trx,
          sql`(member_id = ${id} or room_id in (select id from live_rooms where anchor_id = ${id}))`,
          now,
        );
        await trx.deleteFrom('products').where('member_id', '=', id).execute();
        await trx.deleteFrom('shops').where('member_id', '=', id).execute();
        await trx.deleteFrom('member_codes').where('phone', '=', open.phone).execute();
        return true;
      });
    },
    async consumeCode(phone, code) {
      const result = await db
        .updateTable('member_codes')
        .set({ code: '' })
        .where('phone', '=', phone)
        .where('code', '=', code)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
