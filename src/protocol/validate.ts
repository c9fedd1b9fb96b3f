import type * as z from 'zod/mini';
import { CODES } from './codes.js';

/** The outcome of checking untrusted input against a protocol schema. */
export type Checked<T> = { ok: true; value: T } | { ok: false; code: number; content: string };

/**
 * Checks `input` against `schema`. A failure carries code 400 and the message of the first issue, which is the
 * spec's own wording wherever the schema sets one.
 */
export function check<S extends z.ZodMiniType>(schema: S, input: unknown): Checked<z.infer<S>> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` (${issue.path.join('.')})` : '';
  const content =
    issue?.message && !issue.message.startsWith('Invalid input') ? issue.message : `parameter error${where}`;
  return { ok: false, code: CODES.BAD_REQUEST, content };
}
