import type { Kysely } from 'kysely';
import { containsAny } from './contains.js';
import { notBlockedWith } from './blocked.js';
import { notHiddenBy } from './hidden.js';
import { keysetOf, olderThan } from './keyset.js';
import { insertCounted } from './member-lock.js';
import type { Database } from './schema.js';

/** A member's article. */
export interface ArticleRecord {
  id: string;
  memberId: string;
  title: string;
  content: string;
  /** URLs of the images the author uploaded, in their order. */
  images: string[];
  /** The channel it was filed under; null for none (or one since removed, which the channels no longer list). */
  channelId: string | null;
  createdAt: number;
  /** Present for a video: the video and its cover, both the author's uploads. */
  video?: ArticleVideo;
}

/** The video of a video article: its URL and its cover image's. */
export interface ArticleVideo {
  url: string;
  cover: string;
}

/** What publishing came to: stored, or refused (the author published `max` already, or is gone). */
export type PublishOutcome = 'ok' | 'limit' | 'missing';

/** Members' articles. */
export interface ArticleStore {
  /**
   * Stores an article unless its author published `quota.max` or more since `quota.since` (`limit`), or is gone or
   * cancelled (`missing`). One transaction that holds the author's row, so that articles sent at once are counted.
   */
  add(record: ArticleRecord, quota: { since: number; max: number }): Promise<PublishOutcome>;
  /** An article that is not deleted, by a member whose account is open; undefined otherwise. */
  byId(id: string): Promise<ArticleRecord | undefined>;
  /**
   * Plain articles (or with `videos`, videos) newest first, at most `limit`: all, or `authorId`'s, or those of
   * `channelId`; with `before` (an id listed), only older ones.
   * Deleted ones, and those of cancelled members and of members one of whom has blocked `viewerId`, are left out, and
   * but for `authorId`'s list those `viewerId` hid. Undefined when `before` is no article.
   */
  list(params: {
    viewerId?: string | undefined;
    authorId?: string | undefined;
    /** True to list videos; otherwise plain articles. */
    videos?: boolean | undefined;
    /** Only those filed under this channel. */
    channelId?: string | undefined;
    /** Only articles whose title or text holds it, in any case. */
    keyword?: string | undefined;
    before?: string | undefined;
    limit: number;
  }): Promise<ArticleRecord[] | undefined>;
  /** Collects (`on`) or uncollects an article for a member; true when that changed anything. */
  collect(memberId: string, articleId: string, on: boolean, now: number): Promise<boolean>;
  /** Which of `articleIds` the member collected. */
  collected(memberId: string, articleIds: readonly string[]): Promise<Set<string>>;
  /**
   * The articles a member collected, the latest collected first, at most `limit`; with `before` (an article of their
   * collection), only those collected before it. Articles the list would leave out (deleted, of a cancelled member,
   * across a block) are left out. Undefined when `before` is not in their collection.
   */
  collection(
    memberId: string,
    options: { before?: string | undefined; limit: number },
  ): Promise<ArticleRecord[] | undefined>;
  /** Deletes member `memberId`'s article `id`: false when there is no such article of theirs. */
  remove(memberId: string, id: string, now: number): Promise<boolean>;
}

type ArticleTables = {
  articles: {
    id: string;
    member_id: string;
    title: string;
    content: string;
    images: string;
    channel_id: string | null;
    created_at: number;
    deleted_at: number | null;
    video_url: string;
    video_cover: string;
    is_video: number;
  };
  members: { id: string; cancelled_at: number | null };
  article_collections: { member_id: string; article_id: string; created_at: number };
};

const recordOf = (row: Omit<ArticleTables['articles'], 'deleted_at' | 'is_video'>): ArticleRecord => ({
  id: row.id,
  memberId: row.member_id,
  title: row.title,
  content: row.content,
  images: JSON.parse(row.images) as string[],
  channelId: row.channel_id,
  createdAt: Number(row.created_at),
  ...(row.video_url !== '' && { video: { url: row.video_url, cover: row.video_cover } }),
});

const COLUMNS = [
  'articles.id',
  'articles.member_id',
  'articles.title',
  'articles.content',
  'articles.images',
  'articles.channel_id',
  'articles.created_at',
  'articles.video_url',
  'articles.video_cover',
] as const;

