import { apiPost, type CallContext } from '../api/request';
import type { ArticleAuthor, ArticleCounts, ArticleVideo } from '../content/articles';

/** The query key of the circle and its pages, which posting or deleting makes stale. */
export const CIRCLE_QUERY = 'circle';

/** How a post's vote stands. */
export interface PostVote {
  options: Array<{ text: string; count: number }>;
  total: number;
  ends_at: number;
  ended: boolean;
  /** The signed-in member's option, or null. */
  voted: number | null;
}

/** A circle post: its title, the text with images, or with a video, or with a vote; and its likes and comments. */
export interface CirclePost extends ArticleCounts {
  id: string;
  /** Empty for a post written before posts had titles. */
  title: string;
  content: string;
  imgs: string[];
  /** The video, its cover and its resolutions, or null. */
  video: ArticleVideo | null;
  vote: PostVote | null;
  /** The topic it was posted under, or null. */
  topic: { id: string; title: string } | null;
  author: ArticleAuthor;
  created_at: number;
  /** Whether the signed-in member posted it. */
  mine: boolean;
}

/** The server's bounds (docs/limits.md; spec §5). */
export const CIRCLE_LIMITS = {
  contentMax: 2000,
  imagesMax: 9,
  optionsMin: 2,
  optionsMax: 10,
  optionMax: 20,
  voteDays: [1, 3, 7],
} as const;

/** A vote as the form has it: the options as typed and how many days it runs. */
export interface VoteDraft {
  options: string[];
  days: number;
}

/** What is wrong with a post before it is sent, or undefined; the server checks the same. */
export function postProblem(content: string, vote: VoteDraft | undefined): 'content' | 'vote' | undefined {
  const text = content.trim();
  if (text === '' || [...text].length > CIRCLE_LIMITS.contentMax) return 'content';
  if (!vote) return undefined;
  const options = vote.options.map((option) => option.trim());
  const fits = options.every((option) => option !== '' && [...option].length <= CIRCLE_LIMITS.optionMax);
  const count = options.length >= CIRCLE_LIMITS.optionsMin && options.length <= CIRCLE_LIMITS.optionsMax;
  return fits && count && new Set(options).size === options.length ? undefined : 'vote';
}

/** A topic of the circle, with how many posts it holds. */
export interface Topic {
  id: string;
  title: string;
  intro: string;
  img: string;
  posts: number;
}

/** The query key of the topics. */
export const TOPICS_QUERY = 'topics';

/** Every topic, the most posts first. */
export async function topicList(context: CallContext): Promise<Topic[]> {
  return (await apiPost<{ ret: Topic[] }>('topic/index', {}, context)).ret;
}

/**
 * A page of the circle, of one member's posts (`uid`), of those holding `keyword`, or of one topic's (`topic`,
 * refused with `topic_missing` once removed); `before` is the id of the last one shown.
 */
export async function circlePage(
  params: { uid?: string; topic?: string; keyword?: string; before?: string | undefined },
  context: CallContext,
): Promise<CirclePost[]> {
  const body = {
    ...(params.uid !== undefined && { uid: params.uid }),
    ...(params.topic !== undefined && { id: params.topic }),
    ...(params.keyword !== undefined && { keyword: params.keyword }),
    ...(params.before !== undefined && { before: params.before }),
  };
  const path = params.topic === undefined ? 'quanzi/list' : 'topic/list';
  return (await apiPost<{ ret: CirclePost[] }>(path, body, context)).ret;
}

/** Posts to the circle; resolves with the post. */
export async function publishPost(
  draft: {
    title: string;
    content: string;
    imgs: string[];
    vote?: VoteDraft | undefined;
    /** The uploaded video's and cover's URLs. */
    video?: { video: string; cover: string } | undefined;
    topic?: string | undefined;
  },
  context: CallContext,
): Promise<CirclePost> {
  const body = {
    title: draft.title.trim(),
    content: draft.content.trim(),
    imgs: draft.imgs,
    ...(draft.video && { video: draft.video.video, img: draft.video.cover }),
    ...(draft.vote && { vote: { options: draft.vote.options.map((o) => o.trim()), days: draft.vote.days } }),
    ...(draft.topic !== undefined && { topic: draft.topic }),
  };
  return (await apiPost<{ ret: CirclePost; id: string }>('member/quanzi_add', body, context, { loading: true })).ret;
}

/** Post `id` as the lists show it, with the member's vote (`quanzi/view`). */
export async function viewPost(id: string, context: CallContext): Promise<CirclePost> {
  return (await apiPost<{ ret: CirclePost }>('quanzi/view', { id }, context)).ret;
}

/** Votes for `option` (from 0); resolves with the post as it stands after. */
export async function votePost(id: string, option: number, context: CallContext): Promise<CirclePost> {
  return (await apiPost<{ ret: CirclePost }>('quanzi/vote', { id, option }, context)).ret;
}

export async function deletePost(id: string, context: CallContext): Promise<void> {
  await apiPost<{ ret: boolean }>('member/quanzi_del', { id }, context, { loading: true });
}
