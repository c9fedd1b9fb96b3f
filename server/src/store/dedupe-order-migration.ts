import type { Kysely, Migration } from 'kysely';

/** The idempotency indexes of publishIM: one per message table. */
const DEDUPE_INDEXES = [
  { index: 'im_messages_dedupe', table: 'im_messages' },
  { index: 'cs_messages_dedupe', table: 'cs_messages' },
] as const;

/**
 * `0010_dedupe_by_message_id`: the idempotency key of a message, (appkey, sender, message id), indexed with the
 * message id before the sender. The same rows are unique either way and a look-up names all three; but the SDK's ids
 * begin with their time (`timeOrderedHexId`), so in this order new ids land at the index's end, where the messages of
 * one commit share a page or two, instead of one page each at their sender's place. Ids without an order (the
 * reference client's) cost what they cost before.
 */
export const dedupeOrderMigration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const { index, table } of DEDUPE_INDEXES) {
      await db.schema.dropIndex(index).execute();
      await db.schema.createIndex(index).on(table).columns(['appkey', 'message_id', 'sender_id']).unique().execute();
    }
  },
  async down(db: Kysely<unknown>) {
    for (const { index, table } of DEDUPE_INDEXES) {
      await db.schema.dropIndex(index).execute();
      await db.schema.createIndex(index).on(table).columns(['appkey', 'sender_id', 'message_id']).unique().execute();
    }
  },
};
