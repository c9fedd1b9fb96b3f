import type { Kysely } from 'kysely';
import { holdMember } from './member-lock.js';
import { keysetOf, olderThan } from './keyset.js';
import type { Database } from './schema.js';

/** A member's feedback as stored (spec §3 Feedback: contact phone, description, screenshots). */
export interface FeedbackRecord {
  id: string;
  memberId: string;
  /** The contact phone as the member gave it, in the stored form of login's numbers. */
  phone: string;
  content: string;
  /** The screenshots' URLs, in the member's order. */
  images: string[];
  createdAt: number;
}

/** Members' feedback. */
export interface FeedbackStore {
  /**
   * Adds a feedback unless its member has sent `max` or more since `since`: false then, and nothing is stored. The
   * count and the insert are one transaction that holds the member's row (MEM-6), so that feedback sent at once
   * cannot all pass.
   */
  add(record: FeedbackRecord, quota: { since: number; max: number }): Promise<boolean>;
  /**
   * A member's feedback, newest first, at most `limit`; with `before`, only what is older than that feedback of
   * theirs. Undefined when `before` is not one of theirs.
   */
  list(
    memberId: string,
    options: { before?: string | undefined; limit: number },
  ): Promise<FeedbackRecord[] | undefined>;
}

type FeedbackTables = {
  member_feedback: {
    id: string;
    member_id: string;
    phone: string;
    content: string;
    images: string;
    created_at: number;
  };
};

type FeedbackRow = FeedbackTables['member_feedback'];

function imagesOf(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((url): url is string => typeof url === 'string') : [];
  } catch {
    return [];
  }
}

const toRecord = (row: FeedbackRow): FeedbackRecord => ({
  id: row.id,
  memberId: row.member_id,
  phone: row.phone,
  content: row.content,
  images: imagesOf(row.images),
  createdAt: Number(row.created_at),
});

/** The Kysely implementation of {@link FeedbackStore}. */
export function createFeedbackStore(base: Kysely<Database>, dialect: 'sqlite' | 'postgres'): FeedbackStore {
  const db = base.withTables<FeedbackTables>();
  return {
    async add(record, { since, max }) {
      return db.transaction().execute(async (trx) => {
        await holdMember(trx, record.memberId, dialect);
        const recent = await trx
          .selectFrom('member_feedback')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .where('member_id', '=', record.memberId)
          .where('created_at', '>', since)
          .executeTakeFirstOrThrow();
        if (Number(recent.n) >= max) return false;
        await trx
          .insertInto('member_feedback')
          .values({
            id: record.id,
            member_id: record.memberId,
            phone: record.phone,
            content: record.content,
            images: JSON.stringify(record.images),
            created_at: record.createdAt,
          })
          .execute();
        return true;
      });
    },
    async list(memberId, { before, limit }) {
      const cursor = await keysetOf(db, 'member_feedback', before, { column: 'member_id', value: memberId });
      if (cursor === 'missing') return undefined;
      const rows = await db
        .selectFrom('member_feedback')
        .selectAll()
        .where('member_id', '=', memberId)
        .where(olderThan(cursor, { time: 'created_at', id: 'id' }))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toRecord);
    },
  };
}
