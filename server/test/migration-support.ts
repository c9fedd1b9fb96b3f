import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { StoreConfig } from '../src/store/index.js';
import { migrationProvider } from '../src/store/migrations.js';

/**
 * The database `settings` name, opened without the store and its migrations, and a migrator over it: for tests
 * that write rows as an older schema had them, then open the store to migrate them.
 */
export async function rawDatabase<Tables>(settings: StoreConfig) {
  const schema = settings.databaseSchema;
  const db = settings.databaseUrl
    ? new Kysely<Tables>({
        dialect: new PostgresDialect({
          pool: new pg.Pool({
            connectionString: settings.databaseUrl,
            options: `-c search_path=${schema ?? 'public'}`,
          }),
        }),
      })
    : new Kysely<Tables>({ dialect: new SqliteDialect({ database: new BetterSqlite3(settings.sqlite) }) });
  if (schema) await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  const migrator = new Migrator({
    db,
    provider: migrationProvider,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  return { db, migrator };
}

/** The name of the migration that comes before `name`. @throws when there is none */
export async function migrationBefore(name: string): Promise<string> {
  const names = Object.keys(await migrationProvider.getMigrations()).sort();
  const before = names[names.indexOf(name) - 1];
  if (!before) throw new Error(`no migration before ${name}`);
  return before;
}
