import type { Scene } from '../protocol.js';

/**
 * The storage key of a private conversation. The wire's `a:b` form is ambiguous when an id holds a `:` (`a:b` + `c`
 * vs `a` + `b:c`), which would let one pair read another pair's messages; the JSON of the ordered pair is not.
 */
export function privateKey(a: string, b: string): string {
  // Plain code-unit order: localeCompare may call two different ids equal, which would give two keys.
  return `p:${JSON.stringify(a > b ? [a, b] : [b, a])}`;
}

/** The storage key of a group conversation. */
export function groupKey(groupId: string): string {
  return `g:${groupId}`;
}

/** The storage key of `me`'s conversation with `targetId` (the other user, or the group). */
export function conversationKey(scene: Exclude<Scene, 'cs'>, me: string, targetId: string): string {
  return scene === 'private' ? privateKey(me, targetId) : groupKey(targetId);
}
