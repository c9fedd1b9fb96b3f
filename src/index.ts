/**
 * parley-im: the Parley messaging SDK.
 *
 * @packageDocumentation
 */
export { createClient, clientDefaults, getInstance } from './client.js';
export type { ClientDefaults, ClientOptions, ClientEvents, ParleyClient } from './client.js';
export type { Connection, ConnectionEvents } from './core/connection.js';
export type { RequestManager } from './core/requests.js';
export type { EventMap, Listener, Subscribable, TypedEmitter } from './core/emitter.js';
export { ParleyError } from './core/errors.js';
export type { ConnectInput, OtpProvider } from './core/connect-input.js';
export { CONNECTION_STATUSES } from './core/status.js';
export type { ConnectionStatus, ConnectionStatusChange } from './core/status.js';
export { backoffDelay, defaultBackoff } from './core/backoff.js';
export type { BackoffOptions } from './core/backoff.js';
export type { Logger, LogLevel } from './core/logger.js';
export type { Timers, TimerHandle, OnlineSource } from './core/timers.js';
export type { Transport, TransportHandlers, TransportSocket } from './core/transport.js';
export type { Permission, RequestSpec } from './core/requests.js';
export { CODES, MESSAGES, LIMITS } from './protocol/index.js';
export type { Permissions, ModuleName, UserEvent } from './protocol/index.js';
export { SDK } from './version.js';
export { Im, type TypingOptions } from './modules/im/im.js';
export { IM_EVENT } from './modules/im/types.js';
export { CsTeam } from './modules/im/cs-team.js';
export type { CsCustomerTarget, CsFileOptions } from './modules/im/cs-team.js';
export { CS_MESSAGE_TYPES, nextCustomerStatus, isCsConversationEnded } from './protocol/index.js';
export type { CsEventPayload, CsUser, CustomerStatus } from './protocol/index.js';
export type {
  Conversation,
  ConversationList,
  CsMessage,
  GroupMessage,
  GroupPresenceEvent,
  ImEvents,
  Message,
  MessageStatus,
  MessageTarget,
  OnlineUser,
  PrivateMessage,
  TextPayload,
  TypingEvent,
  UserPresenceEvent,
} from './modules/im/types.js';
export type {
  AudioMessageOptions,
  AudioPayload,
  FileMessageOptions,
  FilePayload,
  ImageMessageOptions,
  ImagePayload,
  VideoMessageOptions,
  VideoPayload,
} from './modules/im/media.js';
export { Uploader } from './modules/upload/uploader.js';
export type { UploadOptions, UploadResult } from './modules/upload/uploader.js';
export { defaultUploadHttp, fetchUploadHttp, xhrUploadHttp } from './modules/upload/http.js';
export type { UploadHttp, UploadHttpRequest, UploadHttpResponse } from './modules/upload/http.js';
export type { UploadToken } from './protocol/index.js';
export { Pubsub } from './modules/pubsub/pubsub.js';
export type {
  Channel,
  ChannelPresenceEvent,
  ChannelReadOptions,
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
export {
  LiveSource,
  LiveConnectionStatus,
  LiveConversations,
  LiveCsTeam,
  LiveGroupPresence,
  LiveMessages,
  LivePresence,
  LiveTyping,
} from './live/index.js';
export type {
  ConversationsState,
  ConversationTarget,
  CsTeamState,
  GroupPresenceState,
  MessagesState,
  MessageUpload,
  SendFileOptions,
  TypingTarget,
} from './live/index.js';
