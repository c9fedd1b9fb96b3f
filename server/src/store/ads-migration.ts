import type { Kysely, Migration } from 'kysely';

/**
 * `0045_ads`: the operator's ads (spec §3 Ad: id, url, title; §7 `ad/click`), each shown in the banner of one tab of the
 * app, with how many times it was shown and clicked. The app reads a tab's ads by the index on position and order.
 */
export const adsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('ads')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('title', 'varchar(200)', (c) => c.notNull())
      .addColumn('img', 'varchar(1024)', (c) => c.notNull())
      .addColumn('url', 'varchar(1024)', (c) => c.notNull())
      // The tab whose banner shows it: article, video, quanzi or shop.
      .addColumn('position', 'varchar(16)', (c) => c.notNull())
      .addColumn('sort', 'integer', (c) => c.notNull())
      // When it shows, in milliseconds; null for no bound.
      .addColumn('starts_at', 'bigint')
      .addColumn('ends_at', 'bigint')
      .addColumn('impressions', 'bigint', (c) => c.notNull())
      .addColumn('clicks', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('deleted_at', 'bigint')
      .execute();
    await db.schema.createIndex('ads_by_position').on('ads').columns(['position', 'sort']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('ads').execute();
  },
};
