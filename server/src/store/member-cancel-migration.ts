import type { Kysely, Migration } from 'kysely';

/**
 * `0014_member_cancelled`: when a member cancelled their account, and the reason they gave (spec §2 member/out, §5).
 * A cancelled member's row stays, without phone, nickname or avatar, so that their id is never given to someone else.
 */
export const memberCancelMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('members').addColumn('cancelled_at', 'bigint').execute();
    await db.schema.alterTable('members').addColumn('cancel_reason', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('members').dropColumn('cancel_reason').execute();
    await db.schema.alterTable('members').dropColumn('cancelled_at').execute();
  },
};
