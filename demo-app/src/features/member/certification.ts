import { apiPost, type CallContext } from '../api/request';

/** The query key of the member's certification, which submitting makes stale. */
export const CERTIFICATION_QUERY = 'member-certification';

/** Who is certified: a person, or an organisation. */
export type CertificationType = 'personal' | 'enterprise';

/** Where a certification stands (spec §4): under review, failed with a reason, passed. */
export type CertificationStatus = 'pending' | 'failed' | 'passed';

/** The member's certification as `member/renzheng_info` answers it: the number masked. */
export interface Certification {
  type: CertificationType;
  name: string;
  number: string;
  status: CertificationStatus;
  reason: string;
  submitted_at: number;
  reviewed_at: number | null;
}

/** What the form holds before it is sent. */
export interface CertificationDraft {
  type: CertificationType;
  name: string;
  number: string;
  imgs: string[];
}

/** The server's bounds (docs/limits.md): names of 2 to 30 characters for a person, 2 to 60 for an organisation. */
export const CERT_NAME_MAX: Record<CertificationType, number> = { personal: 30, enterprise: 60 };

/** Photos: the identity card's two sides, or the business licence (one, and a second if it has one). */
export const CERT_IMAGES: Record<CertificationType, { min: number; max: number }> = {
  personal: { min: 2, max: 2 },
  enterprise: { min: 1, max: 2 },
};

/** The shape of the numbers: 17 digits and a digit or X; 18 characters of the credit code's set. */
const NUMBER_SHAPE: Record<CertificationType, RegExp> = {
  personal: /^\d{17}[\dX]$/i,
  enterprise: /^[0-9A-HJ-NP-RTUW-Y]{18}$/i,
};

/**
 * What is wrong with a draft before it is sent, or undefined: the name's length (and no digits in a person's), the
 * number's shape and the photos. The server checks the numbers' check characters too.
 */
export function certificationProblem(draft: CertificationDraft): 'name' | 'number' | 'images' | undefined {
  const name = [...draft.name.trim()];
  if (name.length < 2 || name.length > CERT_NAME_MAX[draft.type]) return 'name';
  if (draft.type === 'personal' && /\d/.test(draft.name)) return 'name';
  if (!NUMBER_SHAPE[draft.type].test(draft.number.trim())) return 'number';
  const { min, max } = CERT_IMAGES[draft.type];
  return draft.imgs.length < min || draft.imgs.length > max ? 'images' : undefined;
}

/** The member's certification, or null before any. */
export async function certificationInfo(context: CallContext): Promise<Certification | null> {
  return (await apiPost<{ ret: Certification | null }>('member/renzheng_info', {}, context)).ret;
}

/** Sends a draft the caller has checked with {@link certificationProblem}; resolves with it, under review. */
export async function submitCertification(draft: CertificationDraft, context: CallContext): Promise<Certification> {
  const body = { type: draft.type, name: draft.name.trim(), number: draft.number.trim(), imgs: draft.imgs };
  return (await apiPost<{ ret: Certification }>('member/renzheng_add', body, context, { loading: true })).ret;
}
