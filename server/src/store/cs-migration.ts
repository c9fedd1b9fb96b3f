import type { Kysely, Migration } from 'kysely';

/**
 * `0004_cs`: customer service. Team membership with each agent's online flag (persisted: the reference client
 * never sends `CS_ONLINE` again after a reconnect), one session row per customer and team, the CS messages, and
 * each participant's conversation row. Read offsets live in `im_read_offsets` under a `cs:` conversation key.
 */
export const csMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const id = 'varchar(128)';
    await db.schema
      .createTable('cs_agents')
      .addColumn('appkey', id, (c) => c.notNull())
      .addColumn('team_id', id, (c) => c.notNull())
      .addColumn('agent_id', id, (c) => c.notNull())
      .addColumn('agent_data', 'text', (c) => c.notNull())
      .addColumn('team_data', 'text', (c) => c.notNull())
      .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('cs_agents_pk', ['appkey', 'team_id', 'agent_id'])
      .execute();
    // CS_MY_TEAMS: one agent's teams.
    await db.schema.createIndex('cs_agents_by_agent').on('cs_agents').columns(['appkey', 'agent_id']).execute();
    await db.schema
      .createTable('cs_sessions')
      .addColumn('appkey', id, (c) => c.notNull())
      .addColumn('team_id', id, (c) => c.notNull())
      .addColumn('customer_id', id, (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('session_id', 'bigint', (c) => c.notNull())
      .addColumn('start', 'bigint', (c) => c.notNull())
      .addColumn('agent_id', id)
      .addColumn('agent_data', 'text')
      .addColumn('customer_data', 'text', (c) => c.notNull())
      .addColumn('last_ts', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('cs_sessions_pk', ['appkey', 'team_id', 'customer_id'])
      .execute();
    // The pending list of a team, and the accepted customers of an agent.
    await db.schema
      .createIndex('cs_sessions_by_status')
      .on('cs_sessions')
      .columns(['appkey', 'team_id', 'status'])
      .execute();
    await db.schema
      .createTable('cs_messages')
      .addColumn('appkey', id, (c) => c.notNull())
      .addColumn('team_id', id, (c) => c.notNull())
      .addColumn('customer_id', id, (c) => c.notNull())
      .addColumn('ts', 'bigint', (c) => c.notNull())
      .addColumn('message_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('sender_id', id, (c) => c.notNull())
      .addColumn('to_id', id, (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('sender_data', 'text', (c) => c.notNull())
      .addColumn('accepted', 'integer', (c) => c.notNull())
      .addColumn('session_id', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('cs_messages_pk', ['appkey', 'team_id', 'customer_id', 'ts'])
      .execute();
    // The idempotency key of publishIM, as for chat messages.
    await db.schema
      .createIndex('cs_messages_dedupe')
      .on('cs_messages')
      .columns(['appkey', 'sender_id', 'message_id'])
      .unique()
      .execute();
    await db.schema
      .createTable('cs_conversations')
      .addColumn('appkey', id, (c) => c.notNull())
      .addColumn('owner_id', id, (c) => c.notNull())
      .addColumn('team_id', id, (c) => c.notNull())
      .addColumn('customer_id', id, (c) => c.notNull())
      .addColumn('top', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('removed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('last_ts', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('cs_conversations_pk', ['appkey', 'owner_id', 'team_id', 'customer_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['cs_conversations', 'cs_messages', 'cs_sessions', 'cs_agents']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