/** The Kysely implementation of {@link ArticleStore}. */
export function createArticleStore(base: Kysely<Database>, dialect: 'sqlite' | 'postgres'): ArticleStore {
  const db = base.withTables<ArticleTables>();
  const shown = () =>
    db
      .selectFrom('articles')
      .innerJoin('members', 'members.id', 'articles.member_id')
      .select(COLUMNS)
      .where('articles.deleted_at', 'is', null)
      .where('members.cancelled_at', 'is', null);
  return {
    async add(record, { since, max }) {
      return insertCounted(db, dialect, {
        table: 'articles',
        memberId: record.memberId,
        since,
        max,
        insert: (trx) =>
          trx
            .insertInto('articles')
            .values({
              id: record.id,
              member_id: record.memberId,
              title: record.title,
              content: record.content,
              images: JSON.stringify(record.images),
              channel_id: record.channelId,
              created_at: record.createdAt,
              deleted_at: null,
              video_url: record.video?.url ?? '',
              video_cover: record.video?.cover ?? '',
              is_video: record.video ? 1 : 0,
            })
            .execute(),
      });
    },
    async byId(id) {
      const row = await shown().where('articles.id', '=', id).executeTakeFirst();
      return row && recordOf(row);
    },
    async list({ viewerId, authorId, videos, channelId, keyword, before, limit }) {
      const cursor = await keysetOf(db, 'articles', before);
      if (cursor === 'missing') return undefined;
      const rows = await shown()
        .where('articles.is_video', '=', videos === true ? 1 : 0)
        .$if(authorId !== undefined, (q) => q.where('articles.member_id', '=', authorId as string))
        .$if(channelId !== undefined, (q) => q.where('articles.channel_id', '=', channelId as string))
        .$if(keyword !== undefined, (q) =>
          q.where(containsAny('articles', ['title', 'content'], keyword as string, dialect)),
        )
        .$if(viewerId !== undefined, (q) => q.where(notBlockedWith(viewerId as string, 'articles.member_id')))
        // What the viewer hid leaves the feeds, not the author's own list.
        .$if(viewerId !== undefined && authorId === undefined, (q) =>
          q.where(notHiddenBy(viewerId as string, 'article', 'articles.id')),
        )
        .where(olderThan(cursor, { time: 'articles.created_at', id: 'articles.id' }))
        .orderBy('articles.created_at', 'desc')
        .orderBy('articles.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(recordOf);
    },
    async collect(memberId, articleId, on, now) {
      if (!on) {
        const result = await db
          .deleteFrom('article_collections')
          .where('member_id', '=', memberId)
          .where('article_id', '=', articleId)
          .executeTakeFirst();
        return result.numDeletedRows > 0n;
      }
      const result = await db
        .insertInto('article_collections')
        .values({ member_id: memberId, article_id: articleId, created_at: now })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async collected(memberId, articleIds) {
      if (articleIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('article_collections')
        .select('article_id')
        .where('member_id', '=', memberId)
        .where('article_id', 'in', articleIds)
        .execute();
      return new Set(rows.map((row) => row.article_id));
    },
    async collection(memberId, { before, limit }) {
      let cursor: { at: number; id: string } | undefined;
      if (before !== undefined) {
        const found = await db
          .selectFrom('article_collections')
          .select(['created_at', 'article_id'])
          .where('member_id', '=', memberId)
          .where('article_id', '=', before)
          .executeTakeFirst();
        if (!found) return undefined;
        cursor = { at: Number(found.created_at), id: found.article_id };
      }
      const rows = await shown()
        .innerJoin('article_collections', 'article_collections.article_id', 'articles.id')
        .where('article_collections.member_id', '=', memberId)
        .where(notBlockedWith(memberId, 'articles.member_id'))
        .where(olderThan(cursor, { time: 'article_collections.created_at', id: 'article_collections.article_id' }))
        .orderBy('article_collections.created_at', 'desc')
        .orderBy('article_collections.article_id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(recordOf);
    },
    async remove(memberId, id, now) {
      const result = await db
        .updateTable('articles')
        .set({ deleted_at: now })
        .where('id', '=', id)
        .where('member_id', '=', memberId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}
