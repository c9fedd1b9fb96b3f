import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../logger.js';
import { type RedisClient, RedisScript, redisKey } from '../presence/redis.js';
import { csTurns, type CsTurns } from './sessions.js';

/** How long one node may hold a conversation's turn before another node may take it (a node that died holding it). */
export const CS_TURN_LEASE_MS = 10_000;
/** How long a node waits between asks for a turn another node holds: its tasks take a few store statements. */
const CS_TURN_RETRY_MS = 5;

/** Lets go of a turn only if this node still holds it: a lease that ran out may be another node's by now. */
const RELEASE_SCRIPT = new RedisScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`);

/**
 * CS-17: the turns of a CS conversation (CS-3) shared by the nodes through Redis, so that two nodes never run one
 * conversation's messages and session changes at once: two agents on two nodes accepting one customer, or a
 * customer's messages arriving on two nodes. Within a node the turns queue as {@link csTurns} does, and the node
 * then takes the conversation's lease in Redis (`SET NX PX`) before each task and gives it back after. While Redis is
 * away (not connected, or failing), the node runs its tasks in its own order alone.
 */
export function redisCsTurns(params: {
  client: RedisClient;
  prefix: string;
  logger: Logger;
  /** @default {@link CS_TURN_LEASE_MS} */
  leaseMs?: number;
}): CsTurns {
  const { client, logger } = params;
  const leaseMs = params.leaseMs ?? CS_TURN_LEASE_MS;
  const local = csTurns();

  /**
   * Takes the lease, waiting while another node holds it; false when Redis is away, or the turn did not come within
   * three leases (other nodes kept taking it), and the node goes alone.
   */
  const acquire = async (lock: string, token: string): Promise<boolean> => {
    const deadline = performance.now() + 3 * leaseMs;
    for (;;) {
      if (!client.isReady) {
        logger.warn('redis is not connected; a customer-service turn runs on this node alone');
        return false;
      }
      try {
        const set = await client.set(lock, token, { condition: 'NX', expiration: { type: 'PX', value: leaseMs } });
        if (set === 'OK') return true;
      } catch (err) {
        logger.warn({ err }, 'redis failed a customer-service turn; it runs on this node alone');
        return false;
      }
      if (performance.now() > deadline) {
        logger.warn('a customer-service turn did not come in time; it runs on this node alone');
        return false;
      }
      await sleep(CS_TURN_RETRY_MS * (0.5 + Math.random()));
    }
  };

  return (key, task) =>
    local(key, async () => {
      const lock = redisKey(params.prefix, 'cs-turn', key.appkey, key.teamId, key.customerId);
      const token = randomUUID();
      const held = await acquire(lock, token);
      try {
        return await task();
      } finally {
        if (held) {
          await RELEASE_SCRIPT.run(client, [lock], [token]).catch((err: unknown) => {
            logger.warn({ err }, 'redis did not take back a customer-service turn; its lease runs out by itself');
          });
        }
      }
    });
}
