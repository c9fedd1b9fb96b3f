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
  /**
   * The sender's user data when sent. Pushed messages of one sender whose data did not change share one object:
   * read it, do not change it.
   */
  senderData: Record<string, unknown>;
}

/**
 * A customer-service message. `to` is the team when the customer sent it, else the customer; `accepted` tells
 * whether an agent had accepted the customer; `sessionId` orders the customer's sessions with the team.
 */
export interface CsMessage extends MessageBase {
  scene: 'cs';
  to: string;
  teamId: string;
  senderData: Record<string, unknown>;
  accepted: boolean;
  sessionId?: number;
}

/** A chat or customer-service message. */
export type Message = PrivateMessage | GroupMessage | CsMessage;

/**
 * Where a message goes: a user (`private`), a group, or a customer-service team (`cs`, `id` the team id), with data
 * about the target for the conversation list. `teamId` is set by `csteam(teamId)` for an agent's message, whose
 * `id` is then the customer.
 */
export interface MessageTarget {
  type: 'private' | 'group' | 'cs';
  id: string | number;
  data?: Record<string, unknown>;
  teamId?: string;
}

/** The text payload. */
export interface TextPayload {
  text: string;
}

/** A conversation in the list. */
export interface Conversation {
  type: 'private' | 'group' | 'cs';
  /** The other user, for private conversations. */
  userId?: string;
  /** The group, for group conversations. */
  groupId?: string;
  /** For customer service: the team (customer side) or the customer (agent side). */
  id?: string;
  /** For customer service: the team. */
  teamId?: string;
  /** For an agent's customer-service conversation: its last message is an end, or a transfer to someone else. */
  ended?: boolean;
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

/**
 * Identifies a conversation: the scene and the other user's or the group's id; for customer service the team
 * (customer side) or the customer (agent side), with the team in `teamId`.
 */
export interface ConversationRef {
  type: 'private' | 'group' | 'cs';
  id: string;
  teamId?: string;
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

/** TYPING-2, TYPING-4: someone started or stopped typing in a conversation with me (`IM_EVENT.TYPING`). */
export interface TypingEvent {
  /**
   * The private chat with the typer, the group, or a customer-service conversation as I name it: the team when I am
   * the customer, the customer (with `teamId`) when I am their agent.
   */
  conversation: { type: 'private' | 'group' | 'cs'; id: string; teamId?: string };
  /** Who started or stopped, with the data they authorized with. */
  user: OnlineUser;
  typing: boolean;
  /** Everyone typing there now, after this change, first to start first. */
  users: OnlineUser[];
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
  /** A customer-service message reached me as the customer. */
  CS_MESSAGE_RECEIVED: CsMessage;
  /** The pending customers of the teams I am online in (agents). */
  PENDING_CONVERSATIONS_UPDATED: ConversationList;
  /** A customer was accepted (the `CS_ACCEPT` message), seen by the customer and the agents concerned. */
  CS_ACCEPTED: CsMessage;
  /** A session ended (the `CS_END` message). */
  CS_ENDED: CsMessage;
  /** A customer was handed to another agent (the `CS_TRANSFER` message). */
  CS_TRANSFERRED: CsMessage;
  /** I went online or offline in a team, on this device or another. */
  CS_ONLINE_CHANGED: { teamId: string; online: boolean };
  /** Parley's own: someone started or stopped typing in a chat with me (TYPING-2). */
  TYPING: TypingEvent;
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
  CS_MESSAGE_RECEIVED: 'CS_MESSAGE_RECEIVED',
  PENDING_CONVERSATIONS_UPDATED: 'PENDING_CONVERSATIONS_UPDATED',
  CS_ACCEPTED: 'CS_ACCEPTED',
  CS_ENDED: 'CS_ENDED',
  CS_TRANSFERRED: 'CS_TRANSFERRED',
  CS_ONLINE_CHANGED: 'CS_ONLINE_CHANGED',
  TYPING: 'TYPING',
} as const;

/** The conversation key of a message, from the point of view of `me`. */
export function conversationOf(message: Message, me: string): ConversationRef {
  if (message.scene === 'group') return { type: 'group', id: message.groupId };
  if (message.scene === 'cs') {
    const customerId = message.to === message.teamId ? message.senderId : message.to;
    return { type: 'cs', id: customerId === me ? message.teamId : customerId, teamId: message.teamId };
  }
  return { type: 'private', id: message.senderId === me ? message.receiverId : message.senderId };
}

/** A conversation's key among those of its type: the id, or for customer service the team and the id. */
export function idKeyOf(ref: ConversationRef): string {
  // Team and id together: an agent may serve one customer in two teams.
  return ref.type === 'cs' ? JSON.stringify([ref.teamId ?? ref.id, ref.id]) : String(ref.id);
}

/** A map key for a conversation. */
export function keyOf(ref: ConversationRef): string {
  return `${ref.type}:${idKeyOf(ref)}`;
}
