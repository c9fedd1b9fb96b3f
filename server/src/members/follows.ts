import type { FollowStore, MemberRecord, MemberStore } from '../store/index.js';
import { idOf } from './blocks.js';
import type { MemberFailure, MemberResult } from './service.js';

const fail = <T>(failure: MemberFailure): MemberResult<T> => ({ ok: false, failure });

/** Bounds of follows (docs/limits.md). */
export const FOLLOW_LIMITS = {
  /** A member follows at most this many members (MEM-10); more are `follow_limit`. */
  max: 2000,
  /** A page of a follow list, or of members found. */
  pageSize: 20,
  /** A search keyword has at most this many characters after trimming. */
  keywordMaxLength: 20,
} as const;

/** A member on a follow list, as the list shows them to the member reading it. */
export interface FollowedMember {
  id: string;
  member: MemberRecord | undefined;
  createdAt: number;
  /** Whether the member reading the list follows this one. */
  followed: boolean;
}

/** The product app's follows (spec §2 member/guanzhu, §5 "A user cannot follow themselves"). No HTTP here. */
export interface FollowService {
  /**
   * `memberId` follows (`follow` true) or stops following member `targetId` (false), or toggles when `follow` is left
   * out; answers whether they follow them now and how many fans `targetId` has. Only an open member who has not
   * blocked, nor been blocked by, `memberId` can be followed; anyone can be unfollowed.
   */
  set(memberId: string, targetId: unknown, follow: unknown): Promise<MemberResult<{ followed: boolean; fans: number }>>;
  /** How many members `memberId` follows and how many follow them. */
  counts(memberId: string): Promise<{ follows: number; fans: number }>;
  /** Whether `memberId` follows `targetId`. */
  follows(memberId: string, targetId: string): Promise<boolean>;
  /**
   * A page of member `ownerId`'s follows (`side` 'follows') or fans ('fans'), newest first, as `viewerId` sees it;
   * `before` is the id of the last one shown. `user_missing` when the owner is no open member, or one of the two
   * has blocked the other.
   */
  list(viewerId: string, ownerId: unknown, side: unknown, before: unknown): Promise<MemberResult<FollowedMember[]>>;
  /**
   * Members to find and follow (spec §2 user/user_list): those whose nickname holds `keyword` (trimmed, at most 20
   * characters) or whose id it is, or the newest members without one; twenty at a time, newest first, `before` the
   * id of the last one shown. Members either of the two blocked are left out.
   */
  find(viewerId: string, keyword: unknown, before: unknown): Promise<MemberResult<FollowedMember[]>>;
}

/** Creates the follow service over the stores. */
export function createFollowService(deps: {
  follows: FollowStore;
  members: MemberStore;
  blocked: (a: string, b: string) => Promise<boolean>;
  now: () => number;
  /** Told of each new follow (not of following again), after it is stored. */
  onFollowed?: (memberId: string, followedId: string) => Promise<void>;
}): FollowService {
  const { follows, members } = deps;
  const isFollowing = async (memberId: string, targetId: string) =>
    (await follows.following(memberId, [targetId])).has(targetId);
  return {
    async set(memberId, targetId, follow) {
      const target = idOf(targetId);
      if (target === undefined) return fail('user_missing');
      if (target === memberId) return fail('follow_self');
      if (follow !== undefined && typeof follow !== 'boolean') return fail('bad_params');
      const already = await isFollowing(memberId, target);
      const followed = follow ?? !already;
      const outcome = await follows.set(memberId, target, followed, { now: deps.now(), max: FOLLOW_LIMITS.max });
      if (outcome === 'limit') return fail('follow_limit');
      if (outcome === 'unavailable') return fail('user_missing');
      if (followed && !already) await deps.onFollowed?.(memberId, target);
      return { ok: true, value: { followed, fans: (await follows.counts(target)).fans } };
    },
    counts: (memberId) => follows.counts(memberId),
    follows: isFollowing,
    async list(viewerId, ownerId, side, before) {
      const owner = ownerId === undefined ? viewerId : idOf(ownerId);
      if (owner === undefined) return fail('user_missing');
      if (side !== undefined && side !== 'follows' && side !== 'fans') return fail('bad_params');
      const cursor = before === undefined ? undefined : idOf(before);
      if (before !== undefined && cursor === undefined) return fail('bad_params');
      if (owner !== viewerId) {
        const member = await members.byId(owner);
        if (!member || member.cancelledAt !== undefined || (await deps.blocked(viewerId, owner))) {
          return fail('user_missing');
        }
      }
      const page = await follows.list(owner, {
        side: side ?? 'follows',
        before: cursor,
        limit: FOLLOW_LIMITS.pageSize,
      });
      if (!page) return fail('bad_params');
      const mine = await follows.following(
        viewerId,
        page.map((line) => line.memberId),
      );
      const listed = await Promise.all(
        page.map(async ({ memberId, createdAt }) => ({
          id: memberId,
          createdAt,
          followed: mine.has(memberId),
          member: await members.byId(memberId),
        })),
      );
      return { ok: true, value: listed };
    },
    async find(viewerId, keyword, before) {
      if (keyword !== undefined && typeof keyword !== 'string') return fail('bad_params');
      const words = keyword?.trim() ?? '';
      if ([...words].length > FOLLOW_LIMITS.keywordMaxLength) return fail('bad_params');
      const cursor = before === undefined ? undefined : idOf(before);
      if (before !== undefined && cursor === undefined) return fail('bad_params');
      const found = await members.search(viewerId, {
        keyword: words === '' ? undefined : words,
        before: cursor,
        limit: FOLLOW_LIMITS.pageSize,
      });
      if (!found) return fail('bad_params');
      const mine = await follows.following(
        viewerId,
        found.map((member) => member.id),
      );
      return {
        ok: true,
        value: found.map((member) => ({
          id: member.id,
          member,
          createdAt: member.createdAt,
          followed: mine.has(member.id),
        })),
      };
    },
  };
}
