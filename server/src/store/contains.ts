import { sql, type Expression, type SqlBool } from 'kysely';

/**
 * The condition that `column` holds `words`, in any case: a `LIKE` whose wildcards in `words` are escaped, so that
 * `%` and `_` are searched for as themselves. The column is a trusted name, never input.
 */
export function contains(column: string, words: string): Expression<SqlBool> {
  const pattern = `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`lower(${sql.ref(column)}) like lower(${pattern}) escape '\\'`;
}

/** Characters a search needs for the trigram indexes to find its rows (migration `0052_search_index`). */
export const SEARCH_INDEX_MIN_CHARS = 3;

/**
 * The condition that one of `columns` of `table` holds `words`, in any case ({@link contains} on each). On SQLite,
 * words the trigram index can look up (3 characters or more, no wildcard character) first narrow the rows to those
 * `<table>_search` finds, which may be more (it folds case beyond ASCII) but never fewer; the `LIKE`s then decide.
 * On PostgreSQL the trigram indexes on `lower(column)` serve the `LIKE`s themselves. Names are trusted, never input.
 */
export function containsAny(
  table: string,
  columns: readonly string[],
  words: string,
  dialect: 'sqlite' | 'postgres',
): Expression<SqlBool> {
  const exact = sql<SqlBool>`(${sql.join(
    columns.map((column) => contains(`${table}.${column}`, words)),
    sql` or `,
  )})`;
  const indexed = [...words].length >= SEARCH_INDEX_MIN_CHARS && !/[\\%_]/.test(words);
  if (dialect !== 'sqlite' || !indexed) return exact;
  const pattern = `%${words}%`;
  const found = sql.join(
    columns.map((column) => sql`${sql.ref(column)} like ${pattern}`),
    sql` or `,
  );
  return sql<SqlBool>`(${sql.ref(`${table}.rowid`)} in (select rowid from ${sql.table(`${table}_search`)} where ${found}) and ${exact})`;
}
