import { randomBytes } from 'node:crypto';
import type { FeedbackRecord, FeedbackStore } from '../store/index.js';
import { isRowKey, phoneKey, type MemberFailure, type MemberResult } from './service.js';

const fail = <T>(failure: MemberFailure): MemberResult<T> => ({ ok: false, failure });

/** Bounds of a member's feedback (docs/limits.md). */
export const FEEDBACK_LIMITS = {
  /** A description has 1 to this many characters (Unicode code points) after trimming. */
  contentMaxLength: 500,
  /** At most this many screenshots, each an image the member uploaded. */
  imagesMax: 4,
  /** A member sends at most `maxPerWindow` feedback in `windowMs` (MEM-6); more are "do not operate frequently". */
  maxPerWindow: 10,
  windowMs: 86_400_000,
  /** A page of the member's list. */
  pageSize: 20,
} as const;

/** A new feedback as the product API hands it over: the screenshots already checked as the member's own images. */
export interface FeedbackInput {
  phone: unknown;
  quhao?: unknown;
  content: unknown;
  images: readonly string[];
}

/** Members' feedback (spec §2 member/feedback and member/feedback-list). No HTTP here. */
export interface FeedbackService {
  /** Stores a member's feedback: a description, a correct phone number, and up to four screenshots (spec §5). */
  submit(memberId: string, input: FeedbackInput): Promise<MemberResult<FeedbackRecord>>;
  /** A page of the member's own feedback, newest first; `before` is the id of the last one shown. */
  list(memberId: string, before: unknown): Promise<MemberResult<FeedbackRecord[]>>;
}

/** A description as stored: trimmed, 1 to {@link FEEDBACK_LIMITS.contentMaxLength} characters. */
function contentOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  const length = [...trimmed].length;
  return length === 0 || length > FEEDBACK_LIMITS.contentMaxLength ? undefined : trimmed;
}

/** Creates the feedback service over the store. */
export function createFeedbackService(deps: { feedback: FeedbackStore; now: () => number }): FeedbackService {
  return {
    async submit(memberId, { phone, quhao, content, images }) {
      const description = contentOf(content);
      if (description === undefined) return fail('feedback_content_invalid');
      const key = phoneKey(phone, quhao);
      if (key === undefined) return fail('feedback_phone_invalid');
      if (images.length > FEEDBACK_LIMITS.imagesMax) return fail('feedback_images_invalid');
      const now = deps.now();
      const record: FeedbackRecord = {
        id: randomBytes(8).toString('hex'),
        memberId,
        phone: key,
        content: description,
        images: [...images],
        createdAt: now,
      };
      const quota = { since: now - FEEDBACK_LIMITS.windowMs, max: FEEDBACK_LIMITS.maxPerWindow };
      if (!(await deps.feedback.add(record, quota))) return fail('too_frequent');
      return { ok: true, value: record };
    },
    async list(memberId, before) {
      if (!isRowKey(before)) return fail('bad_params');
      const page = await deps.feedback.list(memberId, { before, limit: FEEDBACK_LIMITS.pageSize });
      return page ? { ok: true, value: page } : fail('bad_params');
    },
  };
}
