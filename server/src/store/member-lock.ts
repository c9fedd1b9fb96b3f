import { sql, type Kysely, type QueryExecutorProvider, type Transaction } from 'kysely';

/**
 * Holds a member's row until the transaction `trx` ends, so that one member's counted writes (feedback, blocks,
 * addresses, follows) run one after another: on PostgreSQL by locking the row (`SELECT ... FOR UPDATE`); SQLite
 * writes one transaction at a time anyway.
 */
export async function holdMember(
  trx: QueryExecutorProvider,
  memberId: string,
  dialect: 'sqlite' | 'postgres',
): Promise<void> {
  if (dialect === 'postgres') await sql`select id from members where id = ${memberId} for update`.execute(trx);
}

/**
 * Holds a member's row until `trx` ends (see {@link holdMember}) and tells whether their account is open: false when
 * there is no such member or they cancelled, so that a write of theirs is refused in the transaction that makes it.
 */
export async function holdOpenMember(
  trx: QueryExecutorProvider,
  memberId: string,
  dialect: 'sqlite' | 'postgres',
): Promise<boolean> {
  await holdMember(trx, memberId, dialect);
  const { rows } = await sql`select id from members where id = ${memberId} and cancelled_at is null`.execute(trx);
  return rows.length > 0;
}

/**
 * Holds the rows of two members (a blocker and the blocked, a follower and the followed) until `trx` ends, always in
 * the same order, so that writes between the same two members run one after another and never wait on each other in
 * a circle.
 */
export async function holdMembers(
  trx: QueryExecutorProvider,
  ids: readonly [string, string],
  dialect: 'sqlite' | 'postgres',
): Promise<void> {
  for (const id of [...new Set(ids)].sort()) await holdMember(trx, id, dialect);
}

/**
 * Adds a member's row to `table` (their articles, their circle posts) unless they added `max` or more since `since`
 * (`limit`), or are gone or cancelled (`missing`): one transaction that holds the member's row, so that rows sent at
 * once are counted. `insert` writes the row. The table's name is trusted, never input.
 */
export async function insertCounted<DB>(
  db: Kysely<DB>,
  dialect: 'sqlite' | 'postgres',
  params: {
    table: string;
    memberId: string;
    since: number;
    max: number;
    insert: (trx: Transaction<DB>) => Promise<unknown>;
  },
): Promise<'ok' | 'limit' | 'missing'> {
  const { table, memberId, since, max } = params;
  return db.transaction().execute(async (trx) => {
    if (!(await holdOpenMember(trx, memberId, dialect))) return 'missing';
    const { rows } = await sql<{ count: string | number }>`
      select count(*) as count from ${sql.table(table)} where member_id = ${memberId} and created_at > ${since}`.execute(
      trx,
    );
    if (Number(rows[0]?.count ?? 0) >= max) return 'limit';
    await params.insert(trx);
    return 'ok';
  });
}
