import type {
  CertificationRecord,
  CertificationStatus,
  CertificationStore,
  CertificationType,
} from '../store/index.js';
import { lineOf } from './addresses.js';
import { isCreditCode, isIdCardNumber, personNameOf } from './identity.js';
import type { MemberFailure, MemberResult } from './service.js';

const fail = <T>(failure: MemberFailure): MemberResult<T> => ({ ok: false, failure });

/** Bounds of real-name certification (docs/limits.md). */
export const CERTIFICATION_LIMITS = {
  /** A person's real name: 2 to this many characters after trimming, no digits. */
  personNameMaxLength: 30,
  /** An organisation's name: 2 to this many characters after trimming. */
  organisationNameMaxLength: 60,
  /** Photos: the identity card's two sides, or the business licence (1 to 2). */
  personImages: 2,
  organisationImagesMax: 2,
  /** Why a review failed: 1 to this many characters. */
  reasonMaxLength: 100,
  /** A page of the operator's review queue. */
  pageSize: 50,
} as const;

/** A submission as the product API hands it over: the photos already checked as the member's own images. */
export interface CertificationInput {
  type: unknown;
  name: unknown;
  number: unknown;
  images: readonly string[];
}

/** Why the operator's review of a submission was refused. */
export type ReviewFailure = 'not_pending' | 'bad_review';

/** Real-name certification (spec §2 member/renzheng, §4, §6: personal or enterprise). No HTTP here. */
export interface CertificationService {
  /** The member's latest submission and its review, if any. */
  latest(memberId: string): Promise<CertificationRecord | undefined>;
  /** Whether the member is certified (the user object's `shiming`). */
  certified(memberId: string): Promise<boolean>;
  /**
   * Submits a member's certification for review: `personal` (a real name and a resident identity card number, the
   * card's two sides) or `enterprise` (the organisation's name and unified social credit code, its business
   * licence). Refused while one is under review (`cert_pending`, it cannot be edited) or once passed (`cert_passed`);
   * a failed one is replaced.
   */
  submit(memberId: string, input: CertificationInput): Promise<MemberResult<CertificationRecord>>;
  /**
   * The operator's review: passes (`pass` true) or fails with a `reason` the submission made at `submittedAt`.
   * `not_pending` when that submission is not under review (none, reviewed already, or replaced).
   */
  review(
    memberId: string,
    review: { pass: unknown; reason: unknown; submittedAt: unknown },
  ): Promise<{ ok: true; value: CertificationRecord } | { ok: false; failure: ReviewFailure; message: string }>;
  /** The operator's queue: submissions in `status` (default pending), oldest first; `after` the last member id seen. */
  list(
    status: unknown,
    after: unknown,
  ): Promise<{ ok: true; value: CertificationRecord[] } | { ok: false; message: string }>;
}

const STATUSES: readonly CertificationStatus[] = ['pending', 'failed', 'passed'];

/** Creates the certification service over the store. */
export function createCertificationService(deps: {
  certifications: CertificationStore;
  now: () => number;
  /** Told of each review, after it is stored. */
  onReviewed?: (record: CertificationRecord) => Promise<void>;
}): CertificationService {
  const { certifications } = deps;
  const today = () => new Date(deps.now()).toISOString().slice(0, 10);
  return {
    latest: (memberId) => certifications.byMember(memberId),
    async certified(memberId) {
      return (await certifications.byMember(memberId))?.status === 'passed';
    },
    async submit(memberId, { type, name, number, images }) {
      if (type !== 'personal' && type !== 'enterprise') return fail('cert_type_invalid');
      const kind: CertificationType = type;
      const personal = kind === 'personal';
      const max = personal ? CERTIFICATION_LIMITS.personNameMaxLength : CERTIFICATION_LIMITS.organisationNameMaxLength;
      const named = personal ? personNameOf(name, max) : lineOf(name, max);
      if (named === undefined || [...named].length < 2) return fail('cert_name_invalid');
      const id = typeof number === 'string' ? number.trim().toUpperCase() : '';
      if (!(personal ? isIdCardNumber(id, today()) : isCreditCode(id))) return fail('cert_number_invalid');
      const imagesOk = personal
        ? images.length === CERTIFICATION_LIMITS.personImages
        : images.length >= 1 && images.length <= CERTIFICATION_LIMITS.organisationImagesMax;
      if (!imagesOk || new Set(images).size !== images.length) return fail('cert_images_invalid');
      const record = {
        memberId,
        type: kind,
        name: named,
        number: id,
        images: [...images],
        submittedAt: deps.now(),
      };
      const outcome = await certifications.submit(record);
      if (outcome === 'pending') return fail('cert_pending');
      if (outcome === 'passed') return fail('cert_passed');
      if (outcome === 'missing') return fail('user_missing');
      return { ok: true, value: { ...record, status: 'pending', reason: '' } };
    },
    async review(memberId, { pass, reason, submittedAt }) {
      if (typeof pass !== 'boolean') return { ok: false, failure: 'bad_review', message: 'pass must be boolean.' };
      if (typeof submittedAt !== 'number' || !Number.isSafeInteger(submittedAt)) {
        return { ok: false, failure: 'bad_review', message: 'submittedAt must be the submission time.' };
      }
      const why = pass ? '' : lineOf(reason, CERTIFICATION_LIMITS.reasonMaxLength);
      if (why === undefined) {
        return {
          ok: false,
          failure: 'bad_review',
          message: `reason is required: 1 to ${CERTIFICATION_LIMITS.reasonMaxLength} characters.`,
        };
      }
      const reviewed = await certifications.review(memberId, { submittedAt, pass, reason: why, now: deps.now() });
      if (reviewed) await deps.onReviewed?.(reviewed);
      return reviewed
        ? { ok: true, value: reviewed }
        : { ok: false, failure: 'not_pending', message: 'no such certification under review' };
    },
    async list(status, after) {
      const wanted = status ?? 'pending';
      if (!STATUSES.includes(wanted as CertificationStatus)) {
        return { ok: false, message: 'status must be pending, failed or passed.' };
      }
      if (after !== undefined && (typeof after !== 'string' || after === '' || after.length > 64)) {
        return { ok: false, message: 'after must be a member id listed.' };
      }
      const page = await certifications.list({
        status: wanted as CertificationStatus,
        after,
        limit: CERTIFICATION_LIMITS.pageSize,
      });
      return page ? { ok: true, value: page } : { ok: false, message: 'after must be a member id listed.' };
    },
  };
}
