import type { Kysely, Migration } from 'kysely';

/**
 * `0043_comment_replies`: a comment on an article or a circle post may answer another comment on it: `reply_to` names
 * that comment and `reply_to_member` its writer, kept so that the answer reads "to @name" after the comment it
 * answers is deleted. Both are null for a comment that answers none.
 */
export const commentRepliesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const table of ['article_comments', 'circle_comments']) {
      await db.schema.alterTable(table).addColumn('reply_to', 'varchar(32)').execute();
      await db.schema.alterTable(table).addColumn('reply_to_member', 'varchar(64)').execute();
    }
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['article_comments', 'circle_comments']) {
      await db.schema.alterTable(table).dropColumn('reply_to_member').execute();
      await db.schema.alterTable(table).dropColumn('reply_to').execute();
    }
  },
};
