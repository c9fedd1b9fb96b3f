import { createAdapter } from '@socket.io/redis-streams-adapter';
import { createClient } from 'redis';
import type { Logger } from '../logger.js';

/** The socket.io adapter factory and the Redis connection behind it. */
export interface RedisAdapter {
  /** Pass to `io.adapter()`. */
  adapter: ReturnType<typeof createAdapter>;
  /** Closes the Redis connection; call after `io.close()`. */
  close(): Promise<void>;
}

/**
 * Connects the Redis Streams adapter to `url`, so that pushes reach sockets on every server node. The adapter
 * duplicates the connection for its blocking reads itself.
 */
export async function createRedisAdapter(url: string, logger: Logger): Promise<RedisAdapter> {
  const client = createClient({ url });
  client.on('error', (err: unknown) => logger.error({ err }, 'redis error'));
  await client.connect();
  return {
    adapter: createAdapter(client),
    async close() {
      if (client.isOpen) await client.quit();
    },
  };
}
