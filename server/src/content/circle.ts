import { randomBytes } from 'node:crypto';
import { ARTICLE_LIMITS, searchWords } from './articles.js';
import { lineStart, writtenText, writtenTitle } from './text.js';
import type { CirclePostRecord, CircleStore, VoteTally } from '../store/index.js';
import { isRowKey, type MemberFailure, type MemberResult } from '../members/service.js';

const fail = <T>(failure: MemberFailure): MemberResult<T> => ({ ok: false, failure });

/**
 * Bounds of circle posts (docs/limits.md; spec §5 "Images, video and vote are mutually exclusive in a post"; §5, §9
 * "Post title 5 to 30 characters", the rule an article's title follows too).
 */
export const CIRCLE_LIMITS = {
  /** The title: this many characters (Unicode code points) after trimming, from... */
  titleMin: ARTICLE_LIMITS.titleMin,
  /** ...to. */
  titleMax: ARTICLE_LIMITS.titleMax,
  /** The text: 1 to this many characters (Unicode code points) after trimming. */
  contentMax: 2000,
  /** Images the author uploaded, at most. */
  imagesMax: 9,
  /** A vote's options: from... */
  optionsMin: 2,
  /** ...to. */
  optionsMax: 10,
  /** An option: 1 to this many characters after trimming. */
  optionMax: 20,
  /** How long a vote runs, in days: one of these. */
  voteDays: [1, 3, 7] as readonly number[],
  /** Posts a member publishes in {@link CIRCLE_LIMITS.windowMs}, at most. */
  maxPerWindow: 20,
  windowMs: 86_400_000,
  /** A page of the circle. */
  pageSize: 20,
} as const;

/** A post as written, the images already checked as the author's own uploads. */
export interface CirclePostInput {
  title: unknown;
  content: unknown;
  images: readonly string[];
  /** `{options, days}`, or undefined for none. */
  vote: unknown;
  /**
   * The video and its cover, each already checked as the author's own upload (undefined when it is not one); the
   * whole undefined when the post has no video.
   */
  video?: { url: string | undefined; cover: string | undefined } | undefined;
  /** The topic it is posted under, already checked to exist; null for none. */
  topicId: string | null;
}

/** A post with how its vote stands for the viewer. */
export interface CirclePostView {
  post: CirclePostRecord;
  tally: VoteTally | undefined;
}

/**
 * Circle posts (spec §1 "circle posts (images, or a video, or a vote)", §2 pages/quanzi/index, member/add-quanzi; §5
 * "Images, video and vote are mutually exclusive in a post", "Blocked users cannot see each other's works"). No HTTP.
 */
export interface CircleService {
  /** Publishes a post of `memberId`: checked (the title first, then the text), then counted against the daily most. */
  publish(memberId: string, input: CirclePostInput): Promise<MemberResult<CirclePostView>>;
  /** A page of the circle, or of `authorId`'s posts, newest first, as `viewerId` may see it, with their votes. */
  list(params: {
    viewerId?: string | undefined;
    authorId?: unknown;
    /** Only those of this topic, already checked to exist. */
    topicId?: string | undefined;
    /** Only those whose title or text holds it: at most {@link ARTICLE_LIMITS.keywordMax} characters, trimmed. */
    keyword?: unknown;
    before?: unknown;
  }): Promise<MemberResult<CirclePostView[]>>;
  /** Post `id` as `viewerId` may see it: `post_missing` when it is not one, is deleted, or is across a block. */
  view(id: unknown, viewerId: string | undefined): Promise<MemberResult<CirclePostRecord>>;
  /** Post `id` as {@link CircleService.view} finds it, with how its vote stands for `viewerId`. */
  show(id: unknown, viewerId: string | undefined): Promise<MemberResult<CirclePostView>>;
  /** Casts the member's vote for `option` (from 0) of post `id`: once, while the vote runs. */
  vote(memberId: string, id: unknown, option: unknown): Promise<MemberResult<CirclePostView>>;
  /** Deletes the member's own post `id`. */
  remove(memberId: string, id: unknown): Promise<MemberResult<void>>;
}

/** A vote as asked for: 2 to 10 distinct options of 1 to 20 characters, and 1, 3 or 7 days; undefined if not. */
function voteOf(value: unknown): { options: string[]; days: number } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { options, days } = value as Record<string, unknown>;
  if (typeof days !== 'number' || !CIRCLE_LIMITS.voteDays.includes(days)) return undefined;
  if (!Array.isArray(options)) return undefined;
  if (options.length < CIRCLE_LIMITS.optionsMin || options.length > CIRCLE_LIMITS.optionsMax) return undefined;
  const texts: string[] = [];
  for (const option of options as unknown[]) {
    if (typeof option !== 'string') return undefined;
    const text = option.trim();
    const length = [...text].length;
    if (length === 0 || length > CIRCLE_LIMITS.optionMax || /\p{Cc}/u.test(text)) return undefined;
    texts.push(text);
  }
  return new Set(texts).size === texts.length ? { options: texts, days } : undefined;
}

