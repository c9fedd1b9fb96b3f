import type { Kysely, Migration } from 'kysely';

/**
 * `0006_im_heads`: the head of a group conversation (its newest message time and the data its latest sender sent),
 * kept once per group instead of on every member's row. A group message used to rewrite all its members' rows
 * (and their list index); now it writes one head, and a member's row only when it is new or was removed. Member
 * rows written before this keep their own values, and a conversation shows the newer of row and head.
 */
export const imHeadsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('im_conversation_heads')
      .addColumn('appkey', 'varchar(128)', (c) => c.notNull())
      .addColumn('conv_key', 'varchar(300)', (c) => c.notNull())
      .addColumn('last_ts', 'bigint', (c) => c.notNull())
      // Null until a sender gives data; then the members' rows' own data is hidden.
      .addColumn('data', 'text')
      .addPrimaryKeyConstraint('im_conversation_heads_pk', ['appkey', 'conv_key'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('im_conversation_heads').execute();
  },
};
