import { sql, type Kysely, type QueryExecutorProvider } from 'kysely';
import { newerThan, type Keyset } from './keyset.js';
import { holdOpenMember } from './member-lock.js';
import type { Database } from './schema.js';

/** Where a shop's application stands (spec §4): under review, rejected with a reason (resubmit), or approved. */
export type ShopStatus = 'pending' | 'rejected' | 'approved';

/** A member's shop: what its application says, and its review. */
export interface ShopRecord {
  id: string;
  memberId: string;
  name: string;
  /** The URL of the shop's icon, an image its member uploaded. */
  icon: string;
  intro: string;
  status: ShopStatus;
  /** Why it was rejected; empty otherwise. */
  reason: string;
  submittedAt: number;
  reviewedAt?: number;
}

/**
 * What an application came to: stored, or refused (nothing changed): `uncertified` when the member's real-name
 * certification has not passed, `pending` while one is under review, `approved` once the shop is open, `name_taken`
 * when another shop under review or open has the name, `missing` when the member is gone.
 */
export type ShopApplyOutcome = 'ok' | 'uncertified' | 'pending' | 'approved' | 'name_taken' | 'missing';

/** Members' shops and their applications. */
export interface ShopStore {
  /** The member's shop, whatever its status. */
  byMember(memberId: string): Promise<ShopRecord | undefined>;
  /** Shop `id`, whatever its status. */
  byId(id: string): Promise<ShopRecord | undefined>;
  /**
   * Stores the member's application under review: a first one, or one replacing a rejected one (the shop keeps its
   * id). The checks and the write are one step, so that two members asking for one name at once get it once.
   */
  apply(record: Omit<ShopRecord, 'status' | 'reason' | 'reviewedAt'>): Promise<ShopApplyOutcome>;
  /**
   * The operator's review of shop `id`'s application made at `submittedAt`, if it is under review: approved, or
   * rejected with `reason`. Undefined, and nothing changed, otherwise.
   */
  review(
    id: string,
    params: { submittedAt: number; pass: boolean; reason: string; now: number },
  ): Promise<ShopRecord | undefined>;
  /**
   * Shops in `status`, oldest application first, at most `limit`; with `after` (an id listed), only those after it.
   * Undefined when `after` is not in that status.
   */
  list(params: { status: ShopStatus; after?: string | undefined; limit: number }): Promise<ShopRecord[] | undefined>;
}

type ShopTables = {
  shops: {
    id: string;
    member_id: string;
    name: string;
    icon: string;
    intro: string;
    status: string;
    reason: string;
    submitted_at: number;
    reviewed_at: number | null;
  };
  member_certifications: { member_id: string; status: string };
};

const recordOf = (row: ShopTables['shops']): ShopRecord => ({
  id: row.id,
  memberId: row.member_id,
  name: row.name,
  icon: row.icon,
  intro: row.intro,
  status: row.status as ShopStatus,
  reason: row.reason,
  submittedAt: Number(row.submitted_at),
  ...(row.reviewed_at !== null && { reviewedAt: Number(row.reviewed_at) }),
});

/**
 * Holds the shops' names until `trx` ends, so that a name is checked and written in one step: on PostgreSQL with a
 * lock of the transaction; SQLite writes one transaction at a time anyway.
 */
async function holdShopNames(trx: QueryExecutorProvider, dialect: 'sqlite' | 'postgres'): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('shop_names'))`.execute(trx);
}

/** The Kysely implementation of {@link ShopStore}. */
export function createShopStore(base: Kysely<Database>, dialect: 'sqlite' | 'postgres'): ShopStore {
  const db = base.withTables<ShopTables>();
  return {
    async byMember(memberId) {
      const row = await db.selectFrom('shops').selectAll().where('member_id', '=', memberId).executeTakeFirst();
      return row && recordOf(row);
    },
    async byId(id) {
      const row = await db.selectFrom('shops').selectAll().where('id', '=', id).executeTakeFirst();
      return row && recordOf(row);
    },
    async apply(record) {
      return db.transaction().execute(async (trx) => {
        if (!(await holdOpenMember(trx, record.memberId, dialect))) return 'missing';
        const certified = await trx
          .selectFrom('member_certifications')
          .select('status')
          .where('member_id', '=', record.memberId)
          .where('status', '=', 'passed')
          .executeTakeFirst();
        if (!certified) return 'uncertified';
        const mine = await trx
          .selectFrom('shops')
          .select(['id', 'status'])
          .where('member_id', '=', record.memberId)
          .executeTakeFirst();
        if (mine?.status === 'pending' || mine?.status === 'approved') return mine.status;
        await holdShopNames(trx, dialect);
        const taken = await trx
          .selectFrom('shops')
          .select('id')
          .where('name', '=', record.name)
          .where('member_id', '!=', record.memberId)
          .where('status', 'in', ['pending', 'approved'])
          .executeTakeFirst();
        if (taken) return 'name_taken';
        const values = {
          name: record.name,
          icon: record.icon,
          intro: record.intro,
          status: 'pending',
          reason: '',
          submitted_at: record.submittedAt,
          reviewed_at: null,
        };
        if (mine) await trx.updateTable('shops').set(values).where('id', '=', mine.id).execute();
        else
          await trx
            .insertInto('shops')
            .values({ id: record.id, member_id: record.memberId, ...values })
            .execute();
        return 'ok';
      });
    },
    async review(id, { submittedAt, pass, reason, now }) {
      const row = await db
        .updateTable('shops')
        .set({ status: pass ? 'approved' : 'rejected', reason: pass ? '' : reason, reviewed_at: now })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('submitted_at', '=', submittedAt)
        .returningAll()
        .executeTakeFirst();
      return row && recordOf(row);
    },
    async list({ status, after, limit }) {
      let cursor: Keyset | undefined;
      if (after !== undefined) {
        const found = await db
          .selectFrom('shops')
          .select(['id', 'submitted_at'])
          .where('id', '=', after)
          .where('status', '=', status)
          .executeTakeFirst();
        if (!found) return undefined;
        cursor = { at: Number(found.submitted_at), id: found.id };
      }
      const rows = await db
        .selectFrom('shops')
        .selectAll()
        .where('status', '=', status)
        .where(newerThan(cursor, { time: 'submitted_at', id: 'id' }))
        .orderBy('submitted_at', 'asc')
        .orderBy('id', 'asc')
        .limit(limit)
        .execute();
      return rows.map(recordOf);
    },
  };
}