/** Creates the circle service over the store; `blocked` tells whether a block stands between two members. */
export function createCircleService(deps: {
  circle: CircleStore;
  blocked: (a: string, b: string) => Promise<boolean>;
  now: () => number;
}): CircleService {
  const { circle } = deps;
  const withTallies = async (posts: CirclePostRecord[], viewerId: string | undefined) => {
    const voting = posts.flatMap((post) => (post.vote ? [{ id: post.id, optionCount: post.vote.options.length }] : []));
    const tallies = await circle.tallies(voting, viewerId);
    return posts.map((post) => ({ post, tally: tallies.get(post.id) }));
  };
  const view = async (id: unknown, viewerId: string | undefined): Promise<MemberResult<CirclePostRecord>> => {
    if (!isRowKey(id) || id === undefined) return fail('post_missing');
    const post = await circle.byId(id);
    if (!post) return fail('post_missing');
    if (viewerId !== undefined && viewerId !== post.memberId && (await deps.blocked(viewerId, post.memberId))) {
      return fail('post_missing');
    }
    return { ok: true, value: post };
  };
  return {
    async publish(memberId, { title, content, images, vote, video, topicId }) {
      const heading = writtenTitle(title, { min: CIRCLE_LIMITS.titleMin, max: CIRCLE_LIMITS.titleMax });
      if (!heading.ok) return fail(heading.problem === 'short' ? 'post_title_short' : 'post_title_long');
      const text = writtenText(content, CIRCLE_LIMITS.contentMax, { tabs: true });
      if (text === undefined) return fail('post_content_invalid');
      if (images.length > CIRCLE_LIMITS.imagesMax || new Set(images).size !== images.length) {
        return fail('post_images_invalid');
      }
      const asked = vote === undefined || vote === null ? undefined : voteOf(vote);
      if (vote !== undefined && vote !== null && asked === undefined) return fail('vote_invalid');
      if ([asked !== undefined, images.length > 0, video !== undefined].filter(Boolean).length > 1) {
        return fail('post_media_exclusive');
      }
      if (video && video.url === undefined) return fail('video_invalid');
      if (video && video.cover === undefined) return fail('video_cover_missing');
      const now = deps.now();
      const record: CirclePostRecord = {
        id: randomBytes(8).toString('hex'),
        memberId,
        title: heading.title,
        content: text,
        images: [...images],
        vote: asked ? { options: asked.options, endsAt: now + asked.days * 86_400_000 } : null,
        video: video?.url !== undefined && video.cover !== undefined ? { url: video.url, cover: video.cover } : null,
        topicId,
        createdAt: now,
      };
      const outcome = await circle.add(record, {
        since: now - CIRCLE_LIMITS.windowMs,
        max: CIRCLE_LIMITS.maxPerWindow,
      });
      if (outcome === 'limit') return fail('post_limit');
      if (outcome === 'missing') return fail('user_missing');
      const [shown] = await withTallies([record], memberId);
      return { ok: true, value: shown as CirclePostView };
    },
    async list({ viewerId, authorId, topicId, keyword, before }) {
      if (!isRowKey(before)) return fail('bad_params');
      if (authorId !== undefined && (typeof authorId !== 'string' || authorId === '' || authorId.length > 64)) {
        return fail('bad_params');
      }
      const words = searchWords(keyword);
      if (words === false) return fail('bad_params');
      const page = await circle.list({
        viewerId,
        authorId,
        topicId,
        keyword: words,
        before,
        limit: CIRCLE_LIMITS.pageSize,
      });
      return page ? { ok: true, value: await withTallies(page, viewerId) } : fail('bad_params');
    },
    view,
    async show(id, viewerId) {
      const seen = await view(id, viewerId);
      if (!seen.ok) return seen;
      const [shown] = await withTallies([seen.value], viewerId);
      return { ok: true, value: shown as CirclePostView };
    },
    async vote(memberId, id, option) {
      const seen = await view(id, memberId);
      if (!seen.ok) return seen;
      const post = seen.value;
      if (!post.vote || !Number.isInteger(option) || (option as number) < 0) return fail('bad_params');
      if ((option as number) >= post.vote.options.length) return fail('bad_params');
      const outcome = await circle.vote(post.id, memberId, option as number, {
        now: deps.now(),
        endsAt: post.vote.endsAt,
      });
      if (outcome === 'ended') return fail('vote_ended');
      if (outcome === 'voted') return fail('vote_already');
      const [shown] = await withTallies([post], memberId);
      return { ok: true, value: shown as CirclePostView };
    },
    async remove(memberId, id) {
      if (!isRowKey(id) || id === undefined) return fail('post_missing');
      return (await circle.remove(memberId, id, deps.now())) ? { ok: true, value: undefined } : fail('post_missing');
    },
  };
}

/** A post without a title is named by the start of its text, at most this many characters. */
export const POST_TITLE_MAX = 30;

/**
 * What a post is named by (in a report, a notification): its title, or for one written before posts had titles, the
 * start of its text on one line, cut at {@link POST_TITLE_MAX} characters.
 */
export function postTitle(post: Pick<CirclePostRecord, 'title' | 'content'>): string {
  return post.title === '' ? lineStart(post.content, POST_TITLE_MAX) : post.title;
}
