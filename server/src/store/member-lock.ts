import { sql, type QueryExecutorProvider } from 'kysely';

/**
 * Holds a member's row until the transaction `trx` ends, so that one member's counted writes (feedback, blocks,
 * addresses) run one after another: on PostgreSQL by locking the row (`SELECT ... FOR UPDATE`); SQLite writes one
 * transaction at a time anyway.
 */
export async function holdMember(
  trx: QueryExecutorProvider,
  memberId: string,
  dialect: 'sqlite' | 'postgres',
): Promise<void> {
  if (dialect === 'postgres') await sql`select id from members where id = ${memberId} for update`.execute(trx);
}
