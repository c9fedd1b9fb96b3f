/** Table types for Kysely. Times are bigint ms since the epoch, read back as numbers on both dialects. */

/** `sessions`: one row per authorize session; its sid lets a reconnecting client resume. */
export interface SessionsTable {
  sid: string;
  appkey: string;
  user_id: string | null;
  created_at: number;
  last_seen_at: number;
  /** IM-24: the oldest message pushed to the last connection and not acknowledged (migration `0059`). */
  replay_from: number | null;
  /** JSON array of the message ids that connection sent itself since `replay_from`. */
  replay_except: string | null;
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
 * (appkey, message_id, sender_id) is unique too, which de-duplicates re-sent messages (indexed in that order since
 * 0010: the SDK's ids begin with their time, so new ones land at the index's end).
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

/** `store_marks`: named numbers the store keeps about itself (`store-marks-migration.ts`). */
export interface StoreMarksTable {
  name: string;
  value: number;
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

/** `im_conversation_heads`: a group conversation's newest message time and latest sender's data (see 0006). */
export interface ImConversationHeadsTable {
  appkey: string;
  conv_key: string;
  last_ts: number;
  data: string | null;
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

/** `cs_agents`: team membership; an agent joins a team by going online, and stays a member when offline. */
export interface CsAgentsTable {
  appkey: string;
  team_id: string;
  agent_id: string;
  /** JSON of the agent's data for this team. */
  agent_data: string;
  /** JSON of the team's data as the agent gave it. */
  team_data: string;
  /** 0 or 1. */
  online: number;
  updated_at: number;
}

/** `cs_sessions`: the session state of one customer with one team (FREE, PENDING, ACCEPTED). */
export interface CsSessionsTable {
  appkey: string;
  team_id: string;
  customer_id: string;
  status: string;
  session_id: number;
  start: number;
  agent_id: string | null;
  /** JSON of the accepting agent's data. */
  agent_data: string | null;
  /** JSON of the customer's data. */
  customer_data: string;
  /** Timestamp of the newest message of the conversation. */
  last_ts: number;
}

/** `cs_messages`: the history of one customer with one team, session events included. */
export interface CsMessagesTable {
  appkey: string;
  team_id: string;
  customer_id: string;
  ts: number;
  message_id: string;
  sender_id: string;
  /** The wire `r`: the team id when the customer sent it, else the customer id. */
  to_id: string;
  type: string;
  /** JSON. */
  payload: string;
  /** JSON. */
  sender_data: string;
  /** 0 or 1. */
  accepted: number;
  session_id: number;
}

/** `cs_conversations`: one participant's (the customer's or an agent's) view of a CS conversation. */
export interface CsConversationsTable {
  appkey: string;
  owner_id: string;
  team_id: string;
  customer_id: string;
  top: number;
  removed: number;
  /** JSON: the team's data (customer side) or the customer's (agent side). */
  data: string;
  /** Newest message this owner took part in. */
  last_ts: number;
}

/** Every table, for `Kysely<Database>`. */
export interface Database {
  sessions: SessionsTable;
  users: UsersTable;
  im_messages: ImMessagesTable;
  im_deletions: ImDeletionsTable;
  im_read_offsets: ImReadOffsetsTable;
  store_marks: StoreMarksTable;
  im_conversations: ImConversationsTable;
  im_conversation_heads: ImConversationHeadsTable;
  im_group_members: ImGroupMembersTable;
  presence_user_subscriptions: PresenceUserSubscriptionsTable;
  presence_group_subscriptions: PresenceGroupSubscriptionsTable;
  cs_agents: CsAgentsTable;
  cs_sessions: CsSessionsTable;
  cs_messages: CsMessagesTable;
  cs_conversations: CsConversationsTable;
}
