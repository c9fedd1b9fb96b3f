import type { AppConfig } from './config.js';
import type { ServerPushName } from './protocol.js';

/**
 * How domain services (IM, presence) reach clients without knowing about sockets. The gateway implements it over
 * socket.io rooms, so with the Redis adapter a push reaches the user's connections on every node.
 */
export interface Pusher {
  /**
   * Sends `payload` as `event` to every connection of these users, each connection once, except the connection
   * `exceptConnectionId` (the one whose request caused the push, when it already knows). No users: nothing is sent.
   */
  toUsers(params: {
    appkey: string;
    userIds: readonly string[];
    event: ServerPushName;
    payload: object;
    exceptConnectionId?: string | undefined;
  }): void;
  /** Sends `payload` as `event` to one connection (on whichever node holds it). */
  toConnection(params: { connectionId: string; event: ServerPushName; payload: object }): void;
  /**
   * Makes a connection of this node a member of `room` (`leave`: no longer one). A connection leaves its rooms when
   * it closes.
   */
  joinRoom(params: { connectionId: string; room: string; leave?: boolean }): void;
  /**
   * Sends `payload` as `event` to every connection in `room` on every node, except those of the users
   * `exceptUserIds` of `appkey` and the connection `exceptConnectionId`.
   */
  toRoom(params: {
    appkey: string;
    room: string;
    event: ServerPushName;
    payload: object;
    exceptUserIds?: readonly string[];
    exceptConnectionId?: string | undefined;
  }): void;
}

/** The authorized, named user a domain call acts for, and the connection it came from. */
export interface Actor {
  app: AppConfig;
  userId: string;
  /** The user data sent at authorize. */
  userData: Record<string, unknown>;
  /** The connection (socket id) the request came on. */
  connectionId: string;
}

/** The user data of `actor` as stored with each message: encoded once per session rather than once per message. */
export function userDataJson(actor: Actor): string {
  let json = encodedUserData.get(actor.userData);
  if (json === undefined) {
    json = JSON.stringify(actor.userData);
    encodedUserData.set(actor.userData, json);
  }
  return json;
}

const encodedUserData = new WeakMap<object, string>();
