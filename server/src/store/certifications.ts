import type { Kysely } from 'kysely';
import { newerThan } from './keyset.js';
import { holdOpenMember } from './member-lock.js';
import type { Database } from './schema.js';

/** Who is certified: a person, or an organisation with its unified social credit code. */
export type CertificationType = 'personal' | 'enterprise';

/** Where a certification's review stands (spec §4): under review, failed with a reason, passed. */
export type CertificationStatus = 'pending' | 'failed' | 'passed';

/** A member's latest certification submission and its review. */
export interface CertificationRecord {
  memberId: string;
  type: CertificationType;
  /** The person's real name, or the organisation's. */
  name: string;
  /** The identity card number, or the unified social credit code. */
  number: string;
  /** URLs of the photos the member uploaded (the card's two sides, or the business licence). */
  images: string[];
  status: CertificationStatus;
  /** Why it failed; empty otherwise. */
  reason: string;
  submittedAt: number;
  reviewedAt?: number;
}

/** What submitting came to: stored for review, or refused since one is under review or passed already. */
export type SubmitOutcome = 'ok' | 'pending' | 'passed' | 'missing';

/** The product app's real-name certifications. */
export interface CertificationStore {
  /** The member's latest submission, if any. */
  byMember(memberId: string): Promise<CertificationRecord | undefined>;
  /**
   * Stores a submission for review, in place of a failed one: `pending` or `passed` (and nothing changed) when the
   * member's latest is under review or passed, `missing` when the member is gone. One transaction that holds the
   * member's row, so that two submissions at once store one.
   */
  submit(record: Omit<CertificationRecord, 'status' | 'reason' | 'reviewedAt'>): Promise<SubmitOutcome>;
  /**
   * Passes or fails (with `reason`) the member's submission made at `submittedAt`, if it is still under review;
   * undefined, and nothing changed, otherwise (reviewed already, or replaced).
   */
  review(
    memberId: string,
    params: { submittedAt: number; pass: boolean; reason: string; now: number },
  ): Promise<CertificationRecord | undefined>;
  /**
   * Submissions in `status`, oldest first, at most `limit`; with `after` (a member id listed), only those after it.
   * Undefined when `after` is not in that status.
   */
  list(params: {
    status: CertificationStatus;
    after?: string | undefined;
    limit: number;
  }): Promise<CertificationRecord[] | undefined>;
}

type CertificationTables = {
  member_certifications: {
    member_id: string;
    type: string;
    name: string;
    number: string;
    images: string;
    status: string;
    reason: string;
    submitted_at: number;
    reviewed_at: number | null;
  };
};

type Row = CertificationTables['member_certifications'];

const recordOf = (row: Row): CertificationRecord => ({
  memberId: row.member_id,
  type: row.type as CertificationType,
  name: row.name,
  number: row.number,
  images: JSON.parse(row.images) as string[],
  status: row.status as CertificationStatus,
  reason: row.reason,
  submittedAt: Number(row.submitted_at),
  ...(row.reviewed_at !== null && { reviewedAt: Number(row.reviewed_at) }),
});

/** The Kysely implementation of {@link CertificationStore}. */
export function createCertificationStore(base: Kysely<Database>, dialect: 'sqlite' | 'postgres'): CertificationStore {
  const db = base.withTables<CertificationTables>();
  const byMember = (memberId: string) =>
    db.selectFrom('member_certifications').selectAll().where('member_id', '=', memberId);
  return {
    async byMember(memberId) {
      const row = await byMember(memberId).executeTakeFirst();
      return row && recordOf(row);
    },
    async submit(record) {
      return db.transaction().execute(async (trx) => {
        if (!(await holdOpenMember(trx, record.memberId, dialect))) return 'missing';
        const latest = await trx
          .selectFrom('member_certifications')
          .select('status')
          .where('member_id', '=', record.memberId)
          .executeTakeFirst();
        if (latest?.status === 'pending' || latest?.status === 'passed') return latest.status;
        const values = {
          type: record.type,
          name: record.name,
          number: record.number,
          images: JSON.stringify(record.images),
          status: 'pending',
          reason: '',
          submitted_at: record.submittedAt,
          reviewed_at: null,
        };
        await trx
          .insertInto('member_certifications')
          .values({ member_id: record.memberId, ...values })
          .onConflict((oc) => oc.column('member_id').doUpdateSet(values))
          .execute();
        return 'ok';
      });
    },
    async review(memberId, { submittedAt, pass, reason, now }) {
      const result = await db
        .updateTable('member_certifications')
        .set({ status: pass ? 'passed' : 'failed', reason: pass ? '' : reason, reviewed_at: now })
        .where('member_id', '=', memberId)
        .where('status', '=', 'pending')
        .where('submitted_at', '=', submittedAt)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return undefined;
      const row = await byMember(memberId).executeTakeFirst();
      return row && recordOf(row);
    },
    async list({ status, after, limit }) {
      let cursor: { at: number; id: string } | undefined;
      if (after !== undefined) {
        const found = await byMember(after).where('status', '=', status).executeTakeFirst();
        if (!found) return undefined;
        cursor = { at: Number(found.submitted_at), id: found.member_id };
      }
      const rows = await db
        .selectFrom('member_certifications')
        .selectAll()
        .where('status', '=', status)
        .where(newerThan(cursor, { time: 'submitted_at', id: 'member_id' }))
        .orderBy('submitted_at', 'asc')
        .orderBy('member_id', 'asc')
        .limit(limit)
        .execute();
      return rows.map(recordOf);
    },
  };
}
