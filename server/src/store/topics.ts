import { sql, type Kysely, type QueryExecutorProvider } from 'kysely';
import type { Database } from './schema.js';

/** A topic of the circle, as the operator set it up. */
export interface TopicRecord {
  id: string;
  title: string;
  /** A line on what it is about; may be empty. */
  intro: string;
  /** The URL of its picture; may be empty. */
  img: string;
  createdAt: number;
}

/** A topic with how many posts it holds (not deleted, of open accounts). */
export interface TopicWithCount extends TopicRecord {
  posts: number;
}

/** What adding or changing came to: done, another topic has that title, or there are `max` topics already. */
export type TopicOutcome = 'ok' | 'title_taken' | 'limit';

/** The operator's topics of the circle. */
export interface TopicStore {
  /** Every topic not removed, with its posts, the most posts first, then the newest. */
  all(): Promise<TopicWithCount[]>;
  /** A topic not removed; undefined otherwise. */
  byId(id: string): Promise<TopicRecord | undefined>;
  /** The titles of those of `ids` that are topics not removed. */
  titles(ids: readonly string[]): Promise<Map<string, string>>;
  /** Adds a topic unless its title is taken or there are `max`; the check and the write are one step. */
  add(record: TopicRecord, max: number): Promise<TopicOutcome>;
  /** Changes a topic: undefined when there is no topic `id` (or it was removed). */
  update(
    id: string,
    changes: { title?: string | undefined; intro?: string | undefined; img?: string | undefined },
  ): Promise<TopicOutcome | undefined>;
  /** Removes a topic: its posts stay, in no topic; a link to it says it was deleted. False when none. */
  remove(id: string, now: number): Promise<boolean>;
}

type TopicTables = {
  circle_topics: {
    id: string;
    title: string;
    intro: string;
    img: string;
    created_at: number;
    deleted_at: number | null;
  };
  circle_posts: { topic_id: string | null; member_id: string; deleted_at: number | null };
  members: { id: string; cancelled_at: number | null };
};

/** Holds the topics until `trx` ends so that a title is checked and written in one step (as channels do). */
async function holdTopics(trx: QueryExecutorProvider, dialect: 'sqlite' | 'postgres'): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('circle_topics'))`.execute(trx);
}

const recordOf = (row: Omit<TopicTables['circle_topics'], 'deleted_at'>): TopicRecord => ({
  id: row.id,
  title: row.title,
  intro: row.intro,
  img: row.img,
  createdAt: Number(row.created_at),
});

/** The Kysely implementation of {@link TopicStore}. */
export function createTopicStore(base: Kysely<Database>, dialect: 'sqlite' | 'postgres'): TopicStore {
  const db = base.withTables<TopicTables>();
  const open = () =>
    db
      .selectFrom('circle_topics')
      .select(['id', 'title', 'intro', 'img', 'created_at'])
      .where('deleted_at', 'is', null);
  return {
    async all() {
      const [topics, counts] = await Promise.all([
        open().execute(),
        db
          .selectFrom('circle_posts')
          .innerJoin('members', 'members.id', 'circle_posts.member_id')
          .select('circle_posts.topic_id')
          .select((eb) => eb.fn.countAll<string | number>().as('count'))
          .where('circle_posts.topic_id', 'is not', null)
          .where('circle_posts.deleted_at', 'is', null)
          .where('members.cancelled_at', 'is', null)
          .groupBy('circle_posts.topic_id')
          .execute(),
      ]);
      const posts = new Map(counts.map((row) => [row.topic_id, Number(row.count)]));
      return topics
        .map((row) => ({ ...recordOf(row), posts: posts.get(row.id) ?? 0 }))
        .sort((a, b) => b.posts - a.posts || b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
    },
    async byId(id) {
      const row = await open().where('id', '=', id).executeTakeFirst();
      return row && recordOf(row);
    },
    async titles(ids) {
      if (ids.length === 0) return new Map();
      const rows = await open()
        .where('id', 'in', [...new Set(ids)])
        .execute();
      return new Map(rows.map((row) => [row.id, row.title]));
    },
    async add(record, max) {
      return db.transaction().execute(async (trx) => {
        await holdTopics(trx, dialect);
        const taken = await trx
          .selectFrom('circle_topics')
          .select('id')
          .where('title', '=', record.title)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (taken) return 'title_taken';
        const { count } = await trx
          .selectFrom('circle_topics')
          .select((eb) => eb.fn.countAll<string | number>().as('count'))
          .where('deleted_at', 'is', null)
          .executeTakeFirstOrThrow();
        if (Number(count) >= max) return 'limit';
        await trx
          .insertInto('circle_topics')
          .values({
            id: record.id,
            title: record.title,
            intro: record.intro,
            img: record.img,
            created_at: record.createdAt,
            deleted_at: null,
          })
          .execute();
        return 'ok';
      });
    },
    async update(id, { title, intro, img }) {
      return db.transaction().execute(async (trx) => {
        await holdTopics(trx, dialect);
        const found = await trx
          .selectFrom('circle_topics')
          .select('id')
          .where('id', '=', id)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (!found) return undefined;
        if (title !== undefined) {
          const taken = await trx
            .selectFrom('circle_topics')
            .select('id')
            .where('title', '=', title)
            .where('deleted_at', 'is', null)
            .where('id', '!=', id)
            .executeTakeFirst();
          if (taken) return 'title_taken';
        }
        const set = {
          ...(title !== undefined ? { title } : {}),
          ...(intro !== undefined ? { intro } : {}),
          ...(img !== undefined ? { img } : {}),
        };
        if (Object.keys(set).length > 0) await trx.updateTable('circle_topics').set(set).where('id', '=', id).execute();
        return 'ok';
      });
    },
    async remove(id, now) {
      const result = await db
        .updateTable('circle_topics')
        .set({ deleted_at: now })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}
