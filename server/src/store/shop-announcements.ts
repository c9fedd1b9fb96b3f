import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database } from './schema.js';

/** An announcement of the operator to sellers. */
export interface AnnouncementRecord {
  id: string;
  title: string;
  /** Plain text; new lines part its paragraphs. */
  content: string;
  /** Listed before every announcement not pinned. */
  pinned: boolean;
  createdAt: number;
  updatedAt: number;
}

/** An announcement as a member sees it in their list: whether they have read it. */
export type MemberAnnouncement = AnnouncementRecord & { read: boolean };

/** The operator's announcements to sellers and which of them each member has read. */
export interface AnnouncementStore {
  /** Adds an announcement. */
  add(record: AnnouncementRecord): Promise<void>;
  /** Announcement `id`; undefined when there is none (or it was removed). */
  byId(id: string): Promise<AnnouncementRecord | undefined>;
  /** Changes announcement `id`, its `updatedAt` to `now`: the announcement as it is then, undefined when none. */
  update(
    id: string,
    changes: { title?: string | undefined; content?: string | undefined; pinned?: boolean | undefined; now: number },
  ): Promise<AnnouncementRecord | undefined>;
  /** Removes announcement `id` and every member's read of it; false when there was none. */
  remove(id: string): Promise<boolean>;
  /**
   * Announcements pinned first, then the newest first, at most `limit`; with `after` (an announcement), only those
   * after it in that order. Undefined when `after` is not an announcement.
   */
  list(options: { after?: string | undefined; limit: number }): Promise<AnnouncementRecord[] | undefined>;
  /** The same list as {@link list}, each telling whether `memberId` has read it. */
  listFor(
    memberId: string,
    options: { after?: string | undefined; limit: number },
  ): Promise<MemberAnnouncement[] | undefined>;
  /** How many announcements `memberId` has not read. */
  unread(memberId: string): Promise<number>;
  /** Marks announcement `id` read by `memberId` at `now`, if not already (the first read's time stays). */
  markRead(memberId: string, id: string, now: number): Promise<void>;
}

type AnnouncementTables = {
  shop_announcements: {
    id: string;
    title: string;
    content: string;
    pinned: number;
    created_at: number;
    updated_at: number;
  };
  shop_announcement_reads: { member_id: string; announcement_id: string; read_at: number };
};

type AnnouncementRow = AnnouncementTables['shop_announcements'];

const recordOf = (row: AnnouncementRow): AnnouncementRecord => ({
  id: row.id,
  title: row.title,
  content: row.content,
  pinned: Number(row.pinned) === 1,
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

/**
 * The condition for the rows after `last` in the list's order (pinned first, then the newest, then the highest id).
 * True for every row without `last`.
 */
function after(last: AnnouncementRow | undefined): Expression<SqlBool> {
  if (!last) return sql<SqlBool>`1 = 1`;
  const pinned = sql.ref('shop_announcements.pinned');
  const time = sql.ref('shop_announcements.created_at');
  const id = sql.ref('shop_announcements.id');
  return sql<SqlBool>`(${pinned} < ${last.pinned} or (${pinned} = ${last.pinned} and (${time} < ${last.created_at}
    or (${time} = ${last.created_at} and ${id} < ${last.id}))))`;
}

/** The Kysely implementation of {@link AnnouncementStore}. */
export function createAnnouncementStore(base: Kysely<Database>): AnnouncementStore {
  const db = base.withTables<AnnouncementTables>();
  const row = (id: string) => db.selectFrom('shop_announcements').selectAll().where('id', '=', id).executeTakeFirst();
  /** The list's query after `from`, or undefined when `from` is not an announcement. */
  const page = async (from: string | undefined, limit: number) => {
    const last = from === undefined ? undefined : await row(from);
    if (from !== undefined && !last) return undefined;
    return db
      .selectFrom('shop_announcements')
      .selectAll('shop_announcements')
      .where(after(last))
      .orderBy('shop_announcements.pinned', 'desc')
      .orderBy('shop_announcements.created_at', 'desc')
      .orderBy('shop_announcements.id', 'desc')
      .limit(limit);
  };
  return {
    async add(record) {
      await db
        .insertInto('shop_announcements')
        .values({
          id: record.id,
          title: record.title,
          content: record.content,
          pinned: record.pinned ? 1 : 0,
          created_at: record.createdAt,
          updated_at: record.updatedAt,
        })
        .execute();
    },
    async byId(id) {
      const found = await row(id);
      return found && recordOf(found);
    },
    async update(id, { title, content, pinned, now }) {
      const set = {
        ...(title !== undefined && { title }),
        ...(content !== undefined && { content }),
        ...(pinned !== undefined && { pinned: pinned ? 1 : 0 }),
        updated_at: now,
      };
      const result = await db.updateTable('shop_announcements').set(set).where('id', '=', id).executeTakeFirst();
      if (result.numUpdatedRows === 0n) return undefined;
      const found = await row(id);
      return found && recordOf(found);
    },
    async remove(id) {
      return db.transaction().execute(async (trx) => {
        await trx.deleteFrom('shop_announcement_reads').where('announcement_id', '=', id).execute();
        const result = await trx.deleteFrom('shop_announcements').where('id', '=', id).executeTakeFirst();
        return result.numDeletedRows > 0n;
      });
    },
    async list({ after: from, limit }) {
      const query = await page(from, limit);
      return query && (await query.execute()).map(recordOf);
    },
    async listFor(memberId, { after: from, limit }) {
      const query = await page(from, limit);
      if (!query) return undefined;
      const rows = await query
        .leftJoin('shop_announcement_reads as reads', (join) =>
          join.onRef('reads.announcement_id', '=', 'shop_announcements.id').on('reads.member_id', '=', memberId),
        )
        .select('reads.read_at')
        .execute();
      return rows.map(({ read_at, ...announcement }) => ({ ...recordOf(announcement), read: read_at !== null }));
    },
    async unread(memberId) {
      const { count } = await db
        .selectFrom('shop_announcements')
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('shop_announcement_reads')
                .select('shop_announcement_reads.announcement_id')
                .whereRef('shop_announcement_reads.announcement_id', '=', 'shop_announcements.id')
                .where('shop_announcement_reads.member_id', '=', memberId),
            ),
          ),
        )
        .executeTakeFirstOrThrow();
      return Number(count);
    },
    async markRead(memberId, id, now) {
      await db
        .insertInto('shop_announcement_reads')
        .values({ member_id: memberId, announcement_id: id, read_at: now })
        .onConflict((oc) => oc.columns(['member_id', 'announcement_id']).doNothing())
        .execute();
    },
  };
}
