/**
 * React bindings for Parley: one client per app through {@link ParleyProvider}, and hooks over
 * `useSyncExternalStore` on the framework-free live values of `parley-im`.
 *
 * @packageDocumentation
 */
import {
  createContext,
  createElement,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import type { ParleyClient } from '../client.js';
import type { ConnectInput } from '../core/connect-input.js';
import type { ConnectionStatus } from '../core/status.js';
import { LiveConnectionStatus } from '../live/connection.js';
import { LiveConversations, type ConversationsState } from '../live/conversations.js';
import {
  LiveMessages,
  type ConversationTarget,
  type MessageUpload,
  type MessagesState,
  type SendFileOptions,
} from '../live/messages.js';
import { LivePresence } from '../live/presence.js';
import { LiveGroupPresence, type GroupPresenceState } from '../live/group-presence.js';
import { LiveCsTeam, type CsTeamState } from '../live/cs-team.js';
import { LiveTyping, type TypingTarget } from '../live/typing.js';
import type { CsTeam } from '../modules/im/cs-team.js';
import type { Message, OnlineUser } from '../modules/im/types.js';
import type { UserEvent } from '../protocol/index.js';

const ParleyContext = createContext<ParleyClient | null>(null);

/** Props of {@link ParleyProvider}. */
export interface ParleyProviderProps {
  /** The client, created once outside React (module scope or a ref), so that renders never make another. */
  client: ParleyClient;
  /** Connect as this user while mounted; leave out to connect yourself. */
  user?: ConnectInput;
  children?: ReactNode;
}

// A disconnect waits one tick, so that StrictMode's unmount-and-mount in development reuses the connection.
const pendingDisconnects = new WeakMap<ParleyClient, ReturnType<typeof setTimeout>>();

/** Makes `client` available to the hooks below; with `user`, keeps it connected as that user while mounted. */
export function ParleyProvider({ client, user, children }: ParleyProviderProps): ReactNode {
  const userKey = user ? JSON.stringify([user.id, user.otp, user.data]) : undefined;
  useEffect(() => {
    if (!user) return;
    const pending = pendingDisconnects.get(client);
    if (pending !== undefined) {
      clearTimeout(pending);
      pendingDisconnects.delete(client);
    }
    const status = client.getConnectionStatus();
    const other = client.user !== undefined && String(client.user.id) !== String(user.id);
    if (other && status !== 'disconnected' && status !== 'disconnecting') {
      // Another user: that connection is not this user's to reuse.
      void client
        .disconnect()
        .then(() => client.connect(user))
        .catch(() => undefined);
    } else if (status === 'disconnected' || status === 'connect_failed') {
      void client.connect(user).catch(() => undefined);
    }
    return () => {
      pendingDisconnects.set(
        client,
        setTimeout(() => {
          pendingDisconnects.delete(client);
          void client.disconnect();
        }, 0),
      );
    };
    // The user is compared by value: a new object with the same identity must not reconnect.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, userKey]);
  return createElement(ParleyContext.Provider, { value: client }, children);
}

/** The client of the nearest {@link ParleyProvider}. */
export function useParleyClient(): ParleyClient {
  const client = useContext(ParleyContext);
  if (!client) throw new Error('useParleyClient: no ParleyProvider above this component');
  return client;
}

function useLive<T>(source: { subscribe: (listener: () => void) => () => void; getSnapshot: () => T }): T {
  return useSyncExternalStore(source.subscribe, source.getSnapshot, source.getSnapshot);
}

/** The connection status, re-rendering on every change. */
export function useConnectionStatus(): ConnectionStatus {
  const client = useParleyClient();
  const source = useMemo(() => new LiveConnectionStatus(client), [client]);
  return useLive(source);
}

/**
 * Calls `handler` with each user event named `name` that the app's server sends this user (USER-1), while mounted.
 * The latest `handler` is called, so it need not be memoised.
 */
export function useUserEvent(name: string, handler: (event: UserEvent) => void): void {
  const client = useParleyClient();
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(
    () =>
      client.on('userEvent', (event) => {
        if (event.name === name) latest.current(event);
      }),
    [client, name],
  );
}

/** What {@link useConversations} returns: the list's state and a way to load it again. */
export interface UseConversations extends ConversationsState {
  /** Loads the list again, e.g. after `error`. */
  refresh(): Promise<void>;
}

/** The conversation list with its unread total, loaded when connected and kept current. */
export function useConversations(): UseConversations {
  const client = useParleyClient();
  const source = useMemo(() => new LiveConversations(client), [client]);
  const state = useLive(source);
  return useMemo(() => ({ ...state, refresh: () => source.refresh() }), [state, source]);
}

/** What {@link useMessages} returns: the state and the actions on the conversation. */
export interface UseMessages extends MessagesState {
  /** Loads older messages. */
  loadMore(): Promise<void>;
  /** Sends a text; it appears at once as `sending`. */
  sendText(text: string): Promise<Message>;
  /**
   * Sends an image, file, audio or video; it appears at once as `sending`, its upload progress in `uploads`.
   * Rejects with the SDK's 400 error for a file it refuses (empty, over 30 MiB, a type the kind does not allow).
   */
  sendFile(options: SendFileOptions): Promise<Message>;
  /** Stops a media message's upload; the message fails and may be retried. Returns whether one was under way. */
  abort(message: Message): boolean;
  /** Sends a failed message again (a media message with the same file). */
  retry(message: Message): Promise<Message>;
  /** Marks the conversation read. */
  markRead(): Promise<void>;
}

/** One conversation's messages: paging, live updates, sending text and files with optimistic status and retry. */
export function useMessages(conversation: ConversationTarget, pageSize = 20): UseMessages {
  const client = useParleyClient();
  const { type, id } = conversation;
  const dataKey = JSON.stringify(conversation.data ?? {});
  const source = useMemo(
    () => new LiveMessages(client, { type, id, data: JSON.parse(dataKey) as Record<string, unknown> }, pageSize),
    [client, type, id, dataKey, pageSize],
  );
  const state = useLive(source);
  return useMemo(
    () => ({
      ...state,
      loadMore: () => source.loadMore(),
      sendText: (text: string) => source.sendText(text),
      sendFile: (options: SendFileOptions) => source.sendFile(options),
      abort: (message: Message) => source.abort(message),
      retry: (message: Message) => source.retry(message),
      markRead: () => source.markRead(),
    }),
    [state, source],
  );
}

/** Which of these users are online (`{[id]: boolean}`), kept current by presence events. */
export function usePresence(userIds: readonly (string | number)[]): Readonly<Record<string, boolean>> {
  const client = useParleyClient();
  const key = userIds.map(String).join('\u0000');
  const source = useMemo(() => new LivePresence(client, key === '' ? [] : key.split('\u0000')), [client, key]);
  return useLive(source);
}

/**
 * A group's presence: how many members are online and who, kept current by `GROUP_PRESENCE`; subscribed to the
 * group's presence while mounted.
 */
export function useGroupPresence(groupId: string): GroupPresenceState {
  const client = useParleyClient();
  const source = useMemo(() => new LiveGroupPresence(client, groupId), [client, groupId]);
  return useLive(source);
}

/** What {@link useCsTeam} returns: the team's state for this agent and the team's actions. */
export interface UseCsTeam extends CsTeamState {
  /** The team object: online, offline, accept, end, transfer, customerStatus, agents, liveSession, ... */
  team: CsTeam;
  /** Reads the online state and the pending list again. */
  refresh(): Promise<void>;
}

/**
 * A customer-service team for the agent console: whether this agent is online for it, the pending customers, and
 * the team's actions. The online state follows the agent's other devices too.
 */
export function useCsTeam(teamId: string): UseCsTeam {
  const client = useParleyClient();
  const source = useMemo(() => new LiveCsTeam(client, teamId), [client, teamId]);
  const state = useLive(source);
  const team = useMemo(() => client.im.csteam(teamId), [client, teamId]);
  return useMemo(() => ({ ...state, team, refresh: () => source.refresh() }), [state, team, source]);
}

/** What {@link useTyping} returns: who is typing there now, and what tells the other side I am. */
export interface UseTyping {
  /** Everyone typing in the chat now, first to start first. */
  typingUsers: readonly OnlineUser[];
  /** Call on each keystroke in the chat's input (sent at most once every 3 s); safe to pass on as it is. */
  keystroke: () => void;
  /** Call when the input is cleared or left; safe to pass on as it is. */
  stopTyping: () => void;
}

/**
 * Typing indicators for one private or group chat (TYPING-1..TYPING-3): who is typing there, kept current by the
 * `TYPING` event, and `keystroke` / `stopTyping` for the chat's input. Sending a message there ends my typing.
 */
export function useTyping(conversation: TypingTarget): UseTyping {
  const client = useParleyClient();
  const { type } = conversation;
  const id = String(conversation.id);
  const source = useMemo(() => new LiveTyping(client, { type, id }), [client, type, id]);
  const typingUsers = useLive(source);
  return useMemo(
    () => ({ typingUsers, keystroke: () => source.keystroke(), stopTyping: () => source.stopTyping() }),
    [typingUsers, source],
  );
}

export type {
  ConversationsState,
  ConversationTarget,
  CsTeamState,
  GroupPresenceState,
  MessagesState,
  MessageUpload,
  SendFileOptions,
  TypingTarget,
};
