/** Table types for Kysely. Times are bigint ms since the epoch, read back as numbers on both dialects. */

/** `sessions`: one row per authorize session; its sid lets a reconnecting client resume. */
export interface SessionsTable {
  sid: string;
  appkey: string;
  user_id: string | null;
  created_at: number;
  last_seen_at: number;
}

/** `users`: the data each user last authorized with, per app (member data, presence, conversation data). */
export interface UsersTable {
  appkey: string;
  user_id: string;
  /** JSON of an object. */
  data: string;
  updated_at: number;
}

/**
 * `im_messages`: one row per IM message. The key (appkey, conv_key, ts) makes timestamps unique per conversation;
 * (appkey, sender_id, message_id) is unique too, which de-duplicates re-sent messages.
 */
export interface ImMessagesTable {
  appkey: string;
  conv_key: string;
  ts: number;
  scene: string;
  message_id: string;
  sender_id: string;
  /** The wire `r`: the receiver (private) or the group id. */
  target_id: string;
  type: string;
  /** JSON. */
  payload: string;
  /** JSON of the sender's user data at send time. */
  sender_data: string;
  /** 0 or 1: SQLite has no boolean. */
  recalled: number;
  /** JSON `{id, data}` once recalled. */
  recaller: string | null;
}

/** `im_deletions`: messages a user deleted for themselves. */
export interface ImDeletionsTable {
  appkey: string;
  user_id: string;
  conv_key: string;
  ts: number;
}

/** `im_read_offsets`: everything up to `read_ts` in a conversation is read by the user. */
export interface ImReadOffsetsTable {
  appkey: string;
  conv_key: string;
  user_id: string;
  read_ts: number;
}

/** `im_conversations`: one row per user and conversation, as the conversation list shows it. */
export interface ImConversationsTable {
  appkey: string;
  owner_id: string;
  scene: string;
  target_id: string;
  conv_key: string;
  top: number;
  removed: number;
  /** JSON: the friend's or the group's data. */
  data: string;
  last_ts: number;
}

/** `im_group_members`: who receives a group's messages; kept across reconnects (the client never re-sends it). */
export interface ImGroupMembersTable {
  appkey: string;
  group_id: string;
  user_id: string;
  joined_at: number;
}

/** `presence_user_subscriptions`: `subscriber_id` hears when `user_id` goes online or offline. */
export interface PresenceUserSubscriptionsTable {
  appkey: string;
  subscriber_id: string;
  user_id: string;
}

/** `presence_group_subscriptions`: `subscriber_id` hears the presence of `group_id`'s members. */
export interface PresenceGroupSubscriptionsTable {
  appkey: string;
  subscriber_id: string;
  group_id: string;
}

/** Every table, for `Kysely<Database>`. */
export interface Database {
  sessions: SessionsTable;
  users: UsersTable;
  im_messages: ImMessagesTable;
  im_deletions: ImDeletionsTable;
  im_read_offsets: ImReadOffsetsTable;
  im_conversations: ImConversationsTable;
  im_group_members: ImGroupMembersTable;
  presence_user_subscriptions: PresenceUserSubscriptionsTable;
  presence_group_subscriptions: PresenceGroupSubscriptionsTable;
}
