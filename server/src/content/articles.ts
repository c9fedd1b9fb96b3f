import { randomBytes } from 'node:crypto';
import { writtenText, writtenTitle } from './text.js';
import type { ArticleRecord, ArticleStore } from '../store/index.js';
import { isRowKey, type MemberFailure, type MemberResult } from '../members/service.js';

const fail = <T>(failure: MemberFailure): MemberResult<T> => ({ ok: false, failure });

/** Bounds of articles (docs/limits.md; spec §5, §9: "Post title 5 to 30 characters"). */
export const ARTICLE_LIMITS = {
  /** The title: this many characters (Unicode code points) after trimming, from... */
  titleMin: 5,
  /** ...to. */
  titleMax: 30,
  /** The text: 1 to this many characters after trimming. */
  contentMax: 5000,
  /** Images the author uploaded, at most. */
  imagesMax: 9,
  /** A search keyword: at most this many characters after trimming. */
  keywordMax: 20,
  /** Articles a member publishes in {@link ARTICLE_LIMITS.windowMs}, at most, videos counted with them. */
  maxPerWindow: 20,
  windowMs: 86_400_000,
  /** A page of a feed. */
  pageSize: 20,
} as const;

/**
 * A search's words (`keyword`): trimmed, at most {@link ARTICLE_LIMITS.keywordMax} characters; undefined for none (left
 * out, or blank), false for anything else (not a string, too long).
 */
export function searchWords(keyword: unknown): string | undefined | false {
  if (keyword === undefined) return undefined;
  if (typeof keyword !== 'string') return false;
  const words = keyword.trim();
  if ([...words].length > ARTICLE_LIMITS.keywordMax) return false;
  return words === '' ? undefined : words;
}

/** An article as written, the images already checked as the author's own uploads. */
export interface ArticleInput {
  title: unknown;
  content: unknown;
  images: readonly string[];
  /** The channel it is filed under, already checked to exist; null for none. */
  channelId: string | null;
}

/**
 * A video as written (spec §4 publish job: `video_data.tempFilePath`, `img`): title and text as an article's, the
 * video and its cover each undefined when the member did not upload it.
 */
export interface VideoInput {
  title: unknown;
  content: unknown;
  /** The video's URL, already checked as the author's own upload; undefined for none (or another's). */
  video: string | undefined;
  /** The cover image's URL, already checked as the author's own upload; undefined for none (or another's). */
  cover: string | undefined;
  /** The channel it is filed under, already checked to exist; null for none. */
  channelId: string | null;
}

/**
 * Articles (spec §1 "publish articles", §2 article/view, member/add-article; §5 title 5 to 30 characters, text not
 * blank, "Blocked users cannot see each other's works"). No HTTP here.
 */
export interface ArticleService {
  /** Publishes an article of `memberId`: checked, then counted against the daily most. */
  publish(memberId: string, input: ArticleInput): Promise<MemberResult<ArticleRecord>>;
  /**
   * Publishes a video of `memberId` (spec §5: title, text, then "A video cover is required"): an article with a video
   * and a cover and no images, counted with the member's articles against the daily most.
   */
  publishVideo(memberId: string, input: VideoInput): Promise<MemberResult<ArticleRecord>>;
  /**
   * Article `id` as `viewerId` (undefined for a visitor) may see it: `article_missing` when it does not exist, was
   * deleted, its author cancelled, or a block stands between the two.
   */
  view(id: unknown, viewerId: string | undefined): Promise<MemberResult<ArticleRecord>>;
  /** A page of the feed, or of `authorId`'s articles, newest first, as `viewerId` may see it. */
  list(params: {
    viewerId?: string | undefined;
    authorId?: unknown;
    /** True for videos; otherwise plain articles. */
    videos?: boolean | undefined;
    /** Only those of this channel, already checked to exist. */
    channelId?: string | undefined;
    /** Only those whose title or text holds it (spec §2 search), at most 20 characters. */
    keyword?: unknown;
    before?: unknown;
  }): Promise<MemberResult<ArticleRecord[]>>;
  /** Deletes the member's own article `id`. */
  remove(memberId: string, id: unknown): Promise<MemberResult<void>>;
  /** Collects (`on` true) or uncollects an article the member may see; answers whether it is collected after. */
  collect(memberId: string, id: unknown, on: unknown): Promise<MemberResult<boolean>>;
  /** Which of `articleIds` the member collected; none for a visitor. */
  collected(memberId: string | undefined, articleIds: readonly string[]): Promise<Set<string>>;
  /** A page of the member's collection (spec §2 member/record), the latest collected first. */
  collection(memberId: string, before: unknown): Promise<MemberResult<ArticleRecord[]>>;
}

