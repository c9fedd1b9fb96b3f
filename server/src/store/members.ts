import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** A product member as stored. */
export interface MemberRecord {
  id: string;
  phone: string;
  username: string;
  img: string;
  /** Unread notifications, shown in the user tab's badge. */
  notifyBadge: number;
  createdAt: number;
  /** When the nickname was last changed by the member; null if never (the one given at sign-up). */
  usernameChangedAt: number | null;
}

/** An SMS code waiting to be used. */
export interface MemberCodeRecord {
  phone: string;
  code: string;
  sentAt: number;
  /** Wrong guesses so far. */
  failures: number;
}

/** Members, their login tokens and pending SMS codes. */
export interface MemberStore {
  /** The member with this phone number, if any. */
  byPhone(phone: string): Promise<MemberRecord | undefined>;
  /** The member with this id, if any. */
  byId(id: string): Promise<MemberRecord | undefined>;
  /** Adds a member; fails if the id or the phone is taken. */
  insert(member: MemberRecord): Promise<void>;
  /** Changes a member's nickname (recording `now` as its change time) and/or avatar; fields left out keep theirs. */
  updateProfile(id: string, changes: { username?: string; img?: string; now: number }): Promise<void>;
  /** Stores a login token for a member until `expiresAt`. */
  addToken(params: { token: string; memberId: string; expiresAt: number }): Promise<void>;
  /** The member a token names, if the token exists and has not expired at `now`. */
  byToken(token: string, now: number): Promise<MemberRecord | undefined>;
  /** Removes a token (logout). */
  deleteToken(token: string): Promise<void>;
  /** The pending code of a phone number. */
  code(phone: string): Promise<MemberCodeRecord | undefined>;
  /** Stores a new pending code, replacing any earlier one. */
  putCode(record: MemberCodeRecord): Promise<void>;
  /** Counts one wrong guess. */
  addCodeFailure(phone: string): Promise<void>;
  /** Removes the pending code of a phone number. */
  deleteCode(phone: string): Promise<void>;
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
  };
  member_tokens: { token: string; member_id: string; expires_at: number };
  member_codes: { phone: string; code: string; sent_at: number; failures: number };
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
});

/** The Kysely implementation of {@link MemberStore}. */
export function createMemberStore(base: Kysely<Database>): MemberStore {
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
        })
        .execute();
    },
    async updateProfile(id, changes) {
      const set = {
        ...(changes.username !== undefined && { username: changes.username, username_changed_at: changes.now }),
        ...(changes.img !== undefined && { img: changes.img }),
      };
      if (Object.keys(set).length === 0) return;
      await db.updateTable('members').set(set).where('id', '=', id).execute();
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
        .executeTakeFirst();
      return row && toRecord(row);
    },
    async deleteToken(token) {
      await db.deleteFrom('member_tokens').where('token', '=', token).execute();
    },
    async code(phone) {
      const row = await db.selectFrom('member_codes').selectAll().where('phone', '=', phone).executeTakeFirst();
      return row && { phone: row.phone, code: row.code, sentAt: Number(row.sent_at), failures: Number(row.failures) };
    },
    async putCode({ phone, code, sentAt, failures }) {
      await db
        .insertInto('member_codes')
        .values({ phone, code, sent_at: sentAt, failures })
        .onConflict((oc) => oc.column('phone').doUpdateSet({ code, sent_at: sentAt, failures }))
        .execute();
    },
    async addCodeFailure(phone) {
      await db
        .updateTable('member_codes')
        .set((eb) => ({ failures: eb('failures', '+', 1) }))
        .where('phone', '=', phone)
        .execute();
    },
    async deleteCode(phone) {
      await db.deleteFrom('member_codes').where('phone', '=', phone).execute();
    },
  };
}
