import { createAdapter } from '@socket.io/redis-streams-adapter';
import { createClient } from 'redis';
import type { Server } from 'socket.io';
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
  adapter(): ReturnType<typeof createAdapter>;
  /** Closes the connection; call after `io.close()` and after everything else that uses Redis. */
  close(): Promise<void>;
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
    adapter: () =>
      createAdapter(client, { streamName: `${params.prefix}socket.io`, channelPrefix: `${params.prefix}socket.io` }),
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
