/** Framework-free live values over a client, for UI bindings: subscribe, getSnapshot, start on first use. */
export { LiveSource } from './source.js';
export { LiveConnectionStatus } from './connection.js';
export { LiveConversations, type ConversationsState } from './conversations.js';
export {
  LiveMessages,
  type ConversationTarget,
  type MessageUpload,
  type MessagesState,
  type SendFileOptions,
} from './messages.js';
export { LivePresence } from './presence.js';
export { LiveGroupPresence, type GroupPresenceState } from './group-presence.js';
export { LiveCsTeam, type CsTeamState } from './cs-team.js';
export { LiveTyping, type TypingTarget } from './typing.js';
