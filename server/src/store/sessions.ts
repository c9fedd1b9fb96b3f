import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Where a session's replay starts when its client comes back, and the messages it leaves out (IM-24). */
export interface ReplayHorizon {
  /** The server time of the oldest message pushed and not acknowledged. */
  from: number;
  /** Messages the connection sent itself at or after `from`: never pushed to it, so never acknowledged either. */
  except: string[];
}

/** A stored session. */
export interface SessionRecord {
  sid: string;
  appkey: string;
  /** Null for an anonymous connection. */
  userId: string | null;
  createdAt: number;
  lastSeenAt: number;
  /**
   * Where the next replay starts, when the session's last connection left messages pushed and not acknowledged
   * (IM-24); cleared when a connection resumes the session.
   */
  replay?: ReplayHorizon | undefined;
}

/** Sessions in storage. Times are ms since the epoch, passed in so that callers own the clock. */
export interface SessionStore {
  /** Stores a new session, seen now. */
  create(params: { sid: string; appkey: string; userId: string | null; now: number }): Promise<SessionRecord>;
  /** Marks a session seen at `now`, and forgets its replay's start; a missing sid is no error. */
  touch(sid: string, now: number): Promise<void>;
  /**
   * A session's connection went away at `now`, leaving `replay` to the next (none: everything was delivered); or, in
   * the sweep of live sessions, what it would leave if its node stopped now (IM-24).
   */
  left(sid: string, now: number, replay?: ReplayHorizon): Promise<void>;
  /** Marks many sessions seen at `now` in few statements, and forgets their replays' starts. */
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
      await db
        .updateTable('sessions')
        .set({ last_seen_at: now, replay_from: null, replay_except: null })
        .where('sid', '=', sid)
        .execute();
    },
    async left(sid, now, replay) {
      await db
        .updateTable('sessions')
        .set({
          last_seen_at: now,
          replay_from: replay?.from ?? null,
          replay_except: replay && replay.except.length > 0 ? JSON.stringify(replay.except) : null,
        })
        .where('sid', '=', sid)
        .execute();
    },
    async touchMany(sids, now) {
      for (let i = 0; i < sids.length; i += CHUNK) {
        const chunk = sids.slice(i, i + CHUNK);
        await db
          .updateTable('sessions')
          .set({ last_seen_at: now, replay_from: null, replay_except: null })
          .where('sid', 'in', chunk)
          .execute();
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
        replay:
          row.replay_from === null ? undefined : { from: Number(row.replay_from), except: parseIds(row.replay_except) },
      };
    },
    async deleteExpired(before) {
      const result = await db.deleteFrom('sessions').where('last_seen_at', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

/** The ids {@link SessionStore.left} wrote, or none. */
function parseIds(json: string | null): string[] {
  if (json === null) return [];
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
}
