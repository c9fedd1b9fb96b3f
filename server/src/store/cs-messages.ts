import type { Kysely } from 'kysely';
import type { CsMessagesTable, Database } from './schema.js';

/** A customer-service message, keyed by its team and customer; the service assigns its timestamp. */
export interface CsStoredMessage {
  teamId: string;
  customerId: string;
  ts: number;
  messageId: string;
  senderId: string;
  /** The team id when the customer sent it, else the customer id. */
  to: string;
  type: string;
  /** JSON. */
  payload: string;
  /** JSON. */
  senderData: string;
  accepted: boolean;
  sessionId: number;
}

/** Which conversation: one customer with one team of one app. */
export interface CsConversationKey {
  appkey: string;
  teamId: string;
  customerId: string;
}

/** Customer-service messages in storage. */
export interface CsMessageStore {
  /** Stores a message; its timestamp must be new in its conversation (the service serialises appends). */
  append(appkey: string, message: CsStoredMessage): Promise<void>;
  /** The message `senderId` sent with this messageId, if stored (the publishIM idempotency key). */
  byGuid(appkey: string, senderId: string, messageId: string): Promise<CsStoredMessage | undefined>;
  /** The message at `ts`, if any. */
  at(key: CsConversationKey, ts: number): Promise<CsStoredMessage | undefined>;
  /** The newest `limit` messages with ts < `before` (all when undefined), oldest first. */
  page(key: CsConversationKey, before: number | undefined, limit: number): Promise<CsStoredMessage[]>;
  /** The oldest `limit` messages with ts > `after`, oldest first (IM-24's replay). */
  since(key: CsConversationKey, after: number, limit: number): Promise<CsStoredMessage[]>;
  /** Messages with ts in (`after`, `upTo`] whose sender is (`from`) or is not (`notFrom`) a user. */
  count(
    key: CsConversationKey,
    params: { after: number; upTo?: number; from?: string; notFrom?: string },
  ): Promise<number>;
}

/** The Kysely implementation of {@link CsMessageStore}. */
export function createCsMessageStore(db: Kysely<Database>): CsMessageStore {
  const conversation = ({ appkey, teamId, customerId }: CsConversationKey) =>
    db
      .selectFrom('cs_messages')
      .where('appkey', '=', appkey)
      .where('team_id', '=', teamId)
      .where('customer_id', '=', customerId);

  return {
    async append(appkey, m) {
      await db
        .insertInto('cs_messages')
        .values({
          appkey,
          team_id: m.teamId,
          customer_id: m.customerId,
          ts: m.ts,
          message_id: m.messageId,
          sender_id: m.senderId,
          to_id: m.to,
          type: m.type,
          payload: m.payload,
          sender_data: m.senderData,
          accepted: m.accepted ? 1 : 0,
          session_id: m.sessionId,
        })
        .execute();
    },
    async byGuid(appkey, senderId, messageId) {
      const row = await db
        .selectFrom('cs_messages')
        .selectAll()
        .where('appkey', '=', appkey)
        .where('sender_id', '=', senderId)
        .where('message_id', '=', messageId)
        .executeTakeFirst();
      return row && toMessage(row);
    },
    async at(key, ts) {
      const row = await conversation(key).selectAll().where('ts', '=', ts).executeTakeFirst();
      return row && toMessage(row);
    },
    async page(key, before, limit) {
      let query = conversation(key).selectAll();
      if (before !== undefined) query = query.where('ts', '<', before);
      const rows = await query.orderBy('ts', 'desc').limit(limit).execute();
      return rows.map(toMessage).reverse();
    },
    async since(key, after, limit) {
      const rows = await conversation(key).selectAll().where('ts', '>', after).orderBy('ts').limit(limit).execute();
      return rows.map(toMessage);
    },
    async count(key, { after, upTo, from, notFrom }) {
      let query = conversation(key)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('ts', '>', after);
      if (upTo !== undefined) query = query.where('ts', '<=', upTo);
      if (from !== undefined) query = query.where('sender_id', '=', from);
      if (notFrom !== undefined) query = query.where('sender_id', '<>', notFrom);
      const row = await query.executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  };
}

function toMessage(row: CsMessagesTable): CsStoredMessage {
  return {
    teamId: row.team_id,
    customerId: row.customer_id,
    ts: Number(row.ts),
    messageId: row.message_id,
    senderId: row.sender_id,
    to: row.to_id,
    type: row.type,
    payload: row.payload,
    senderData: row.sender_data,
    accepted: Number(row.accepted) === 1,
    sessionId: Number(row.session_id),
  };
}
