import { sql, type Kysely, type QueryExecutorProvider, type Transaction } from 'kysely';
import { holdMember } from './member-lock.js';
import type { Database } from './schema.js';

/** A channel articles are filed under, as the operator set it up. */
export interface ChannelRecord {
  id: string;
  name: string;
  /** Where it stands in the operator's order, lowest first. */
  position: number;
  /** Whether the front page of a member who has not chosen shows it. */
  isDefault: boolean;
  createdAt: number;
}

/** What adding or renaming came to: done, another channel has that name, or there are `max` channels already. */
export type ChannelOutcome = 'ok' | 'name_taken' | 'limit';

/** The operator's article channels and the ones each member chose for the front page. */
export interface ChannelStore {
  /** Every channel, in the operator's order (position, then the oldest first). */
  all(): Promise<ChannelRecord[]>;
  /** Adds a channel unless its name is taken or there are `max` channels; the check and the write are one step. */
  add(record: ChannelRecord, max: number): Promise<ChannelOutcome>;
  /** Changes a channel: undefined when there is no channel `id`. */
  update(
    id: string,
    changes: { name?: string | undefined; position?: number | undefined; isDefault?: boolean | undefined },
  ): Promise<ChannelOutcome | undefined>;
  /** Removes a channel and every member's choice of it; its articles stay, in no channel. False when none. */
  remove(id: string): Promise<boolean>;
  /** The ids of the channels the member chose, in their order; those since removed are left out. */
  chosen(memberId: string): Promise<string[]>;
  /** Replaces the member's choice with `ids`, in that order. */
  choose(memberId: string, ids: readonly string[]): Promise<void>;
}

type ChannelTables = {
  article_channels: { id: string; name: string; position: number; is_default: number; created_at: number };
  member_channels: { member_id: string; channel_id: string; position: number };
};

/**
 * Holds the operator's channels until `trx` ends, so that a name is checked and written in one step: on PostgreSQL
 * with a lock of the transaction; SQLite writes one transaction at a time anyway.
 */
async function holdChannels(trx: QueryExecutorProvider, dialect: 'sqlite' | 'postgres'): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('article_channels'))`.execute(trx);
}

/** The Kysely implementation of {@link ChannelStore}. */
export function createChannelStore(base: Kysely<Database>, dialect: 'sqlite' | 'postgres'): ChannelStore {
  const db = base.withTables<ChannelTables>();
  const nameTaken = async (trx: Transaction<Database & ChannelTables>, name: string, except?: string) =>
    (await trx
      .selectFrom('article_channels')
      .select('id')
      .where('name', '=', name)
      .$if(except !== undefined, (q) => q.where('id', '!=', except as string))
      .executeTakeFirst()) !== undefined;
  return {
    async all() {
      const rows = await db
        .selectFrom('article_channels')
        .selectAll()
        .orderBy('position')
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        position: Number(row.position),
        isDefault: Number(row.is_default) === 1,
        createdAt: Number(row.created_at),
      }));
    },
    async add(record, max) {
      return db.transaction().execute(async (trx) => {
        await holdChannels(trx, dialect);
        if (await nameTaken(trx, record.name)) return 'name_taken';
        const { count } = await trx
          .selectFrom('article_channels')
          .select((eb) => eb.fn.countAll<string | number>().as('count'))
          .executeTakeFirstOrThrow();
        if (Number(count) >= max) return 'limit';
        await trx
          .insertInto('article_channels')
          .values({
            id: record.id,
            name: record.name,
            position: record.position,
            is_default: record.isDefault ? 1 : 0,
            created_at: record.createdAt,
          })
          .execute();
        return 'ok';
      });
    },
    async update(id, { name, position, isDefault }) {
      return db.transaction().execute(async (trx) => {
        await holdChannels(trx, dialect);
        const found = await trx.selectFrom('article_channels').select('id').where('id', '=', id).executeTakeFirst();
        if (!found) return undefined;
        if (name !== undefined && (await nameTaken(trx, name, id))) return 'name_taken';
        const set = {
          ...(name !== undefined ? { name } : {}),
          ...(position !== undefined ? { position } : {}),
          ...(isDefault !== undefined ? { is_default: isDefault ? 1 : 0 } : {}),
        };
        if (Object.keys(set).length > 0) {
          await trx.updateTable('article_channels').set(set).where('id', '=', id).execute();
        }
        return 'ok';
      });
    },
    async remove(id) {
      return db.transaction().execute(async (trx) => {
        await trx.deleteFrom('member_channels').where('channel_id', '=', id).execute();
        const result = await trx.deleteFrom('article_channels').where('id', '=', id).executeTakeFirst();
        return result.numDeletedRows > 0n;
      });
    },
    async chosen(memberId) {
      const rows = await db
        .selectFrom('member_channels')
        .innerJoin('article_channels', 'article_channels.id', 'member_channels.channel_id')
        .select('member_channels.channel_id')
        .where('member_channels.member_id', '=', memberId)
        .orderBy('member_channels.position')
        .execute();
      return rows.map((row) => row.channel_id);
    },
    async choose(memberId, ids) {
      await db.transaction().execute(async (trx) => {
        await holdMember(trx, memberId, dialect);
        await trx.deleteFrom('member_channels').where('member_id', '=', memberId).execute();
        if (ids.length === 0) return;
        await trx
          .insertInto('member_channels')
          .values(ids.map((channelId, position) => ({ member_id: memberId, channel_id: channelId, position })))
          .execute();
      });
    },
  };
}
