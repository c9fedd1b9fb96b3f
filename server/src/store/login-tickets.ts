import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Where a sign-in by QR code stands: shown, scanned by a member, confirmed by them, or cancelled by them. */
export type LoginTicketStatus = 'waiting' | 'scanned' | 'confirmed' | 'cancelled';

/** A sign-in by QR code as stored. */
export interface LoginTicketRecord {
  /** The ticket the QR code carries. */
  ticket: string;
  /** The SHA-256 (hex) of the key only the asking device holds; polls must bring the key. */
  keyHash: string;
  status: LoginTicketStatus;
  /** The member who scanned the code; null while it waits. */
  memberId: string | null;
  /** The asking device, as the phone shows it. */
  device: string;
  /** The asking device's address. */
  address: string;
  createdAt: number;
  expiresAt: number;
}

/** Sign-ins by QR code. Every change is one conditional write, so that two phones or two polls cannot both win. */
export interface LoginTicketStore {
  /** Stores a new waiting ticket, and removes every ticket expired by `now`. */
  add(record: Omit<LoginTicketRecord, 'status' | 'memberId'>, now: number): Promise<void>;
  /** A ticket not yet expired at `now`. */
  get(ticket: string, now: number): Promise<LoginTicketRecord | undefined>;
  /**
   * Marks a waiting ticket scanned by `memberId` (a ticket that member already scanned stays theirs), and moves its
   * expiry to `expiresAt`; the ticket as it is now, or undefined when it is expired, settled or another member's.
   */
  scan(ticket: string, memberId: string, now: number, expiresAt: number): Promise<LoginTicketRecord | undefined>;
  /** Confirms or cancels a ticket `memberId` scanned and has not settled; false when there is none by `now`. */
  settle(ticket: string, memberId: string, status: 'confirmed' | 'cancelled', now: number): Promise<boolean>;
  /** Removes a confirmed ticket not expired by `now`: its member, to the one poll that gets here first. */
  take(ticket: string, now: number): Promise<string | undefined>;
}

type LoginTicketTables = {
  login_tickets: {
    ticket: string;
    key_hash: string;
    status: string;
    member_id: string | null;
    device: string;
    address: string;
    created_at: number;
    expires_at: number;
  };
};

type LoginTicketRow = LoginTicketTables['login_tickets'];

const toRecord = (row: LoginTicketRow): LoginTicketRecord => ({
  ticket: row.ticket,
  keyHash: row.key_hash,
  status: row.status as LoginTicketStatus,
  memberId: row.member_id,
  device: row.device,
  address: row.address,
  createdAt: Number(row.created_at),
  expiresAt: Number(row.expires_at),
});

/** The Kysely implementation of {@link LoginTicketStore}. */
export function createLoginTicketStore(base: Kysely<Database>): LoginTicketStore {
  const db = base.withTables<LoginTicketTables>();
  const live = (ticket: string, now: number) =>
    db.selectFrom('login_tickets').selectAll().where('ticket', '=', ticket).where('expires_at', '>', now);
  return {
    async add(record, now) {
      await db.deleteFrom('login_tickets').where('expires_at', '<=', now).execute();
      await db
        .insertInto('login_tickets')
        .values({
          ticket: record.ticket,
          key_hash: record.keyHash,
          status: 'waiting',
          member_id: null,
          device: record.device,
          address: record.address,
          created_at: record.createdAt,
          expires_at: record.expiresAt,
        })
        .execute();
    },
    async get(ticket, now) {
      const row = await live(ticket, now).executeTakeFirst();
      return row && toRecord(row);
    },
    async scan(ticket, memberId, now, expiresAt) {
      const result = await db
        .updateTable('login_tickets')
        .set({ status: 'scanned', member_id: memberId, expires_at: expiresAt })
        .where('ticket', '=', ticket)
        .where('expires_at', '>', now)
        .where((eb) =>
          eb.or([eb('status', '=', 'waiting'), eb.and([eb('status', '=', 'scanned'), eb('member_id', '=', memberId)])]),
        )
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return undefined;
      const row = await live(ticket, now).executeTakeFirst();
      return row && toRecord(row);
    },
    async settle(ticket, memberId, status, now) {
      const result = await db
        .updateTable('login_tickets')
        .set({ status })
        .where('ticket', '=', ticket)
        .where('expires_at', '>', now)
        .where('status', '=', 'scanned')
        .where('member_id', '=', memberId)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async take(ticket, now) {
      const row = await live(ticket, now).where('status', '=', 'confirmed').executeTakeFirst();
      if (!row?.member_id) return undefined;
      const result = await db
        .deleteFrom('login_tickets')
        .where('ticket', '=', ticket)
        .where('status', '=', 'confirmed')
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0 ? row.member_id : undefined;
    },
  };
}
