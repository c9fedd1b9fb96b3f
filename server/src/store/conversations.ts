import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { LaterWrites } from './later-writes.js';
import type { Database, ImConversationsTable } from './schema.js';
import type { PrivateRows, ShownRows } from './shown-rows.js';

/** One user's view of one conversation. */
export interface ConversationRecord {
  ownerId: string;
  scene: string;
  /** The other user (private) or the group id. */
  targetId: string;
  convKey: string;
  top: boolean;
  removed: boolean;
  /** JSON: the friend's or the group's data. */
  data: string;
  /** Timestamp of the newest message. */
  lastTs: number;
}

/** A conversation row to create or bring forward after a new message. */
export interface ConversationTouch {
  ownerId: string;
  targetId: string;
  /** New conversation data (JSON), or null to keep what is stored (`{}` for a new row). */
  data: string | null;
}

/** Per-user conversation rows in storage. */
export interface ConversationStore {
  /**
   * Creates or updates the rows of a conversation after a message at `lastTs`: the newest timestamp moves forward
   * (never back), a removed row shows again, and the data is replaced where given.
   */
  touch(params: {
    appkey: string;
    scene: string;
    convKey: string;
    lastTs: number;
    rows: readonly ConversationTouch[];
  }): Promise<void>;
  /** One user's row for a conversation, removed or not. */
  find(params: {
    appkey: string;
    ownerId: string;
    scene: string;
    targetId: string;
  }): Promise<ConversationRecord | undefined>;
  /** A user's conversations that are not removed: topped first, then the newest message first. */
  list(appkey: string, ownerId: string, limit: number): Promise<ConversationRecord[]>;
  /** Sets the top flag; returns whether the row exists. */
  setTop(params: { appkey: string; ownerId: string; scene: string; targetId: string; top: boolean }): Promise<boolean>;
  /** Hides a conversation until its next message; returns whether the row exists. */
  remove(params: { appkey: string; ownerId: string; scene: string; targetId: string }): Promise<boolean>;
  /**
   * IM-20: a new member's rows for the groups they joined that have messages already and no row of theirs yet, so
   * that their list shows them at once; returns those groups with their newest message time.
   */
  joined(params: {
    appkey: string;
    ownerId: string;
    groups: readonly { groupId: string; convKey: string }[];
  }): Promise<{ groupId: string; convKey: string; lastTs: number }[]>;
}

/**
 * IM-9: a conversation row `c` its owner may see: any private one, a group's only while the owner is a member, so
 * that someone who left is not shown what was said after.
 */
export function ownerMayRead(eb: ExpressionBuilder<Database & { c: ImConversationsTable }, 'c'>) {
  return eb.or([
    eb('c.scene', '!=', 'group'),
    eb.exists(
      eb
        .selectFrom('im_group_members as g')
        .select('g.user_id')
        .whereRef('g.appkey', '=', 'c.appkey')
        .whereRef('g.group_id', '=', 'c.target_id')
        .whereRef('g.user_id', '=', 'c.owner_id'),
    ),
  ]);
}

/** Rows per insert statement: 9 parameters each stays far below SQLite's parameter limit. */
const CHUNK = 500;

/**
 * A conversation's row as listed: the newer of the row and the conversation's head (0006), and the head's data once
 * a sender gave some. A group's head moves with each message; a private conversation's only while its rows are left
 * as they were (SQLite, shown-rows.ts), and it has no data.
 */
function withHead(db: Kysely<Database>) {
  return db
    .selectFrom('im_conversations as c')
    .leftJoin('im_conversation_heads as h', (join) =>
      join.onRef('h.appkey', '=', 'c.appkey').onRef('h.conv_key', '=', 'c.conv_key'),
    )
    .select([
      'c.appkey',
      'c.owner_id',
      'c.scene',
      'c.target_id',
      'c.conv_key',
      'c.top',
      'c.removed',
      sql<string>`coalesce(h.data, c.data)`.as('data'),
      sql<number>`case when h.last_ts > c.last_ts then h.last_ts else c.last_ts end`.as('last_ts'),
    ]);
}

