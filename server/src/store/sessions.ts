import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** A stored session. */
export interface SessionRecord {
  sid: string;
  appkey: string;
  /** Null for an anonymous connection. */
  userId: string | null;
  createdAt: number;
  lastSeenAt: number;
}

/** Sessions in storage. Times are ms since the epoch, passed in so that callers own the clock. */
export interface SessionStore {
  /** Stores a new session, seen now. */
  create(params: { sid: string; appkey: string; userId: string | null; now: number }): Promise<SessionRecord>;
  /** Marks a session seen at `now`; a missing sid is no error. */
  touch(sid: string, now: number): Promise<void>;
  /** Marks many sessions seen at `now` in few statements. */
  touchMany(sids: readonly string[], now: number): Promise<void>;
  /** The session with `sid`, if stored. */
  find(sid: string): Promise<SessionRecord | undefined>;
  /** Deletes sessions last seen before `before`; returns how many. */
  deleteExpired(before: number): Promise<number>;
}

/** Keeps IN lists well below SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 500;

/** The Kysely implementation of {@link SessionStore}. */
export function createSessionStore(db: Kysely<Database>): SessionStore {
  return {
    async create({ sid, appkey, userId, now }) {
      await db
        .insertInto('sessions')
        .values({ sid, appkey, user_id: userId, created_at: now, last_seen_at: now })
        .execute();
      return { sid, appkey, userId, createdAt: now, lastSeenAt: now };
    },
    async touch(sid, now) {
      await db.updateTable('sessions').set({ last_seen_at: now }).where('sid', '=', sid).execute();
    },
    async touchMany(sids, now) {
      for (let i = 0; i < sids.length; i += CHUNK) {
        const chunk = sids.slice(i, i + CHUNK);
        await db.updateTable('sessions').set({ last_seen_at: now }).where('sid', 'in', chunk).execute();
      }
    },
    async find(sid) {
      const row = await db.selectFrom('sessions').selectAll().where('sid', '=', sid).executeTakeFirst();
      if (!row) return undefined;
      return {
        sid: row.sid,
        appkey: row.appkey,
        userId: row.user_id,
        createdAt: Number(row.created_at),
        lastSeenAt: Number(row.last_seen_at),
      };
    },
    async deleteExpired(before) {
      const result = await db.deleteFrom('sessions').where('last_seen_at', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
