import { sql, type Expression, type SqlBool } from 'kysely';

/**
 * The condition that `column` holds `words`, in any case: a `LIKE` whose wildcards in `words` are escaped, so that
 * `%` and `_` are searched for as themselves. The column is a trusted name, never input.
 */
export function contains(column: string, words: string): Expression<SqlBool> {
  const pattern = `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`lower(${sql.ref(column)}) like lower(${pattern}) escape '\\'`;
}