/** The Kysely implementation of {@link ConversationStore}. */
export function createConversationStore(
  db: Kysely<Database>,
  shown?: ShownRows,
  later?: Pick<LaterWrites, 'flush'>,
  privateRows?: PrivateRows,
): ConversationStore {
  const upsert = async (rows: ImConversationsTable[], replaceData: boolean) => {
    for (let i = 0; i < rows.length; i += CHUNK) {
      await db
        .insertInto('im_conversations')
        .values(rows.slice(i, i + CHUNK))
        .onConflict((oc) =>
          oc.columns(['appkey', 'owner_id', 'scene', 'target_id']).doUpdateSet((eb) => ({
            // Portable max(), as in store/im.ts: two messages may touch the row out of order on two nodes.
            last_ts: sql<number>`case when excluded.last_ts > im_conversations.last_ts then excluded.last_ts else im_conversations.last_ts end`,
            removed: 0,
            ...(replaceData ? { data: eb.ref('excluded.data') } : {}),
          })),
        )
        .execute();
    }
  };

  /** A group message: the head moves; members' rows are only created, or shown again when removed. */
  const touchGroup = async (
    appkey: string,
    convKey: string,
    lastTs: number,
    touches: readonly ConversationTouch[],
    rows: readonly ImConversationsTable[],
  ) => {
    const data = touches.find((r) => r.data !== null)?.data ?? null;
    await db
      .insertInto('im_conversation_heads')
      .values({ appkey, conv_key: convKey, last_ts: lastTs, data })
      .onConflict((oc) =>
        oc.columns(['appkey', 'conv_key']).doUpdateSet({
          last_ts: sql<number>`case when excluded.last_ts > im_conversation_heads.last_ts then excluded.last_ts else im_conversation_heads.last_ts end`,
          data: sql<string | null>`coalesce(excluded.data, im_conversation_heads.data)`,
        }),
      )
      .execute();
    for (let i = 0; i < rows.length; i += CHUNK) {
      await db
        .insertInto('im_conversations')
        .values(rows.slice(i, i + CHUNK))
        .onConflict((oc) =>
          oc
            .columns(['appkey', 'owner_id', 'scene', 'target_id'])
            .doUpdateSet({ removed: 0 })
            .where('im_conversations.removed', '=', 1),
        )
        .execute();
    }
  };

  return {
    async touch({ appkey, scene, convKey, lastTs, rows }) {
      const toRow = (r: ConversationTouch): ImConversationsTable => ({
        appkey,
        owner_id: r.ownerId,
        scene,
        target_id: r.targetId,
        conv_key: convKey,
        top: 0,
        removed: 0,
        data: r.data ?? '{}',
        last_ts: lastTs,
      });
      if (scene === 'group') return touchGroup(appkey, convKey, lastTs, rows, rows.map(toRow));
      await upsert(rows.filter((r) => r.data !== null).map(toRow), true);
      await upsert(rows.filter((r) => r.data === null).map(toRow), false);
    },
    async find({ appkey, ownerId, scene, targetId }) {
      // Heads move a moment after their messages on SQLite (later-writes.ts): written first.
      later?.flush();
      const row = await withHead(db)
        .where('c.appkey', '=', appkey)
        .where('c.owner_id', '=', ownerId)
        .where('c.scene', '=', scene)
        .where('c.target_id', '=', targetId)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    async list(appkey, ownerId, limit) {
      later?.flush();
      const rows = await withHead(db)
        .where('c.appkey', '=', appkey)
        .where('c.owner_id', '=', ownerId)
        .where('c.removed', '=', 0)
        // IM-9, IM-16: a group is listed to its members only; its last message and unread count would otherwise show
        // someone who left what was said after.
        .where(ownerMayRead)
        .orderBy('c.top', 'desc')
        .orderBy('last_ts', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toRecord);
    },
    async joined({ appkey, ownerId, groups }) {
      if (groups.length === 0) return [];
      later?.flush();
      const convKeys = groups.map((g) => g.convKey);
      const heads = await db
        .selectFrom('im_conversation_heads')
        .select(['conv_key', 'last_ts'])
        .where('appkey', '=', appkey)
        .where('conv_key', 'in', convKeys)
        .execute();
      if (heads.length === 0) return [];
      const had = await db
        .selectFrom('im_conversations')
        .select('conv_key')
        .where('appkey', '=', appkey)
        .where('owner_id', '=', ownerId)
        .where('conv_key', 'in', convKeys)
        .execute();
      const old = new Set(had.map((r) => r.conv_key));
      const lastTs = new Map(heads.map((h) => [h.conv_key, Number(h.last_ts)]));
      const created = groups.flatMap(({ groupId, convKey }) => {
        const ts = lastTs.get(convKey);
        return ts === undefined || old.has(convKey) ? [] : [{ groupId, convKey, lastTs: ts }];
      });
      if (created.length === 0) return [];
      await db
        .insertInto('im_conversations')
        .values(
          created.map((g) => ({
            appkey,
            owner_id: ownerId,
            scene: 'group',
            target_id: g.groupId,
            conv_key: g.convKey,
            top: 0,
            removed: 0,
            data: '{}',
            last_ts: g.lastTs,
          })),
        )
        .onConflict((oc) => oc.columns(['appkey', 'owner_id', 'scene', 'target_id']).doNothing())
        .execute();
      return created;
    },
    async setTop({ appkey, ownerId, scene, targetId, top }) {
      const result = await db
        .updateTable('im_conversations')
        .set({ top: top ? 1 : 0 })
        .where('appkey', '=', appkey)
        .where('owner_id', '=', ownerId)
        .where('scene', '=', scene)
        .where('target_id', '=', targetId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async remove({ appkey, ownerId, scene, targetId }) {
      // Before and after: a message stored while the update runs may have marked the row shown again.
      const forget = () =>
        scene === 'group' ? shown?.forget(appkey, ownerId, targetId) : privateRows?.forget(appkey, ownerId, targetId);
      forget();
      // IM-18: removing also unpins, so a conversation that comes back comes back unpinned, as the SDK shows it.
      const result = await db
        .updateTable('im_conversations')
        .set({ removed: 1, top: 0 })
        .where('appkey', '=', appkey)
        .where('owner_id', '=', ownerId)
        .where('scene', '=', scene)
        .where('target_id', '=', targetId)
        .executeTakeFirst();
      forget();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

function toRecord(row: ImConversationsTable): ConversationRecord {
  return {
    ownerId: row.owner_id,
    scene: row.scene,
    targetId: row.target_id,
    convKey: row.conv_key,
    top: Number(row.top) === 1,
    removed: Number(row.removed) === 1,
    data: row.data,
    lastTs: Number(row.last_ts),
  };
}
