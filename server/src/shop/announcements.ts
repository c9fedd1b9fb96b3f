import { randomBytes } from 'node:crypto';
import { badRequest, type CatalogEditResult } from '../content/catalog.js';
import { writtenText } from '../content/text.js';
import { lineOf } from '../members/addresses.js';
import { isRowKey, type MemberResult } from '../members/service.js';
import type { AnnouncementRecord, AnnouncementStore, MemberAnnouncement } from '../store/index.js';
import type { ShopService } from './shops.js';

/** Bounds of the announcements to sellers (docs/limits.md). */
export const ANNOUNCEMENT_LIMITS = {
  /** An announcement's title: 1 to this many characters (Unicode code points) after trimming, one line. */
  titleMax: 50,
  /** Its content: 1 to this many characters of plain text after trimming. */
  contentMax: 5000,
  /** A page of a list, the seller's and the operator's. */
  pageSize: 20,
  /** The characters of the content a seller's list shows of each. */
  summaryLength: 80,
} as const;

/** A result of the operator's change of announcements. */
export type AnnouncementEditResult = CatalogEditResult<AnnouncementRecord>;
type AnnouncementEditFailure = Extract<AnnouncementEditResult, { ok: false }>;

/** A page of a seller's announcements and how many of all they have not read. */
export interface AnnouncementPage {
  announcements: MemberAnnouncement[];
  unread: number;
}

/**
 * The operator's announcements to sellers (spec §1 "a small-shop area with ... announcements", §2
 * shop/business-gonggao, business-gonggao-view): the operator publishes, changes and removes them; a member with an
 * open shop lists them and reads them, each marked read for that member. No HTTP here.
 */
export interface AnnouncementService {
  /** The operator's list: pinned first, then the newest; `after` the last id seen. */
  list(after: unknown): Promise<{ ok: true; value: AnnouncementRecord[] } | { ok: false; message: string }>;
  /** The operator publishes an announcement: `{title, content, pinned?}`. */
  add(fields: Record<string, unknown>): Promise<AnnouncementEditResult>;
  /** The operator changes announcement `id`: any of `{title, content, pinned}`; members' reads stay. */
  update(id: string, fields: Record<string, unknown>): Promise<AnnouncementEditResult>;
  /** The operator removes announcement `id`, and with it every member's read. */
  remove(id: string): Promise<AnnouncementEditResult>;
  /**
   * A seller's page: pinned first, then the newest, {@link ANNOUNCEMENT_LIMITS.pageSize} at a time, `before` the
   * last id of the page before; `shop_not_open` without an open shop, `bad_params` for a `before` not listed.
   */
  page(memberId: string, before: unknown): Promise<MemberResult<AnnouncementPage>>;
  /** How many announcements the member has not read; 0 without an open shop. */
  unread(memberId: string): Promise<number>;
  /**
   * A seller reads announcement `id`, which marks it read for them; `shop_not_open` without an open shop,
   * `announcement_missing` when there is none (or it was removed).
   */
  read(memberId: string, id: unknown): Promise<MemberResult<AnnouncementRecord>>;
}

/** What a seller's list shows of an announcement's content: its first characters, on one line. */
export function summaryOf(content: string): string {
  return [...content.replace(/\s+/g, ' ')].slice(0, ANNOUNCEMENT_LIMITS.summaryLength).join('');
}

const notFound: AnnouncementEditFailure = { ok: false, failure: 'not_found', message: 'announcement does not exist.' };

/** The checked fields of the operator's change, or why they are refused. */
function fieldsOf(
  fields: Record<string, unknown>,
  required: boolean,
): { title?: string; content?: string; pinned?: boolean } | AnnouncementEditFailure {
  const { title, content, pinned } = fields;
  const out: { title?: string; content?: string; pinned?: boolean } = {};
  if (title !== undefined || required) {
    const line = lineOf(title, ANNOUNCEMENT_LIMITS.titleMax);
    if (line === undefined) return badRequest(`title must be 1 to ${ANNOUNCEMENT_LIMITS.titleMax} characters.`);
    out.title = line;
  }
  if (content !== undefined || required) {
    const text = writtenText(content, ANNOUNCEMENT_LIMITS.contentMax, { tabs: true });
    if (text === undefined) {
      return badRequest(`content must be 1 to ${ANNOUNCEMENT_LIMITS.contentMax} characters of plain text.`);
    }
    out.content = text;
  }
  if (pinned !== undefined) {
    if (typeof pinned !== 'boolean') return badRequest('pinned must be true or false.');
    out.pinned = pinned;
  }
  return out;
}

/** Creates the announcement service over the store. */
export function createAnnouncementService(deps: {
  announcements: AnnouncementStore;
  /** The members' shops: only a member whose shop is open reads announcements. */
  shops: Pick<ShopService, 'mine'>;
  now: () => number;
  /** Told of each announcement published, once it is stored: the sellers hear of it. */
  onPublished?: (announcement: AnnouncementRecord) => Promise<void>;
}): AnnouncementService {
  const { announcements } = deps;
  const selling = async (memberId: string) => (await deps.shops.mine(memberId))?.status === 'approved';
  const found = async (id: string): Promise<AnnouncementEditResult> => {
    const announcement = isRowKey(id) && id !== undefined ? await announcements.byId(id) : undefined;
    return announcement ? { ok: true, value: announcement } : notFound;
  };
  return {
    async list(after) {
      const bad = { ok: false, message: 'after must be an announcement id listed.' } as const;
      if (!isRowKey(after)) return bad;
      const page = await announcements.list({ after, limit: ANNOUNCEMENT_LIMITS.pageSize });
      return page ? { ok: true, value: page } : bad;
    },
    async add(fields) {
      const checked = fieldsOf(fields, true);
      if ('ok' in checked) return checked;
      const now = deps.now();
      const record: AnnouncementRecord = {
        id: randomBytes(8).toString('hex'),
        title: checked.title as string,
        content: checked.content as string,
        pinned: checked.pinned ?? false,
        createdAt: now,
        updatedAt: now,
      };
      await announcements.add(record);
      await deps.onPublished?.(record);
      return { ok: true, value: record };
    },
    async update(id, fields) {
      const checked = fieldsOf(fields, false);
      if ('ok' in checked) return checked;
      const updated = isRowKey(id) ? await announcements.update(id, { ...checked, now: deps.now() }) : undefined;
      return updated ? { ok: true, value: updated } : notFound;
    },
    async remove(id) {
      const before = await found(id);
      if (!before.ok) return before;
      return (await announcements.remove(id)) ? before : notFound;
    },
    async page(memberId, before) {
      if (!(await selling(memberId))) return { ok: false, failure: 'shop_not_open' };
      if (!isRowKey(before)) return { ok: false, failure: 'bad_params' };
      const [page, unread] = await Promise.all([
        announcements.listFor(memberId, { after: before, limit: ANNOUNCEMENT_LIMITS.pageSize }),
        announcements.unread(memberId),
      ]);
      return page ? { ok: true, value: { announcements: page, unread } } : { ok: false, failure: 'bad_params' };
    },
    async unread(memberId) {
      return (await selling(memberId)) ? announcements.unread(memberId) : 0;
    },
    async read(memberId, id) {
      if (!(await selling(memberId))) return { ok: false, failure: 'shop_not_open' };
      const announcement = isRowKey(id) && id !== undefined ? await announcements.byId(id) : undefined;
      if (!announcement) return { ok: false, failure: 'announcement_missing' };
      await announcements.markRead(memberId, announcement.id, deps.now());
      return { ok: true, value: announcement };
    },
  };
}
