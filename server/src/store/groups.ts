import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { SyncSqlite } from './sync-sqlite.js';

/** Every IM group send reads the members; on SQLite that is a synchronous prepared statement (see sync-sqlite.ts). */
const MEMBERS_SQL = 'select user_id from im_group_members where appkey = ? and group_id = ? order by user_id';

/** Groups whose members an SQLite store keeps in memory; the oldest entry goes first beyond this. */
const MEMBER_CACHE_GROUPS = 10_000;

/** Group membership in storage: who receives a group's messages. */
export interface GroupStore {
  /** Makes `userId` a member of `groupIds`; returns the groups it was not a member of before. */
  join(params: { appkey: string; userId: string; groupIds: readonly string[]; now: number }): Promise<string[]>;
  /** Ends a membership; returns whether there was one. */
  leave(params: { appkey: string; userId: string; groupId: string }): Promise<boolean>;
  /**
   * The members of a group; on SQLite the array the store keeps (every group send reads it), frozen: the same array
   * until the group changes.
   */
  members(appkey: string, groupId: string): Promise<readonly string[]>;
  /** The groups a user is a member of. */
  groupsOf(appkey: string, userId: string): Promise<string[]>;
  /** Whether `userId` is a member of `groupId`. */
  isMember(appkey: string, groupId: string, userId: string): Promise<boolean>;
}

/** The Kysely implementation of {@link GroupStore}. */
export function createGroupStore(db: Kysely<Database>, sync?: SyncSqlite): GroupStore {
  /**
   * SQLite only: members by group, read once and then served from memory. SQLite is one server process, and every
   * membership change goes through join or leave here, which drop the group's entry once they have committed.
   */
  const cached = new Map<string, readonly string[]>();
  const cacheKey = (appkey: string, groupId: string) => `${appkey}\n${groupId}`;
  const forget = (appkey: string, groupIds: readonly string[]) => {
    for (const groupId of groupIds) cached.delete(cacheKey(appkey, groupId));
  };

  return {
    async join({ appkey, userId, groupIds, now }) {
      if (groupIds.length === 0) return [];
      // One transaction, so that "which were new" is answered for exactly the rows this call inserted.
      const fresh = await db.transaction().execute(async (trx) => {
        const existing = await trx
          .selectFrom('im_group_members')
          .select('group_id')
          .where('appkey', '=', appkey)
          .where('user_id', '=', userId)
          .where('group_id', 'in', groupIds)
          .execute();
        const had = new Set(existing.map((r) => r.group_id));
        const fresh = [...new Set(groupIds)].filter((g) => !had.has(g));
        if (fresh.length > 0) {
          await trx
            .insertInto('im_group_members')
            .values(fresh.map((group_id) => ({ appkey, group_id, user_id: userId, joined_at: now })))
            .onConflict((oc) => oc.columns(['appkey', 'group_id', 'user_id']).doNothing())
            .execute();
        }
        return fresh;
      });
      forget(appkey, fresh);
      return fresh;
    },
    async leave({ appkey, userId, groupId }) {
      const result = await db
        .deleteFrom('im_group_members')
        .where('appkey', '=', appkey)
        .where('group_id', '=', groupId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      forget(appkey, [groupId]);
      return Number(result.numDeletedRows) > 0;
    },
    async members(appkey, groupId) {
      const key = cacheKey(appkey, groupId);
      const known = cached.get(key);
      if (known) return known;
      const quick = sync?.transaction(() => sync.prepare(MEMBERS_SQL).all(appkey, groupId) as { user_id: string }[]);
      if (quick) {
        // Frozen: kept and handed out as it is; a push may remember what it made of it (its users' rooms).
        const members = Object.freeze(quick.value.map((r) => r.user_id));
        cached.set(key, members);
        if (cached.size > MEMBER_CACHE_GROUPS) cached.delete(cached.keys().next().value as string);
        return members;
      }
      const rows = await db
        .selectFrom('im_group_members')
        .select('user_id')
        .where('appkey', '=', appkey)
        .where('group_id', '=', groupId)
        .orderBy('user_id')
        .execute();
      return rows.map((r) => r.user_id);
    },
    async groupsOf(appkey, userId) {
      const rows = await db
        .selectFrom('im_group_members')
        .select('group_id')
        .where('appkey', '=', appkey)
        .where('user_id', '=', userId)
        .orderBy('group_id')
        .execute();
      return rows.map((r) => r.group_id);
    },
    async isMember(appkey, groupId, userId) {
      const row = await db
        .selectFrom('im_group_members')
        .select('user_id')
        .where('appkey', '=', appkey)
        .where('group_id', '=', groupId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
