import { sql, type Expression, type SqlBool } from 'kysely';

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
