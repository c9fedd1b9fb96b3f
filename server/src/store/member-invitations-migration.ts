import type { Kysely, Migration } from 'kysely';

/**
 * `0023_member_invitations`: invitations (spec §1 "gold-coin task centre with daily sign-in, invitations", §2
 * renwu/yaoqing): who signed up with whose invitation code, once each, and the coins it paid the inviter. Read by the
 * inviter, newest first. A hash of the invitee's phone is unique, so that a phone is invited once even when its account
 * is cancelled and signed up again.
 */
export const memberInvitationsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('member_invitations')
      .addColumn('invitee_id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('inviter_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('phone_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('coins', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('member_invitations_by_inviter')
      .on('member_invitations')
      .columns(['inviter_id', 'created_at', 'invitee_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('member_invitations').execute();
  },
};
