import { randomBytes } from 'node:crypto';
import type { MemberRecord, MemberStore, NoticeKind, NoticeRecord, NoticeStore } from '../store/index.js';
import { isRowKey, type MemberFailure, type MemberResult } from './service.js';

const fail = <T>(failure: MemberFailure): MemberResult<T> => ({ ok: false, failure });

/** Bounds of notifications (docs/limits.md). */
export const NOTICE_LIMITS = {
  /** A page of the list. */
  pageSize: 20,
} as const;

/**
 * The notification settings a member has (member/sz-notify): whether new followers, comments on their content and
 * likes of it notify them.
 */
export interface NoticeSettings {
  follow: boolean;
  comment: boolean;
  like: boolean;
}

/** The kinds a member may switch off; the others always notify. */
const SETTABLE = ['follow', 'comment', 'like'] as const satisfies ReadonlyArray<keyof NoticeSettings & NoticeKind>;

/** A notification as the list shows it: with the member who caused it, as they show now. */
export interface ShownNotice {
  notice: NoticeRecord;
  actor: MemberRecord | undefined;
}

/** The product app's notifications (spec §2 member/notify, member/sz-notify; §3 member_notify_badge). No HTTP here. */
export interface NoticeService {
  /**
   * Notifies `memberId` of `kind`, unless they switched it off: `key` names the event, so that the same one (a
   * follower following again) raises the notification it raised before instead of adding one.
   */
  notify(
    memberId: string,
    kind: NoticeKind,
    event: { key: string; actorId?: string; data?: Record<string, unknown> },
  ): Promise<void>;
  /**
   * Takes back the notification `notify` raised for `key` (a comment deleted, a like undone), if the member still
   * has it.
   */
  withdraw(memberId: string, kind: NoticeKind, key: string): Promise<void>;
  /**
   * A page of the member's notifications, newest first; `before` is the id of the last one shown. Those caused by a
   * member one of the two has since blocked are left out.
   */
  list(memberId: string, before: unknown): Promise<MemberResult<ShownNotice[]>>;
  /** How many of the member's notifications are unread (the badge). */
  unread(memberId: string): Promise<number>;
  /** Marks notification `id` read, or all of them when `id` is left out; answers how many stay unread. */
  read(memberId: string, id: unknown): Promise<MemberResult<number>>;
  /** The member's settings, after setting those given (each a boolean; one that is not refuses them all). */
  settings(memberId: string, changes: { [K in keyof NoticeSettings]?: unknown }): Promise<MemberResult<NoticeSettings>>;
}

/** Creates the notification service over the stores. */
export function createNoticeService(deps: {
  notices: NoticeStore;
  members: MemberStore;
  blocked: (a: string, b: string) => Promise<boolean>;
  now: () => number;
  /**
   * Told of each notification stored (the member switched its kind on), and of each taken back, with how many are
   * unread after.
   */
  onNotified?: (memberId: string, kind: NoticeKind, unread: number) => void;
}): NoticeService {
  const { notices, members } = deps;
  return {
    async notify(memberId, kind, { key, actorId = '', data = {} }) {
      if ((await notices.off(memberId)).includes(kind)) return;
      const id = randomBytes(8).toString('hex');
      await notices.put({ id, memberId, kind, dedupeKey: `${kind}:${key}`, actorId, data, createdAt: deps.now() });
      if (deps.onNotified) deps.onNotified(memberId, kind, await notices.unread(memberId));
    },
    async withdraw(memberId, kind, key) {
      const removed = await notices.remove(memberId, `${kind}:${key}`);
      if (removed && deps.onNotified) deps.onNotified(memberId, kind, await notices.unread(memberId));
    },
    async list(memberId, before) {
      if (!isRowKey(before)) return fail('bad_params');
      const page = await notices.list(memberId, { before, limit: NOTICE_LIMITS.pageSize });
      if (!page) return fail('bad_params');
      const shown = await Promise.all(
        page.map(async (notice) => {
          if (notice.actorId === '') return { notice, actor: undefined };
          if (await deps.blocked(memberId, notice.actorId)) return undefined;
          return { notice, actor: await members.byId(notice.actorId) };
        }),
      );
      return { ok: true, value: shown.filter((line): line is ShownNotice => line !== undefined) };
    },
    unread: (memberId) => notices.unread(memberId),
    async read(memberId, id) {
      if (!isRowKey(id)) return fail('bad_params');
      await notices.markRead(memberId, { id, now: deps.now() });
      return { ok: true, value: await notices.unread(memberId) };
    },
    async settings(memberId, changes) {
      if (SETTABLE.some((kind) => changes[kind] !== undefined && typeof changes[kind] !== 'boolean')) {
        return fail('bad_params');
      }
      let off = await notices.off(memberId);
      const given = SETTABLE.filter((kind) => changes[kind] !== undefined);
      if (given.length > 0) {
        off = [
          ...off.filter((kind) => !(given as readonly NoticeKind[]).includes(kind)),
          ...given.filter((kind) => !changes[kind]),
        ];
        await notices.setOff(memberId, off);
      }
      const on = (kind: NoticeKind) => !off.includes(kind);
      return { ok: true, value: { follow: on('follow'), comment: on('comment'), like: on('like') } };
    },
  };
}
