import type { BlockStore, MemberRecord, MemberStore } from '../store/index.js';
import type { MemberFailure, MemberResult } from './service.js';

const fail = <T>(failure: MemberFailure): MemberResult<T> => ({ ok: false, failure });

/** Bounds of a member's block list (docs/limits.md). */
export const BLOCK_LIMITS = {
  /** A member blocks at most this many members (MEM-8); more are `block_limit`. */
  max: 1000,
  /** A page of the list. */
  pageSize: 20,
} as const;

/** A member on someone's block list, as the list shows them. */
export interface BlockedMember {
  member: MemberRecord | undefined;
  id: string;
  createdAt: number;
}

/** The product app's block lists (spec §2 member/lahei, §7 `member/lahei/uid_s/{id}`). No HTTP here. */
export interface BlockService {
  /**
   * Blocks or unblocks member `targetId` (`block` true or false), or toggles when `block` is left out; answers
   * whether they are blocked now. Only a member who exists and has not cancelled can be blocked; anyone can be
   * unblocked.
   */
  set(memberId: string, targetId: unknown, block: unknown): Promise<MemberResult<{ blocked: boolean }>>;
  /** Whether `memberId` has blocked `targetId`. */
  has(memberId: string, targetId: string): Promise<boolean>;
  /** A page of the member's list, newest first; `before` is the id of the last one shown. */
  list(memberId: string, before: unknown): Promise<MemberResult<BlockedMember[]>>;
}

/** A member id as the app sends it: a string or number of at most 32 characters. */
export function idOf(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const id = String(value);
  return id === '' || id.length > 32 ? undefined : id;
}

/** Creates the block service over the stores. */
export function createBlockService(deps: {
  blocks: BlockStore;
  members: MemberStore;
  now: () => number;
}): BlockService {
  const { blocks, members } = deps;
  return {
    async set(memberId, targetId, block) {
      const target = idOf(targetId);
      if (target === undefined) return fail('user_missing');
      if (target === memberId) return fail('block_self');
      if (block !== undefined && typeof block !== 'boolean') return fail('bad_params');
      const blocked = block ?? !(await blocks.has(memberId, target));
      if (blocked) {
        const member = await members.byId(target);
        if (!member || member.cancelledAt !== undefined) return fail('user_missing');
      }
      const done = await blocks.set(memberId, target, blocked, { now: deps.now(), max: BLOCK_LIMITS.max });
      return done ? { ok: true, value: { blocked } } : fail('block_limit');
    },
    has: (memberId, targetId) => blocks.has(memberId, targetId),
    async list(memberId, before) {
      const cursor = before === undefined ? undefined : idOf(before);
      if (before !== undefined && cursor === undefined) return fail('bad_params');
      const page = await blocks.list(memberId, { before: cursor, limit: BLOCK_LIMITS.pageSize });
      if (!page) return fail('bad_params');
      const listed = await Promise.all(
        page.map(async ({ blockedId, createdAt }) => ({
          id: blockedId,
          createdAt,
          member: await members.byId(blockedId),
        })),
      );
      return { ok: true, value: listed };
    },
  };
}
