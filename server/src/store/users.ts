import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** A user's data as last seen at authorize. */
export interface UserRecord {
  userId: string;
  /** JSON of an object. */
  data: string;
}

/** Users in storage: the data each named user last authorized with, per app. */
export interface UserStore {
  /** Stores `data` as the user's current data. */
  upsert(params: { appkey: string; userId: string; data: string; now: number }): Promise<void>;
  /** The known users among `userIds`, in no particular order. */
  find(appkey: string, userIds: readonly string[]): Promise<UserRecord[]>;
}

/** Keeps IN lists well below SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 500;

/** The Kysely implementation of {@link UserStore}. */
export function createUserStore(db: Kysely<Database>): UserStore {
  return {
    async upsert({ appkey, userId, data, now }) {
      await db
        .insertInto('users')
        .values({ appkey, user_id: userId, data, updated_at: now })
        .onConflict((oc) => oc.columns(['appkey', 'user_id']).doUpdateSet({ data, updated_at: now }))
        .execute();
    },
    async find(appkey, userIds) {
      const found: UserRecord[] = [];
      for (let i = 0; i < userIds.length; i += CHUNK) {
        const rows = await db
          .selectFrom('users')
          .select(['user_id', 'data'])
          .where('appkey', '=', appkey)
          .where('user_id', 'in', userIds.slice(i, i + CHUNK))
          .execute();
        for (const row of rows) found.push({ userId: row.user_id, data: row.data });
      }
      return found;
    },
  };
}
