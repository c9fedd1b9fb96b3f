import { sql, type Expression, type QueryExecutorProvider, type SqlBool } from 'kysely';

/** Where a page of a newest-first list ended: the time and the id of its last row. */
export interface Keyset {
  at: number;
  id: string;
}

/**
 * The condition for the next page of a newest-first list (ordered by `time`, then `id`, both descending) after
 * `last`: rows older than it, or as old with a lower id. True for every row without `last`. The columns are trusted
 * names, never input.
 */
export function olderThan(last: Keyset | undefined, columns: { time: string; id: string }): Expression<SqlBool> {
  if (!last) return sql<SqlBool>`1 = 1`;
  const time = sql.ref(columns.time);
  const id = sql.ref(columns.id);
  return sql<SqlBool>`(${time} < ${last.at} or (${time} = ${last.at} and ${id} < ${last.id}))`;
}

/**
 * The condition for the next page of an oldest-first list (ordered by `time`, then `id`, both ascending) after
 * `last`: rows newer than it, or as new with a higher id. True for every row without `last`. The columns are trusted
 * names, never input.
 */
export function newerThan(last: Keyset | undefined, columns: { time: string; id: string }): Expression<SqlBool> {
  if (!last) return sql<SqlBool>`1 = 1`;
  const time = sql.ref(columns.time);
  const id = sql.ref(columns.id);
  return sql<SqlBool>`(${time} > ${last.at} or (${time} = ${last.at} and ${id} > ${last.id}))`;
}

/**
 * Where a page ended, from the id of its last row: the `created_at` and `id` of row `id` of `table` (with `scope`,
 * only if its `column` holds `value`, such as the member whose list it is). Undefined without `id`; `missing` when
 * there is no such row, which callers answer as a bad cursor. The names are trusted, never input.
 */
export async function keysetOf(
  db: QueryExecutorProvider,
  table: string,
  id: string | undefined,
  scope?: { column: string; value: string },
): Promise<Keyset | undefined | 'missing'> {
  if (id === undefined) return undefined;
  const within = scope ? sql` and ${sql.ref(scope.column)} = ${scope.value}` : sql``;
  const { rows } = await sql<{ created_at: number | string; id: string }>`
    select created_at, id from ${sql.table(table)} where id = ${id}${within}`.execute(db);
  const row = rows[0];
  return row ? { at: Number(row.created_at), id: row.id } : 'missing';
}
