import { createHash } from 'node:crypto';
import type { RedisClientType } from 'redis';

/** A node-redis client, as `createClient({ url })` makes it. */
export type RedisClient = RedisClientType;

/**
 * A Lua script, run by its SHA1 (EVALSHA) and sent whole (EVAL) only when Redis does not know it yet. Redis runs a
 * script atomically, which is what lets several nodes agree on a user's first and last connection.
 *
 * The scripts build some key names from the entries they read, so they need a single Redis server (or a primary with
 * replicas), not Redis Cluster.
 */
export class RedisScript {
  readonly #source: string;
  readonly #sha: string;

  constructor(source: string) {
    this.#source = source;
    this.#sha = createHash('sha1').update(source).digest('hex');
  }

  /** Runs the script with `keys` and `args`; resolves with Redis's reply. */
  async run(client: RedisClient, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await client.evalSha(this.#sha, { keys, arguments: args });
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return client.eval(this.#source, { keys, arguments: args });
    }
  }
}

/**
 * A Redis key: `prefix`, a kind, and the parts as a JSON array, so that ids holding `:` can never make two keys
 * meet.
 */
export function redisKey(prefix: string, kind: string, ...parts: string[]): string {
  return `${prefix}${kind}:${JSON.stringify(parts)}`;
}

/** The key of the set of entries a node registered, which another node removes if this one dies. */
export function nodeEntriesKey(prefix: string, nodeId: string, kind: string): string {
  return `${prefix}node:${nodeId}:${kind}`;
}
