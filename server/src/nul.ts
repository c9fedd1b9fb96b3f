/**
 * Whether any string in `value` (a request's parameters, as JSON or socket.io decoded them) holds U+0000. PostgreSQL
 * cannot keep that character in text, so such a request is refused up front, on every store alike, rather than
 * failing in the store with a 500. Walks with a stack of its own: nesting depth cannot exhaust the call stack.
 */
export function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (typeof value !== 'object' || value === null) return false;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (next.includes('\u0000')) return true;
    } else if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
    } else if (typeof next === 'object' && next !== null && !ArrayBuffer.isView(next)) {
      for (const key in next) {
        if (!Object.hasOwn(next, key)) continue;
        if (key.includes('\u0000')) return true;
        pending.push((next as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}
