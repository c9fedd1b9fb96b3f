import type { Kysely, Migration } from 'kysely';

/** `0008_member_username_changed`: when a member last changed their nickname (spec: once a month). */
export const memberUsernameMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('members').addColumn('username_changed_at', 'bigint').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('members').dropColumn('username_changed_at').execute();
  },
};
