import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** The tabs of the app whose banners show ads. */
export const AD_POSITIONS = ['article', 'video', 'quanzi', 'shop'] as const;
export type AdPosition = (typeof AD_POSITIONS)[number];

/** An ad as the operator set it up (spec §3 Ad: id, url, title), with what it has drawn. */
export interface AdRecord {
  id: string;
  title: string;
  /** The banner's picture, an http(s) URL. */
  img: string;
  /** Where a tap goes: an http(s) URL (the app's web view) or a path of the app. */
  url: string;
  position: AdPosition;
  /** Lower first in the banner; the newest first among equals. */
  sort: number;
  /** Shown from and until these times (milliseconds); null for no bound. */
  startsAt: number | null;
  endsAt: number | null;
  impressions: number;
  clicks: number;
  createdAt: number;
}

/** What the operator may change of an ad. */
export type AdChanges = Partial<Pick<AdRecord, 'title' | 'img' | 'url' | 'position' | 'sort' | 'startsAt' | 'endsAt'>>;

/** The operator's ads and their counts. */
export interface AdStore {
  /** Every ad not removed, by position, then order, the newest first among equals. */
  all(): Promise<AdRecord[]>;
  byId(id: string): Promise<AdRecord | undefined>;
  /** The ads of a banner showing at `now`, in order, at most `limit`. */
  showing(position: AdPosition, now: number, limit: number): Promise<AdRecord[]>;
  /** Adds an ad unless there are `max`: false then. The count and the write are one transaction. */
  add(record: AdRecord, max: number): Promise<boolean>;
  /** Changes an ad; false when there is none. */
  update(id: string, changes: AdChanges): Promise<boolean>;
  /** Removes an ad; false when there is none. */
  remove(id: string, now: number): Promise<boolean>;
  /** Counts a showing or a tap of an ad showing at `now`, in one statement; false when there is none. */
  count(id: string, what: 'impressions' | 'clicks', now: number): Promise<boolean>;
}

type AdTables = {
  ads: {
    id: string;
    title: string;
    img: string;
    url: string;
    position: string;
    sort: number;
    starts_at: number | null;
    ends_at: number | null;
    impressions: number;
    clicks: number;
    created_at: number;
    deleted_at: number | null;
  };
};

type AdRow = AdTables['ads'];

const nullableNumber = (value: number | string | null) => (value === null ? null : Number(value));

const recordOf = (row: AdRow): AdRecord => ({
  id: row.id,
  title: row.title,
  img: row.img,
  url: row.url,
  position: row.position as AdPosition,
  sort: Number(row.sort),
  startsAt: nullableNumber(row.starts_at),
  endsAt: nullableNumber(row.ends_at),
  impressions: Number(row.impressions),
  clicks: Number(row.clicks),
  createdAt: Number(row.created_at),
});

/** The Kysely implementation of {@link AdStore}. */
export function createAdStore(base: Kysely<Database>): AdStore {
  const db = base.withTables<AdTables>();
  const open = () => db.selectFrom('ads').selectAll().where('deleted_at', 'is', null);
  const changes = (c: AdChanges) => ({
    ...(c.title !== undefined && { title: c.title }),
    ...(c.img !== undefined && { img: c.img }),
    ...(c.url !== undefined && { url: c.url }),
    ...(c.position !== undefined && { position: c.position }),
    ...(c.sort !== undefined && { sort: c.sort }),
    ...(c.startsAt !== undefined && { starts_at: c.startsAt }),
    ...(c.endsAt !== undefined && { ends_at: c.endsAt }),
  });
  return {
    async all() {
      const rows = await open()
        .orderBy('position')
        .orderBy('sort')
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
      return rows.map(recordOf);
    },
    async byId(id) {
      const row = await open().where('id', '=', id).executeTakeFirst();
      return row && recordOf(row);
    },
    async showing(position, now, limit) {
      const rows = await open()
        .where('position', '=', position)
        .where((eb) => eb.or([eb('starts_at', 'is', null), eb('starts_at', '<=', now)]))
        .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]))
        .orderBy('sort')
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map(recordOf);
    },
    async add(record, max) {
      return db.transaction().execute(async (trx) => {
        const { n } = await trx
          .selectFrom('ads')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .where('deleted_at', 'is', null)
          .executeTakeFirstOrThrow();
        if (Number(n) >= max) return false;
        await trx
          .insertInto('ads')
          .values({
            id: record.id,
            title: record.title,
            img: record.img,
            url: record.url,
            position: record.position,
            sort: record.sort,
            starts_at: record.startsAt,
            ends_at: record.endsAt,
            impressions: 0,
            clicks: 0,
            created_at: record.createdAt,
            deleted_at: null,
          })
          .execute();
        return true;
      });
    },
    async update(id, c) {
      const set = changes(c);
      if (Object.keys(set).length === 0) {
        return (await open().select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
      }
      const result = await db
        .updateTable('ads')
        .set(set)
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async remove(id, now) {
      const result = await db
        .updateTable('ads')
        .set({ deleted_at: now })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async count(id, what, now) {
      const result = await db
        .updateTable('ads')
        .set((eb) => ({ [what]: eb(what, '+', 1) }))
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .where((eb) => eb.or([eb('starts_at', 'is', null), eb('starts_at', '<=', now)]))
        .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]))
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}
