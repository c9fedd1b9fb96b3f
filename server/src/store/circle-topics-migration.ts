import type { Kysely, Migration } from 'kysely';

/**
 * `0030_circle_topics`: the operator's topics of the circle (spec §2 topic/index, topic/list; §8 "topic does not
 * exist or was deleted"): a removed one keeps its row with the time, so that a link to it says it was deleted; and the
 * topic of each circle post, indexed for a topic's posts newest first.
 */
export const circleTopicsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('circle_topics')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('title', 'varchar(64)', (c) => c.notNull())
      .addColumn('intro', 'varchar(1024)', (c) => c.notNull())
      .addColumn('img', 'varchar(1024)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('deleted_at', 'bigint')
      .execute();
    await db.schema.alterTable('circle_posts').addColumn('topic_id', 'varchar(32)').execute();
    await db.schema
      .createIndex('circle_posts_by_topic')
      .on('circle_posts')
      .columns(['topic_id', 'created_at', 'id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('circle_posts_by_topic').execute();
    await db.schema.alterTable('circle_posts').dropColumn('topic_id').execute();
    await db.schema.dropTable('circle_topics').execute();
  },
};
