import { sql, type Kysely } from 'kysely';
import type { Database, ImConversationsTable } from './schema.js';

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
}

/** Rows per insert statement: 9 parameters each stays far below SQLite's parameter limit. */
const CHUNK = 500;

/** The Kysely implementation of {@link ConversationStore}. */
export function createConversationStore(db: Kysely<Database>): ConversationStore {
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
      await upsert(rows.filter((r) => r.data !== null).map(toRow), true);
      await upsert(rows.filter((r) => r.data === null).map(toRow), false);
    },
    async find({ appkey, ownerId, scene, targetId }) {
      const row = await db
        .selectFrom('im_conversations')
        .selectAll()
        .where('appkey', '=', appkey)
        .where('owner_id', '=', ownerId)
        .where('scene', '=', scene)
        .where('target_id', '=', targetId)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    async list(appkey, ownerId, limit) {
      const rows = await db
        .selectFrom('im_conversations')
        .selectAll()
        .where('appkey', '=', appkey)
        .where('owner_id', '=', ownerId)
        .where('removed', '=', 0)
        .orderBy('top', 'desc')
        .orderBy('last_ts', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toRecord);
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
      const result = await db
        .updateTable('im_conversations')
        .set({ removed: 1 })
        .where('appkey', '=', appkey)
        .where('owner_id', '=', ownerId)
        .where('scene', '=', scene)
        .where('target_id', '=', targetId)
        .executeTakeFirst();
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
