import type { Kysely, Migration } from 'kysely';

/**
 * `0028_article_channels`: the channels articles are filed under (spec §2 article/typeid, "At least one channel must
 * remain"): the operator's channels in their order, the channels each member chose for the front page in the
 * member's order, and the channel of each article, indexed for a channel's feed newest first.
 */
export const articleChannelsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('article_channels')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('is_default', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('member_channels')
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('channel_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('member_channels_pk', ['member_id', 'channel_id'])
      .execute();
    await db.schema.alterTable('articles').addColumn('channel_id', 'varchar(32)').execute();
    await db.schema
      .createIndex('articles_by_channel')
      .on('articles')
      .columns(['channel_id', 'created_at', 'id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('articles_by_channel').execute();
    await db.schema.alterTable('articles').dropColumn('channel_id').execute();
    await db.schema.dropTable('member_channels').execute();
    await db.schema.dropTable('article_channels').execute();
  },
};
