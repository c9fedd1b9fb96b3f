import type { Kysely, Migration, MigrationProvider } from 'kysely';

/**
 * The one migration set, valid on SQLite and PostgreSQL: only portable column types (`varchar`, `bigint`) and
 * Kysely's schema builder. Names sort in the order they apply; never edit one that has shipped, add a new one.
 */
const MIGRATIONS: Record<string, Migration> = {
  '0001_sessions': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('sessions')
        .addColumn('sid', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('appkey', 'varchar(128)', (c) => c.notNull())
        .addColumn('user_id', 'varchar(64)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .execute();
      // deleteExpired scans by last_seen_at.
      await db.schema.createIndex('sessions_last_seen_at').on('sessions').column('last_seen_at').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('sessions').execute();
    },
  },
};

/** Serves {@link MIGRATIONS} to Kysely's Migrator from code, so nothing is read from disk at run time. */
export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(MIGRATIONS),
};
