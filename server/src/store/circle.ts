import type { Kysely } from 'kysely';
import { containsAny } from './contains.js';
import { notBlockedWith } from './blocked.js';
import { notHiddenBy } from './hidden.js';
import { keysetOf, olderThan } from './keyset.js';
import { insertCounted } from './member-lock.js';
import type { Database } from './schema.js';
import type { PublishOutcome } from './articles.js';

/** A vote of a circle post: its options in order, and when it ends. */
export interface CircleVote {
  options: string[];
  endsAt: number;
}

/** A member's circle post: the text with images, or with a video, or with a vote (never two of them). */
export interface CirclePostRecord {
  id: string;
  memberId: string;
  /** The title; empty for a post written before posts had one (migration 0054). */
  title: string;
  content: string;
  /** URLs of the images the author uploaded, in their order. */
  images: string[];
  vote: CircleVote | null;
  /** The video the author uploaded and its cover; null for none. */
  video: { url: string; cover: string } | null;
  /** The topic it was posted under; null for none (or one since removed, which the topics no longer list). */
  topicId: string | null;
  createdAt: number;
}

/** How a post's vote stands: the votes of each option, in order, and the viewer's option, if they voted. */
export interface VoteTally {
  counts: number[];
  mine: number | null;
}

/** What casting a vote came to: counted, or refused (the member voted on the post already, or the vote ended). */
export type VoteOutcome = 'ok' | 'voted' | 'ended';

/** Members' circle posts and the votes cast on them. */
export interface CircleStore {
  /**
   * Stores a post unless its author published `quota.max` or more since `quota.since` (`limit`), or is gone or
   * cancelled (`missing`); one transaction that holds the author's row.
   */
  add(record: CirclePostRecord, quota: { since: number; max: number }): Promise<PublishOutcome>;
  /** A post that is not deleted, by a member whose account is open; undefined otherwise. */
  byId(id: string): Promise<CirclePostRecord | undefined>;
  /**
   * Posts newest first, at most `limit`: all, or `authorId`'s, or those of `topicId`; with `before` (an id listed), only older ones. Deleted
   * ones, and those of cancelled members and across a block with `viewerId`, are left out, and but for `authorId`'s
   * list those `viewerId` hid. Undefined when `before` is no post.
   */
  list(params: {
    viewerId?: string | undefined;
    authorId?: string | undefined;
    /** Only those posted under this topic. */
    topicId?: string | undefined;
    /** Only those whose title or text holds these words, in any case. */
    keyword?: string | undefined;
    before?: string | undefined;
    limit: number;
  }): Promise<CirclePostRecord[] | undefined>;
  /** Deletes member `memberId`'s post `id`: false when there is no such post of theirs. */
  remove(memberId: string, id: string, now: number): Promise<boolean>;
  /** Casts the member's vote for `option` of post `postId`, once per member and post, before `endsAt`. */
  vote(postId: string, memberId: string, option: number, params: { now: number; endsAt: number }): Promise<VoteOutcome>;
  /** How the votes of `posts` (`optionCount` options each) stand, with `viewerId`'s own. */
  tallies(
    posts: ReadonlyArray<{ id: string; optionCount: number }>,
    viewerId: string | undefined,
  ): Promise<Map<string, VoteTally>>;
}

type CircleTables = {
  circle_posts: {
    id: string;
    member_id: string;
    title: string;
    content: string;
    images: string;
    vote_options: string | null;
    vote_ends_at: number | null;
    topic_id: string | null;
    video_url: string;
    video_cover: string;
    created_at: number;
    deleted_at: number | null;
  };
  circle_votes: { post_id: string; member_id: string; option: number; created_at: number };
  members: { id: string; cancelled_at: number | null };
};

const COLUMNS = [
  'circle_posts.id',
  'circle_posts.member_id',
  'circle_posts.title',
  'circle_posts.content',
  'circle_posts.images',
  'circle_posts.vote_options',
  'circle_posts.vote_ends_at',
  'circle_posts.topic_id',
  'circle_posts.video_url',
  'circle_posts.video_cover',
  'circle_posts.created_at',
] as const;

const recordOf = (row: Omit<CircleTables['circle_posts'], 'deleted_at'>): CirclePostRecord => ({
  id: row.id,
  memberId: row.member_id,
  title: row.title,
  content: row.content,
  images: JSON.parse(row.images) as string[],
  vote:
    row.vote_options === null
      ? null
      : { options: JSON.parse(row.vote_options) as string[], endsAt: Number(row.vote_ends_at) },
  video: row.video_url === '' ? null : { url: row.video_url, cover: row.video_cover },
  topicId: row.topic_id,
  createdAt: Number(row.created_at),
});

