/** Table types for Kysely. Times are bigint ms since the epoch, read back as numbers on both dialects. */

/** `sessions`: one row per authorize session; its sid lets a reconnecting client resume. */
export interface SessionsTable {
  sid: string;
  appkey: string;
  user_id: string | null;
  created_at: number;
  last_seen_at: number;
}

/** Every table, for `Kysely<Database>`. */
export interface Database {
  sessions: SessionsTable;
}
