import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database } from './schema.js';

/** What a member may hide from their feeds: articles (videos are articles) and circle posts. */
export type HiddenKind = 'article' | 'quanzi';

/** What members hid from their feeds ("Not interested"). */
export interface HiddenStore {
  /**
   * Hides (`on` true) or shows again an item for a member. A member keeps their `keep` latest: hiding more forgets the
   * oldest. Hiding twice keeps the first time.
   */
  set(memberId: string, kind: HiddenKind, subjectId: string, on: boolean, now: number, keep: number): Promise<void>;
  /** Which of `subjectIds` the member hid. */
  hidden(memberId: string, kind: HiddenKind, subjectIds: readonly string[]): Promise<Set<string>>;
}

/**
 * The condition that `viewerId` has not hidden the item of `kind` in `column` (a trusted name, never input), for the
 * feeds.
 */
export function notHiddenBy(viewerId: string, kind: HiddenKind, column: string): Expression<SqlBool> {
  return sql<SqlBool>`not exists (select 1 from member_hidden where member_hidden.member_id = ${viewerId} and member_hidden.kind = ${kind} and member_hidden.subject_id = ${sql.ref(column)})`;
}

type HiddenTables = {
  member_hidden: { member_id: string; kind: string; subject_id: string; created_at: number };
};

/** The Kysely implementation of {@link HiddenStore}. */
export function createHiddenStore(base: Kysely<Database>): HiddenStore {
  const db = base.withTables<HiddenTables>();
  return {
    async set(memberId, kind, subjectId, on, now, keep) {
      if (!on) {
        await db
          .deleteFrom('member_hidden')
          .where('member_id', '=', memberId)
          .where('kind', '=', kind)
          .where('subject_id', '=', subjectId)
          .execute();
        return;
      }
      await db
        .insertInto('member_hidden')
        .values({ member_id: memberId, kind, subject_id: subjectId, created_at: now })
        .onConflict((oc) => oc.doNothing())
        .execute();
      // Past `keep`, the oldest go: the newest `keep` rows' oldest time is the bound.
      const bound = await db
        .selectFrom('member_hidden')
        .select(['created_at', 'kind', 'subject_id'])
        .where('member_id', '=', memberId)
        .orderBy('created_at', 'desc')
        .orderBy('kind', 'desc')
        .orderBy('subject_id', 'desc')
        .offset(keep)
        .limit(1)
        .executeTakeFirst();
      if (!bound) return;
      await db
        .deleteFrom('member_hidden')
        .where('member_id', '=', memberId)
        .where('created_at', '<=', Number(bound.created_at))
        .where((eb) =>
          eb.or([
            eb('created_at', '<', Number(bound.created_at)),
            eb('kind', '<', bound.kind),
            eb.and([eb('kind', '=', bound.kind), eb('subject_id', '<=', bound.subject_id)]),
          ]),
        )
        .execute();
    },
    async hidden(memberId, kind, subjectIds) {
      if (subjectIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('member_hidden')
        .select('subject_id')
        .where('member_id', '=', memberId)
        .where('kind', '=', kind)
        .where('subject_id', 'in', [...new Set(subjectIds)])
        .execute();
      return new Set(rows.map((row) => row.subject_id));
    },
  };
}
