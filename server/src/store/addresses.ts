import type { Kysely } from 'kysely';
import { holdMember } from './member-lock.js';
import type { Database } from './schema.js';

/** The fields of a shipping address the member fills in. */
export interface AddressFields {
  /** Who receives. */
  name: string;
  /** The receiving phone. */
  phone: string;
  /** Province, city and district, as one line. */
  region: string;
  /** Street, building and door. */
  detail: string;
}

/** A member's shipping address as stored. */
export interface AddressRecord extends AddressFields {
  id: string;
  memberId: string;
  isDefault: boolean;
  updatedAt: number;
}

/** Members' shipping addresses (MEM-9): at most one default each, which every change keeps. */
export interface AddressStore {
  /** A member's addresses: the default first, then the most recently changed. */
  list(memberId: string): Promise<AddressRecord[]>;
  /**
   * Adds an address; it is the default when `makeDefault` is set or it is the member's first. False, and nothing
   * added, when the member has `max` already. One transaction that holds the member's row.
   */
  add(record: Omit<AddressRecord, 'isDefault'>, params: { makeDefault: boolean; max: number }): Promise<boolean>;
  /** Changes an address of the member's, and makes it the default when `makeDefault` is set; false if none. */
  update(
    memberId: string,
    id: string,
    params: { fields?: AddressFields | undefined; makeDefault: boolean; now: number },
  ): Promise<boolean>;
  /** Removes an address of the member's; when it was the default, the most recently changed left takes over. */
  remove(memberId: string, id: string): Promise<boolean>;
}

type AddressTables = {
  member_addresses: {
    id: string;
    member_id: string;
    name: string;
    phone: string;
    region: string;
    detail: string;
    is_default: number;
    updated_at: number;
  };
};

type AddressRow = AddressTables['member_addresses'];

const toRecord = (row: AddressRow): AddressRecord => ({
  id: row.id,
  memberId: row.member_id,
  name: row.name,
  phone: row.phone,
  region: row.region,
  detail: row.detail,
  isDefault: Number(row.is_default) === 1,
  updatedAt: Number(row.updated_at),
});

/** The Kysely implementation of {@link AddressStore}. */
export function createAddressStore(base: Kysely<Database>, dialect: 'sqlite' | 'postgres'): AddressStore {
  const db = base.withTables<AddressTables>();
  type Db = typeof db;
  const mine = (q: Db, memberId: string) => q.selectFrom('member_addresses').where('member_id', '=', memberId);
  /** Makes `id` the member's one default. */
  const setDefault = async (trx: Db, memberId: string, id: string) => {
    await trx.updateTable('member_addresses').set({ is_default: 0 }).where('member_id', '=', memberId).execute();
    await trx
      .updateTable('member_addresses')
      .set({ is_default: 1 })
      .where('member_id', '=', memberId)
      .where('id', '=', id)
      .execute();
  };
  return {
    async list(memberId) {
      const rows = await mine(db, memberId)
        .selectAll()
        .orderBy('is_default', 'desc')
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map(toRecord);
    },
    async add(record, { makeDefault, max }) {
      return db.transaction().execute(async (trx) => {
        await holdMember(trx, record.memberId, dialect);
        const counted = await mine(trx, record.memberId)
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .executeTakeFirstOrThrow();
        const count = Number(counted.n);
        if (count >= max) return false;
        await trx
          .insertInto('member_addresses')
          .values({
            id: record.id,
            member_id: record.memberId,
            name: record.name,
            phone: record.phone,
            region: record.region,
            detail: record.detail,
            is_default: 0,
            updated_at: record.updatedAt,
          })
          .execute();
        if (makeDefault || count === 0) await setDefault(trx, record.memberId, record.id);
        return true;
      });
    },
    async update(memberId, id, { fields, makeDefault, now }) {
      return db.transaction().execute(async (trx) => {
        await holdMember(trx, memberId, dialect);
        const result = await trx
          .updateTable('member_addresses')
          .set({ ...fields, updated_at: now })
          .where('member_id', '=', memberId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (result.numUpdatedRows === 0n) return false;
        if (makeDefault) await setDefault(trx, memberId, id);
        return true;
      });
    },
    async remove(memberId, id) {
      return db.transaction().execute(async (trx) => {
        await holdMember(trx, memberId, dialect);
        const gone = await trx
          .deleteFrom('member_addresses')
          .where('member_id', '=', memberId)
          .where('id', '=', id)
          .returning(['is_default'])
          .executeTakeFirst();
        if (!gone) return false;
        if (Number(gone.is_default) === 1) {
          const next = await mine(trx, memberId)
            .select('id')
            .orderBy('updated_at', 'desc')
            .orderBy('id', 'desc')
            .executeTakeFirst();
          if (next) await setDefault(trx, memberId, next.id);
        }
        return true;
      });
    },
  };
}
