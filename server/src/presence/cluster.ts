import type { Logger } from '../logger.js';
import { RedisScript, type RedisClient } from './redis.js';

/**
 * KEYS: nodes (a sorted set of node ids by last heartbeat). ARGV: nodeId, now, deadBefore.
 * Records the heartbeat and claims the nodes whose last one is older than `deadBefore`: each dead node is removed
 * here, so exactly one caller gets it. Returns {1 if this node was not in the set, dead node ids}.
 */
const HEARTBEAT = new RedisScript(`
local added = redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
local dead = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[3])
for _, id in ipairs(dead) do redis.call('ZREM', KEYS[1], id) end
return {added, dead}
`);

/** Heartbeat defaults, in ms. */
export const CLUSTER_DEFAULTS = {
  /** How often a node records that it is alive and looks for dead ones. */
  heartbeatMs: 5_000,
  /** How long without a heartbeat before a node counts as dead and its entries are removed. */
  timeoutMs: 30_000,
} as const;

/** What {@link createClusterMembership} needs. */
export interface ClusterMembershipOptions {
  client: RedisClient;
  /** The Redis key prefix. */
  prefix: string;
  /** This node's id, new at every start. */
  nodeId: string;
  /** The clock, ms. Nodes compare each other's heartbeats, so their clocks must agree to well within `timeoutMs`. */
  now: () => number;
  /** @default {@link CLUSTER_DEFAULTS.heartbeatMs} */
  heartbeatMs?: number;
  /** @default {@link CLUSTER_DEFAULTS.timeoutMs} */
  timeoutMs?: number;
  /** Removes what a dead node left in Redis and the store, and tells clients what changed. */
  onNodeGone(nodeId: string): Promise<void>;
  /**
   * This node was taken for dead (it stalled past the timeout) and its entries were removed: its clients must
   * connect again so that they are registered again.
   */
  onRevived(): void;
  logger: Logger;
}

/** This node's membership of the set of nodes sharing one Redis: heartbeats, and cleanup after dead nodes. */
export interface ClusterMembership {
  /** This node's id. */
  readonly nodeId: string;
  /** Records a heartbeat and cleans up after the nodes found dead; the timer calls it every `heartbeatMs`. */
  beat(): Promise<void>;
  /** The first heartbeat, then one every `heartbeatMs`. */
  start(): Promise<void>;
  /** Stops the heartbeats, removes whatever this node still has registered, and leaves the set. */
  close(): Promise<void>;
}

/** Creates the membership; nothing happens before `start()` or `beat()`. */
export function createClusterMembership(options: ClusterMembershipOptions): ClusterMembership {
  const { client, nodeId, logger } = options;
  const heartbeatMs = options.heartbeatMs ?? CLUSTER_DEFAULTS.heartbeatMs;
  const timeoutMs = options.timeoutMs ?? CLUSTER_DEFAULTS.timeoutMs;
  const nodesKey = `${options.prefix}nodes`;
  let joined = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let beating: Promise<void> = Promise.resolve();

  const cleanUp = async (deadNodeId: string) => {
    try {
      await options.onNodeGone(deadNodeId);
    } catch (err) {
      logger.error({ err, nodeId: deadNodeId }, 'cleanup after a dead node failed');
    }
  };

  const beat = async () => {
    const now = options.now();
    const [added, dead] = (await HEARTBEAT.run(client, [nodesKey], [nodeId, String(now), String(now - timeoutMs)])) as [
      number,
      string[],
    ];
    if (added === 1 && joined) {
      logger.warn({ nodeId }, 'this node was taken for dead; its clients will connect again');
      options.onRevived();
    }
    joined = true;
    for (const deadNodeId of dead) {
      logger.warn({ nodeId: deadNodeId }, 'node stopped without cleanup; removing its presence');
      await cleanUp(deadNodeId);
    }
  };

  const tick = () => {
    beating = beating.then(beat).catch((err: unknown) => logger.error({ err }, 'cluster heartbeat failed'));
  };

  return {
    nodeId,
    beat: () => {
      tick();
      return beating;
    },
    async start() {
      await beat();
      timer = setInterval(tick, heartbeatMs);
      timer.unref();
    },
    async close() {
      if (closed) return;
      closed = true;
      if (timer) clearInterval(timer);
      await beating;
      // Never registered (Redis was not reachable at start): nothing to remove.
      if (!joined) return;
      await cleanUp(nodeId);
      await client.zRem(nodesKey, nodeId);
    },
  };
}
