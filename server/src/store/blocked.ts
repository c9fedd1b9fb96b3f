import { sql, type Expression, type SqlBool } from 'kysely';

/**
 * The condition that no block stands between `viewerId` and the member in `column`, either way (spec §5 "Blocked
 * users cannot see each other's works"). The column is a trusted name, never input.
 */
export function notBlockedWith(viewerId: string, column: string): Expression<SqlBool> {
  const other = sql.ref(column);
  return sql<SqlBool>`not exists (select 1 from member_blocks where (member_blocks.member_id = ${viewerId} and member_blocks.blocked_id = ${other}) or (member_blocks.member_id = ${other} and member_blocks.blocked_id = ${viewerId}))`;
}