/** The Kysely implementation of {@link CircleStore}. */
export function createCircleStore(base: Kysely<Database>, dialect: 'sqlite' | 'postgres'): CircleStore {
  const db = base.withTables<CircleTables>();
  const shown = () =>
    db
      .selectFrom('circle_posts')
      .innerJoin('members', 'members.id', 'circle_posts.member_id')
      .select(COLUMNS)
      .where('circle_posts.deleted_at', 'is', null)
      .where('members.cancelled_at', 'is', null);
  return {
    async add(record, { since, max }) {
      return insertCounted(db, dialect, {
        table: 'circle_posts',
        memberId: record.memberId,
        since,
        max,
        insert: (trx) =>
          trx
            .insertInto('circle_posts')
            .values({
              id: record.id,
              member_id: record.memberId,
              title: record.title,
              content: record.content,
              images: JSON.stringify(record.images),
              vote_options: record.vote ? JSON.stringify(record.vote.options) : null,
              vote_ends_at: record.vote ? record.vote.endsAt : null,
              topic_id: record.topicId,
              video_url: record.video?.url ?? '',
              video_cover: record.video?.cover ?? '',
              created_at: record.createdAt,
              deleted_at: null,
            })
            .execute(),
      });
    },
    async byId(id) {
      const row = await shown().where('circle_posts.id', '=', id).executeTakeFirst();
      return row && recordOf(row);
    },
    async list({ viewerId, authorId, topicId, keyword, before, limit }) {
      const cursor = await keysetOf(db, 'circle_posts', before);
      if (cursor === 'missing') return undefined;
      const rows = await shown()
        .$if(authorId !== undefined, (q) => q.where('circle_posts.member_id', '=', authorId as string))
        .$if(topicId !== undefined, (q) => q.where('circle_posts.topic_id', '=', topicId as string))
        .$if(keyword !== undefined, (q) =>
          q.where(containsAny('circle_posts', ['title', 'content'], keyword as string, dialect)),
        )
        .$if(viewerId !== undefined, (q) => q.where(notBlockedWith(viewerId as string, 'circle_posts.member_id')))
        // What the viewer hid leaves the circle and the topics, not the author's own list.
        .$if(viewerId !== undefined && authorId === undefined, (q) =>
          q.where(notHiddenBy(viewerId as string, 'quanzi', 'circle_posts.id')),
        )
        .where(olderThan(cursor, { time: 'circle_posts.created_at', id: 'circle_posts.id' }))
        .orderBy('circle_posts.created_at', 'desc')
        .orderBy('circle_posts.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(recordOf);
    },
    async remove(memberId, id, now) {
      const result = await db
        .updateTable('circle_posts')
        .set({ deleted_at: now })
        .where('id', '=', id)
        .where('member_id', '=', memberId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async vote(postId, memberId, option, { now, endsAt }) {
      if (now >= endsAt) return 'ended';
      const result = await db
        .insertInto('circle_votes')
        .values({ post_id: postId, member_id: memberId, option, created_at: now })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0 ? 'ok' : 'voted';
    },
    async tallies(posts, viewerId) {
      const tallies = new Map(
        posts.map((post) => [
          post.id,
          { counts: new Array<number>(post.optionCount).fill(0), mine: null as number | null },
        ]),
      );
      if (posts.length === 0) return tallies;
      const ids = posts.map((post) => post.id);
      const [counts, mine] = await Promise.all([
        db
          .selectFrom('circle_votes')
          .select(['post_id', 'option'])
          .select((eb) => eb.fn.countAll<string | number>().as('count'))
          .where('post_id', 'in', ids)
          .groupBy(['post_id', 'option'])
          .execute(),
        viewerId === undefined
          ? []
          : db
              .selectFrom('circle_votes')
              .select(['post_id', 'option'])
              .where('post_id', 'in', ids)
              .where('member_id', '=', viewerId)
              .execute(),
      ]);
      for (const row of counts) {
        const tally = tallies.get(row.post_id);
        const option = Number(row.option);
        if (tally && option >= 0 && option < tally.counts.length) tally.counts[option] = Number(row.count);
      }
      for (const row of mine) {
        const tally = tallies.get(row.post_id);
        if (tally) tally.mine = Number(row.option);
      }
      return tallies;
    },
  };
}
