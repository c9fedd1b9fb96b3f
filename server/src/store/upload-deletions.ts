import type { Kysely, QueryExecutorProvider } from 'kysely';
import { sql } from 'kysely';
import type { Database } from './schema.js';

/** `upload_deletions` (migration `0051_upload_deletions`). */
type UploadDeletionTables = {
  upload_deletions: { member_id: string; refs: string; kept: string; created_at: number };
};

/** A cancelled member's files to delete: the texts that name them, and those that name files to keep. */
export interface UploadDeletion {
  memberId: string;
  /** What the cancellation deleted that named files: URLs, or JSON lists of them. */
  refs: string[];
  /** What it kept that may name the same files; a file named here stays. */
  kept: string[];
  createdAt: number;
}

/** The files of cancelled accounts waiting to be deleted from the upload storage (MEM-7). */
export interface UploadDeletionStore {
  /** The oldest `limit` waiting. */
  pending(limit: number): Promise<UploadDeletion[]>;
  /** The member's files are gone. */
  done(memberId: string): Promise<void>;
}

/**
 * Every column of a member's rows that names uploaded files, and that a cancellation deletes or empties: the
 * avatar and background, feedback and certification photos, articles' and circle posts' images, videos and covers,
 * and the receipt code of the payout account. `member_id` (or `id` for the member's own row) picks the rows.
 */
const MEDIA_COLUMNS: ReadonlyArray<{ table: string; key: string; columns: readonly string[] }> = [
  { table: 'members', key: 'id', columns: ['img', 'background'] },
  { table: 'member_feedback', key: 'member_id', columns: ['images'] },
  { table: 'member_certifications', key: 'member_id', columns: ['images'] },
  { table: 'articles', key: 'member_id', columns: ['images', 'video_url', 'video_cover'] },
  { table: 'circle_posts', key: 'member_id', columns: ['images', 'video_url', 'video_cover'] },
  { table: 'member_payout_accounts', key: 'member_id', columns: ['wechat_code'] },
];

/** Columns of rows a cancellation keeps that may copy a URL of {@link MEDIA_COLUMNS}: where withdrawals were paid. */
const KEPT_COLUMNS: ReadonlyArray<{ table: string; key: string; columns: readonly string[] }> = [
  { table: 'member_withdrawals', key: 'member_id', columns: ['account'] },
];

async function textsOf(
  trx: QueryExecutorProvider,
  memberId: string,
  sources: ReadonlyArray<{ table: string; key: string; columns: readonly string[] }>,
): Promise<string[]> {
  const texts: string[] = [];
  for (const { table, key, columns } of sources) {
    // Trusted names from the lists above, never input.
    const { rows } = await sql<Record<string, string | null>>`
      select ${sql.join(columns.map((c) => sql.ref(c)))} from ${sql.table(table)}
      where ${sql.ref(key)} = ${memberId}`.execute(trx);
    for (const row of rows) for (const c of columns) if (row[c]) texts.push(row[c]);
  }
  return texts;
}

/**
 * Records, in the cancellation's transaction `trx` and before it deletes anything, the files the member's data
 * names, to be deleted once it has committed (MEM-7). Nothing when it names none.
 */
export async function recordUploadDeletions(trx: QueryExecutorProvider, memberId: string, now: number): Promise<void> {
  const refs = await textsOf(trx, memberId, MEDIA_COLUMNS);
  if (refs.length === 0) return;
  const kept = await textsOf(trx, memberId, KEPT_COLUMNS);
  await sql`
    insert into upload_deletions (member_id, refs, kept, created_at)
    values (${memberId}, ${JSON.stringify(refs)}, ${JSON.stringify(kept)}, ${now})
    on conflict (member_id) do nothing`.execute(trx);
}

/** The Kysely implementation of {@link UploadDeletionStore}. */
export function createUploadDeletionStore(base: Kysely<Database>): UploadDeletionStore {
  const db = base.withTables<UploadDeletionTables>();
  return {
    async pending(limit) {
      const rows = await db
        .selectFrom('upload_deletions')
        .selectAll()
        .orderBy('created_at')
        .orderBy('member_id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        memberId: row.member_id,
        refs: JSON.parse(row.refs) as string[],
        kept: JSON.parse(row.kept) as string[],
        createdAt: Number(row.created_at),
      }));
    },
    async done(memberId) {
      await db.deleteFrom('upload_deletions').where('member_id', '=', memberId).execute();
    },
  };
}
