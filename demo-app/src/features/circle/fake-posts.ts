import type { CirclePost, PostVote } from './posts';

const DAY = 86_400_000;

/** A circle post as the server answers it, for tests: post `n` by Bob, with `extra`. */
export function fakePost(n: number, extra: Partial<CirclePost> = {}): CirclePost {
  return {
    id: `p${n}`,
    title: `Title of post ${n}`,
    content: `Post number ${n}`,
    imgs: [],
    video: null,
    vote: null,
    topic: null,
    author: { id: '7', username: 'Bob', img: '' },
    created_at: Date.now(),
    mine: false,
    likes: 0,
    comments: 0,
    liked: false,
    ...extra,
  };
}

/** A vote running for a day, Hills 1 and Sea 3, the viewer not among them; with `extra`, for tests. */
export function fakeVote(extra: Partial<PostVote> = {}): PostVote {
  return {
    options: [
      { text: 'Hills', count: 1 },
      { text: 'Sea', count: 3 },
    ],
    total: 4,
    ends_at: Date.now() + DAY,
    ended: false,
    voted: null,
    ...extra,
  };
}
