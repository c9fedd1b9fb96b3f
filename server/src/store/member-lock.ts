import { sql, type QueryExecutorProvider } from 'kysely';

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
