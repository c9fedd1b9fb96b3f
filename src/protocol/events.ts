/**
 * Event names on the wire (reference §2), one table per direction. Names are the reference client's, letter for
 * letter, so that it can talk to a Parley server.
 */

/** Requests a client emits with an acknowledgement callback. */
export const CLIENT_EVENTS = {
  authorize: 'authorize',
  manualDisconnect: 'manualDisconnect',
  subscribe: 'subscribe',
  unsubscribe: 'unsubscribe',
  publish: 'publish',
  historyMessages: 'historyMessages',
  presenceSubscribe: 'PUBSUB_PRESENCE_SUBSCRIBE',
  presenceUnsubscribe: 'PUBSUB_PRESENCE_UNSUBSCRIBE',
  presenceHereNow: 'PUBSUB_PRESENCE_HERENOW',
  publishIM: 'publishIM',
  imHistory: 'IM_HISTORY',
  imHistoryChange: 'IM_HISTORY_CHANGE',
  imMarkAsRead: 'IM_MARK_AS_READ',
  imDeleteMessage: 'IM_DELETE_MESSAGE',
  imRecallMessage: 'IM_RECALL_MESSAGE',
  imLastConversations: 'imLastConversations',
  topConversation: 'topConversation',
  removeConversation: 'removeConversation',
  imData: 'imData',
  subscribeGroups: 'subscribeGroups',
  unsubscribeGroup: 'unsubscribeGroup',
  subscribeUserPresence: 'subscribeUserPresence',
  unsubscribeUserPresence: 'unsubscribeUserPresence',
  subscribeGroupPresence: 'subscribeGroupPresence',
  unsubscribeGroupPresence: 'unsubscribeGroupPresence',
  imHereNow: 'imHereNow',
  imGroupHereNow: 'imGroupHereNow',
  imGroupOnlineCount: 'imGroupOnlineCount',
  uploadToken: 'uploadToken',
  memberData: 'MD_CMD',
  csOnline: 'CS_ONLINE',
  csOffline: 'CS_OFFLINE',
  csMyTeams: 'CS_MY_TEAMS',
  csAgents: 'CS_AGENTS',
  csAccept: 'CS_ACCEPT',
  csEnd: 'CS_END',
  csTransfer: 'CS_TRANSFER',
  csCustomerStatus: 'CS_CUSTOMER_STATUS',
  csLiveSession: 'CS_LIVE_SESSION',
  csQuitLive: 'CS_QUIT_LIVE',
  csPendingConversation: 'CS_PENDING_CONVERSATION',
  /** Parley's own (TYPING-1): I am typing in a private or group chat, or stopped. */
  imTyping: 'IM_TYPING',
  /** Parley's own: a round trip that touches nothing, answered with the server's time (`{time}`). */
  ping: 'PARLEY_PING',
} as const;

/** Plain emits from the client that expect no acknowledgement. */
export const CLIENT_NOTICES = {
  imAck: 'imAck',
  ack: 'ack',
} as const;

/** Pushes from the server to a client. */
export const SERVER_PUSHES = {
  message: 'message',
  imMessage: 'imMessage',
  userPresence: 'userPresence',
  groupPresence: 'groupPresence',
  pubsubPresence: 'PS_PRESENCE_EVENT',
  redelivered: 'PS_REDELIVERED',
  messageRead: 'IM_MSG_READ',
  messageDeleted: 'IM_MSG_DELETED',
  messageRecalled: 'IM_MSG_RECALLED',
  csOnlineChanged: 'CS_ONLINE_CHANGED',
  /** TYPING-2: another user is typing in a private or group chat with me, or stopped. */
  imTyping: 'IM_TYPING',
  /** USER-1: an event the app's server sent the user. */
  userEvent: 'USER_EVENT',
  /** IM-32: a conversation of mine pinned, unpinned or removed on another device of mine. */
  conversationChanged: 'IM_CONVERSATION_CHANGED',
} as const;

/** A request event name. */
export type ClientEventName = (typeof CLIENT_EVENTS)[keyof typeof CLIENT_EVENTS];
/** A plain client emit name. */
export type ClientNoticeName = (typeof CLIENT_NOTICES)[keyof typeof CLIENT_NOTICES];
/** A server push name. */
export type ServerPushName = (typeof SERVER_PUSHES)[keyof typeof SERVER_PUSHES];

/** Module keys used in `authorize` (`mP` and `mD`): IM is `GIM`, pub/sub is `GWS`. */
export const WIRE_MODULES = { im: 'GIM', pubsub: 'GWS' } as const;
/** A module a client can enable. */
export type ModuleName = keyof typeof WIRE_MODULES;
/** A module key on the wire. */
export type WireModuleName = (typeof WIRE_MODULES)[ModuleName];
