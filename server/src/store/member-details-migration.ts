import type { Kysely, Migration } from 'kysely';

/**
 * `0015_member_details`: the rest of a member's profile (spec §3 profile labels): gender, birthday, region, brief
 * introduction (the signature, `qianming`) and background image. Empty until the member sets them; gender `hidden`.
 */
export const memberDetailsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const add = (column: string, type: 'varchar(8)' | 'varchar(10)' | 'varchar(128)' | 'text', empty: string) =>
      db.schema
        .alterTable('members')
        .addColumn(column, type, (c) => c.notNull().defaultTo(empty))
        .execute();
    await add('gender', 'varchar(8)', 'hidden');
    await add('birthday', 'varchar(10)', '');
    await add('region', 'varchar(128)', '');
    await add('intro', 'text', '');
    await add('background', 'text', '');
  },
  async down(db: Kysely<unknown>) {
    for (const column of ['background', 'intro', 'region', 'birthday', 'gender']) {
      await db.schema.alterTable('members').dropColumn(column).execute();
    }
  },
};
