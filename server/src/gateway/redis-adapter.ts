import { createAdapter } from '@socket.io/redis-streams-adapter';
import { createClient } from 'redis';
import type { Server } from 'socket.io';
import { MessageType, type ClusterMessage } from 'socket.io-adapter';
import type { Logger } from '../logger.js';
import type { RedisClient } from '../presence/redis.js';

/** The Redis connection of a node: the socket.io adapter and the registries of presence share it. */
export interface RedisConnection {
  /** The client; commands wait until `connect()` has succeeded. */
  readonly client: RedisClient;
  /** Connects; call before `adapter()`. */
  connect(): Promise<void>;
  /**
   * The Redis Streams adapter, so that pushes reach sockets on every node; pass to `io.adapter()`. Its stream and
   * channels are named after the key prefix, so that deployments sharing one Redis do not hear each other.
   */
  adapter(options?: { excluded?: RemoteBroadcastFilter }): ReturnType<typeof createAdapter>;
  /** Closes the connection; call after `io.close()` and after everything else that uses Redis. */
  close(): Promise<void>;
}

/**
 * The sockets of this node that a broadcast arriving from another node must leave out, on top of those its sender
 * left out: given the rooms it goes to and its packet's data (`[event, ...args]`).
 */
export type RemoteBroadcastFilter = (rooms: readonly string[], data: readonly unknown[]) => readonly string[];

/** The broadcast of a cluster message, as the adapter hands it between nodes. */
interface BroadcastData {
  packet: { data?: unknown };
  opts: { rooms?: string[]; except?: string[] };
}

/**
 * Makes `adapter` leave out, of each broadcast that comes from another node, the sockets `excluded` names. Cluster
 * adapters receive every node's messages through `onMessage`, with the broadcast's rooms and exceptions as arrays
 * of socket.io's cluster protocol; the exceptions are added there, before the adapter delivers to this node's
 * sockets. A broadcast from this node is not seen here: its sender's own exceptions apply.
 */
function filterRemoteBroadcasts(adapter: object, excluded: RemoteBroadcastFilter): void {
  const target = adapter as { uid: string; onMessage(message: ClusterMessage, offset?: string): void };
  const onMessage = target.onMessage.bind(adapter);
  target.onMessage = (message, offset) => {
    if (message.type === MessageType.BROADCAST && message.uid !== target.uid) {
      const { packet, opts } = message.data as BroadcastData;
      const rooms = opts.rooms ?? [];
      const left = Array.isArray(packet.data) && rooms.length > 0 ? excluded(rooms, packet.data) : [];
      if (left.length > 0) opts.except = [...(opts.except ?? []), ...left];
    }
    onMessage(message, offset);
  };
}

/**
 * Creates the Redis connection of a node, not yet connected. The adapter duplicates the connection for its blocking
 * reads itself.
 */
export function createRedisConnection(params: { url: string; prefix: string; logger: Logger }): RedisConnection {
  const client: RedisClient = createClient({ url: params.url });
  client.on('error', (err: unknown) => params.logger.error({ err }, 'redis error'));
  return {
    client,
    async connect() {
      await client.connect();
    },
    adapter(options) {
      const make = createAdapter(client, {
        streamName: `${params.prefix}socket.io`,
        channelPrefix: `${params.prefix}socket.io`,
      });
      const excluded = options?.excluded;
      if (!excluded) return make;
      // socket.io calls the factory with `new`: a function, not an arrow, whose returned object is the adapter.
      return function filtered(nsp: unknown) {
        const adapter = make(nsp);
        filterRemoteBroadcasts(adapter, excluded);
        return adapter;
      };
    },
    async close() {
      if (client.isOpen) await client.quit();
    },
  };
}

/**
 * Closes every client connection of this node at the transport, so that clients reconnect (and register their
 * presence again) as after a lost link: for a node that other nodes took for dead.
 */
export function reconnectClients(io: Server): void {
  for (const socket of io.of('/').sockets.values()) socket.conn.close();
}
