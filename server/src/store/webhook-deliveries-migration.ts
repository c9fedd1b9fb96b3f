import type { Kysely, Migration } from 'kysely';

/**
 * `0053_webhook_deliveries`: webhook deliveries not yet answered 2xx nor given up (HOOK-8), so that a node stopping
 * or failing leaves them to its next start or to another node; and each node's heartbeat, which says whose held
 * deliveries may be taken.
 */
export const webhookDeliveriesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('webhook_deliveries')
      // The body's id, the same on each attempt (HOOK-2).
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('appkey', 'varchar(64)', (c) => c.notNull())
      // The JSON body, as it is posted and signed.
      .addColumn('body', 'text', (c) => c.notNull())
      // Attempts made so far.
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      // The node that holds it in memory; null when none does (left at a close, or past a node's queue).
      .addColumn('owner', 'varchar(64)')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_created')
      .on('webhook_deliveries')
      .columns(['created_at', 'id'])
      .execute();
    await db.schema
      .createTable('webhook_nodes')
      .addColumn('node_id', 'varchar(64)', (c) => c.primaryKey())
      // Past this time (ms) the node counts as gone, and what it holds may be taken.
      .addColumn('alive_until', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('webhook_nodes').execute();
    await db.schema.dropTable('webhook_deliveries').execute();
  },
};