/** Creates the article service over the store; `blocked` tells whether a block stands between two members. */
export function createArticleService(deps: {
  articles: ArticleStore;
  blocked: (a: string, b: string) => Promise<boolean>;
  now: () => number;
}): ArticleService {
  const { articles } = deps;
  const store = async (record: ArticleRecord, now: number): Promise<MemberResult<ArticleRecord>> => {
    const outcome = await articles.add(record, {
      since: now - ARTICLE_LIMITS.windowMs,
      max: ARTICLE_LIMITS.maxPerWindow,
    });
    if (outcome === 'limit') return fail('article_limit');
    if (outcome === 'missing') return fail('user_missing');
    return { ok: true, value: record };
  };
  const service: ArticleService = {
    async publish(memberId, { title, content, images, channelId }) {
      const written = writing(title, content);
      if (!written.ok) return written;
      if (images.length > ARTICLE_LIMITS.imagesMax || new Set(images).size !== images.length) {
        return fail('article_images_invalid');
      }
      const now = deps.now();
      const id = randomBytes(8).toString('hex');
      return store({ id, memberId, ...written.value, images: [...images], channelId, createdAt: now }, now);
    },
    async publishVideo(memberId, { title, content, video, cover, channelId }) {
      const written = writing(title, content);
      if (!written.ok) return written;
      if (video === undefined) return fail('video_invalid');
      if (cover === undefined) return fail('video_cover_missing');
      const now = deps.now();
      const id = randomBytes(8).toString('hex');
      const record = { id, memberId, ...written.value, images: [], channelId, createdAt: now };
      return store({ ...record, video: { url: video, cover } }, now);
    },
    async view(id, viewerId) {
      if (!isRowKey(id) || id === undefined) return fail('article_missing');
      const article = await articles.byId(id);
      if (!article) return fail('article_missing');
      if (viewerId !== undefined && viewerId !== article.memberId && (await deps.blocked(viewerId, article.memberId))) {
        return fail('article_missing');
      }
      return { ok: true, value: article };
    },
    async list({ viewerId, authorId, videos, channelId, keyword, before }) {
      if (!isRowKey(before)) return fail('bad_params');
      const words = searchWords(keyword);
      if (words === false) return fail('bad_params');
      if (authorId !== undefined && (typeof authorId !== 'string' || authorId === '' || authorId.length > 64)) {
        return fail('bad_params');
      }
      const page = await articles.list({
        viewerId,
        authorId,
        videos,
        channelId,
        keyword: words,
        before,
        limit: ARTICLE_LIMITS.pageSize,
      });
      return page ? { ok: true, value: page } : fail('bad_params');
    },
    async collect(memberId, id, on) {
      if (typeof on !== 'boolean') return fail('bad_params');
      const article = await service.view(id, memberId);
      if (!article.ok) return article;
      await articles.collect(memberId, article.value.id, on, deps.now());
      return { ok: true, value: on };
    },
    async collected(memberId, articleIds) {
      return memberId === undefined ? new Set() : articles.collected(memberId, articleIds);
    },
    async collection(memberId, before) {
      if (!isRowKey(before)) return fail('bad_params');
      const page = await articles.collection(memberId, { before, limit: ARTICLE_LIMITS.pageSize });
      return page ? { ok: true, value: page } : fail('bad_params');
    },
    async remove(memberId, id) {
      if (!isRowKey(id) || id === undefined) return fail('article_missing');
      return (await articles.remove(memberId, id, deps.now()))
        ? { ok: true, value: undefined }
        : fail('article_missing');
    },
  };
  return service;
}

/** The title and the text as stored (spec §5: title 5 to 30 characters, text not blank), or why not. */
function writing(title: unknown, content: unknown): MemberResult<{ title: string; content: string }> {
  const heading = writtenTitle(title, { min: ARTICLE_LIMITS.titleMin, max: ARTICLE_LIMITS.titleMax });
  if (!heading.ok) return fail(heading.problem === 'short' ? 'article_title_short' : 'article_title_long');
  const text = writtenText(content, ARTICLE_LIMITS.contentMax, { tabs: true });
  if (text === undefined) return fail('article_content_invalid');
  return { ok: true, value: { title: heading.title, content: text } };
}
