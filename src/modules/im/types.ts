import type { Recaller } from '../../protocol/index.js';

/** A message's life: created (`new`), on its way (`sending`), acknowledged by the server (`success`) or not (`fail`). */
export type MessageStatus = 'new' | 'sending' | 'success' | 'fail';

/** Fields every message has. */
interface MessageBase {
  /** Client-made id, unique per sender; the server de-duplicates resends by it. */
  messageId: string;
  /** `text`, `image`, `file`, `audio`, `video`, or an app's custom type. */
  type: string;
  /** Server time in ms once sent; creation time before that. Strictly increasing within a conversation. */
  timestamp: number;
  senderId: string;
  payload: unknown;
  status: MessageStatus;
  recalled: boolean;
  recaller?: Recaller;
}

/** A private chat message. `read` tells the sender that the receiver has read it. */
export interface PrivateMessage extends MessageBase {
  scene: 'private';
  receiverId: string;
  read: boolean;
}

/** A group chat message. */
export interface GroupMessage extends MessageBase {
  scene: 'group';
  groupId: string;
  senderData: Record<string, unknown>;
}

/** A chat message. */
export type Message = PrivateMessage | GroupMessage;

/** Where a message goes: a user (`private`) or a group, with data about the target for the conversation list. */
export interface MessageTarget {
  type: 'private' | 'group';
  id: string | number;
  data?: Record<string, unknown>;
}

/** The text payload. */
export interface TextPayload {
  text: string;
}

/** A conversation in the list. */
export interface Conversation {
  type: 'private' | 'group';
  /** The other user, for private conversations. */
  userId?: string;
  /** The group, for group conversations. */
  groupId?: string;
  /** Data about the other user or the group. */
  data: Record<string, unknown>;
  /** Messages from others not yet marked read. */
  unread: number;
  lastMessage: Message;
  top: boolean;
}

/** The conversation list with its unread total. */
export interface ConversationList {
  unreadTotal: number;
  conversations: Conversation[];
}

/** Identifies a conversation: the scene and the other user's or the group's id. */
export interface ConversationRef {
  type: 'private' | 'group';
  id: string;
}

/** A presence change of a user. */
export interface UserPresenceEvent {
  time: number;
  action: 'online' | 'offline';
  id: string;
  data: Record<string, unknown>;
}

/** A presence change in a group. */
export interface GroupPresenceEvent {
  time: number;
  action: 'online' | 'offline' | 'join' | 'leave';
  groupId: string;
  groupOnlineCount: number;
  id: string;
  data: Record<string, unknown>;
}

/** A user as here-now lists them. */
export interface OnlineUser {
  id: string;
  data: Record<string, unknown>;
}

/** The events of `client.im`, by the reference's names. Each listener gets one context object. */
export interface ImEvents {
  [event: string]: unknown;
  PRIVATE_MESSAGE_RECEIVED: PrivateMessage;
  GROUP_MESSAGE_RECEIVED: GroupMessage;
  CONVERSATIONS_UPDATED: ConversationList;
  MESSAGE_READ: Message[];
  MESSAGE_DELETED: Message[];
  MESSAGE_RECALLED: Message[];
  USER_PRESENCE: UserPresenceEvent;
  GROUP_PRESENCE: GroupPresenceEvent;
}

/** Names of the IM events, as the reference's `IM_EVENT`. */
export const IM_EVENT = {
  PRIVATE_MESSAGE_RECEIVED: 'PRIVATE_MESSAGE_RECEIVED',
  GROUP_MESSAGE_RECEIVED: 'GROUP_MESSAGE_RECEIVED',
  CONVERSATIONS_UPDATED: 'CONVERSATIONS_UPDATED',
  MESSAGE_READ: 'MESSAGE_READ',
  MESSAGE_DELETED: 'MESSAGE_DELETED',
  MESSAGE_RECALLED: 'MESSAGE_RECALLED',
  USER_PRESENCE: 'USER_PRESENCE',
  GROUP_PRESENCE: 'GROUP_PRESENCE',
} as const;

/** The conversation key of a message, from the point of view of `me`. */
export function conversationOf(message: Message, me: string): ConversationRef {
  if (message.scene === 'group') return { type: 'group', id: message.groupId };
  return { type: 'private', id: message.senderId === me ? message.receiverId : message.senderId };
}

/** A map key for a conversation. */
export function keyOf(ref: ConversationRef): string {
  return `${ref.type}:${ref.id}`;
}
