import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

/** The searched text of a table (`contains.ts`, `containsAny`): its columns, all lower-cased by the search. */
type Searched = ReadonlyArray<{ table: string; columns: readonly string[] }>;

/** On SQLite: a trigram index of `table`'s `columns` in `<table>_search`, which triggers keep with the table. */
async function sqliteIndex(db: Kysely<unknown>, table: string, columns: readonly string[]): Promise<void> {
  const index = `${table}_search`;
  const cols = columns.join(', ');
  const news = columns.map((c) => `new.${c}`).join(', ');
  const olds = columns.map((c) => `old.${c}`).join(', ');
  // Trusted names from the list above, never input.
  const statements = [
    `create virtual table ${index} using fts5(${cols}, content='${table}', content_rowid='rowid', tokenize='trigram')`,
    `create trigger ${index}_insert after insert on ${table} begin
       insert into ${index}(rowid, ${cols}) values (new.rowid, ${news}); end`,
    `create trigger ${index}_delete after delete on ${table} begin
       insert into ${index}(${index}, rowid, ${cols}) values ('delete', old.rowid, ${olds}); end`,
    `create trigger ${index}_update after update of ${cols} on ${table} begin
       insert into ${index}(${index}, rowid, ${cols}) values ('delete', old.rowid, ${olds});
       insert into ${index}(rowid, ${cols}) values (new.rowid, ${news}); end`,
    `insert into ${index}(${index}) values ('rebuild')`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/**
 * On PostgreSQL: `pg_trgm` (a trusted extension since PostgreSQL 13: a database owner may add it), then a GIN
 * trigram index on `lower(column)` of each searched column. Without the extension (not installed on the server, or
 * no right to add it) nothing is indexed and searches read the table, as before.
 */
async function postgresIndexes(db: Kysely<unknown>, searched: Searched): Promise<void> {
  await sql`savepoint parley_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
    await sql`release savepoint parley_trgm`.execute(db);
  } catch {
    await sql`rollback to savepoint parley_trgm`.execute(db);
  }
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'`.execute(db);
  const schema = rows[0]?.schema;
  if (schema === undefined) return;
  for (const { table, columns } of searched) {
    for (const column of columns) {
      await sql`create index ${sql.id(`${table}_${column}_trgm`)} on ${sql.table(table)}
        using gin (lower(${sql.ref(column)}) ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
    }
  }
}

/** The migration that indexes the searched text of `searched`'s tables (see {@link searchIndexMigration}). */
function searchIndexes(searched: Searched): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (db.getExecutor().adapter instanceof PostgresAdapter) {
        await postgresIndexes(db, searched);
        return;
      }
      for (const { table, columns } of searched) await sqliteIndex(db, table, columns);
    },
    async down(db: Kysely<unknown>) {
      if (db.getExecutor().adapter instanceof PostgresAdapter) {
        for (const { table, columns } of searched) {
          for (const column of columns) {
            await sql`drop index if exists ${sql.id(`${table}_${column}_trgm`)}`.execute(db);
          }
        }
        return;
      }
      for (const { table } of searched) {
        for (const kind of ['insert', 'delete', 'update']) {
          await sql.raw(`drop trigger if exists ${table}_search_${kind}`).execute(db);
        }
        await sql.raw(`drop table if exists ${table}_search`).execute(db);
      }
    },
  };
}

/**
 * `0052_search_index`: indexes for the searches by words (articles' titles and text, members' nicknames), so that a
 * search finds its rows without reading every one: SQLite's FTS5 trigram tables, PostgreSQL's `pg_trgm` indexes.
 * Both serve a search of 3 characters or more; a shorter one reads the table.
 */
export const searchIndexMigration: Migration = searchIndexes([
  { table: 'articles', columns: ['title', 'content'] },
  { table: 'members', columns: ['username'] },
]);

/**
 * `0058_search_index_posts_products`: the same for circle posts' titles and text and products' titles, which the
 * search finds since.
 */
export const postsProductsSearchIndexMigration: Migration = searchIndexes([
  { table: 'circle_posts', columns: ['title', 'content'] },
  { table: 'products', columns: ['title'] },
]);
