import { apiPost, type CallContext } from '../api/request';
import { parseContactPhone } from './phone';

/** A description has 1 to this many characters after trimming (the server's `member/feedback_add` rule). */
export const FEEDBACK_CONTENT_MAX = 500;

/** At most this many screenshots go with a feedback. */
export const FEEDBACK_IMAGES_MAX = 4;

/** A feedback as `member/feedback_list` answers it, newest first. */
export interface Feedback {
  id: string;
  phone: string;
  content: string;
  imgs: string[];
  created_at: number;
}

/** What the form holds before it is sent. */
export interface FeedbackDraft {
  content: string;
  phone: string;
  imgs: string[];
}

/** Why a draft cannot be sent (spec §5: a problem description and a correct phone number), or undefined. */
export function feedbackProblem(draft: FeedbackDraft): 'content_empty' | 'content_too_long' | 'phone' | undefined {
  const length = [...draft.content.trim()].length;
  if (length === 0) return 'content_empty';
  if (length > FEEDBACK_CONTENT_MAX) return 'content_too_long';
  return parseContactPhone(draft.phone) ? undefined : 'phone';
}

/** Sends a feedback the caller has checked with {@link feedbackProblem}; resolves with it as stored. */
export async function submitFeedback(draft: FeedbackDraft, context: CallContext): Promise<Feedback> {
  const contact = parseContactPhone(draft.phone) ?? { phone: draft.phone, quhao: '86' };
  const body = { content: draft.content.trim(), phone: contact.phone, quhao: contact.quhao, imgs: draft.imgs };
  return (await apiPost<{ ret: Feedback }>('member/feedback_add', body, context, { loading: true })).ret;
}

/** A page of the member's feedback, newest first; `before` is the id of the last one shown. */
export async function feedbackPage(before: string | undefined, context: CallContext): Promise<Feedback[]> {
  const body = before === undefined ? {} : { before };
  return (await apiPost<{ ret: Feedback[] }>('member/feedback_list', body, context)).ret;
}
