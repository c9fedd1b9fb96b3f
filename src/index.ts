/**
 * parley-im: the Parley messaging SDK.
 *
 * @packageDocumentation
 */
export { createClient, clientDefaults } from './client.js';
export type { ClientOptions, ClientEvents, ParleyClient } from './client.js';
export { ParleyError } from './core/errors.js';
export type { ConnectInput } from './core/connect-input.js';
export { CONNECTION_STATUSES } from './core/status.js';
export type { ConnectionStatus, ConnectionStatusChange } from './core/status.js';
export { backoffDelay, defaultBackoff } from './core/backoff.js';
export type { BackoffOptions } from './core/backoff.js';
export type { Logger, LogLevel } from './core/logger.js';
export type { Timers, TimerHandle, OnlineSource } from './core/timers.js';
export type { Transport, TransportHandlers, TransportSocket } from './core/transport.js';
export type { Permission, RequestSpec } from './core/requests.js';
export { CODES, MESSAGES, LIMITS } from './protocol/index.js';
export type { Permissions, ModuleName } from './protocol/index.js';
export { SDK } from './version.js';
export { Im } from './modules/im/im.js';
export { IM_EVENT } from './modules/im/types.js';
export type {
  Conversation,
  ConversationList,
  GroupMessage,
  GroupPresenceEvent,
  ImEvents,
  Message,
  MessageStatus,
  MessageTarget,
  OnlineUser,
  PrivateMessage,
  TextPayload,
  UserPresenceEvent,
} from './modules/im/types.js';
export { Pubsub } from './modules/pubsub/pubsub.js';
export type {
  Channel,
  ChannelPresenceEvent,
  HereNowResult,
  HistoryMessage,
  HistoryResult,
  PresenceMember,
  PublishNotification,
  PublishOptions,
  PublishResult,
  PubsubMessage,
  SubscribeOptions,
  SubscribePresenceOptions,
} from './modules/pubsub/types.js';
export { LiveSource, LiveConnectionStatus, LiveConversations, LiveMessages, LivePresence } from './live/index.js';
export type { ConversationsState, ConversationTarget, MessagesState } from './live/index.js';
