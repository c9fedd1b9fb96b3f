import { nodeEntriesKey, redisKey, RedisScript, type RedisClient } from './redis.js';
import type { AppUser, PresenceRegistry } from './registry.js';

/*
 * Keys (all under the configured prefix):
 *   presence:["<appkey>","<userId>"]  set of "<nodeId>\n<connectionId>": the user's connections on every node
 *   online:["<appkey>"]               set of the app's online user ids, for one SMISMEMBER per here-now
 *   node:<nodeId>:presence            set of JSON [userKey, onlineKey, member, appkey, userId]: what that node
 *                                     registered, so that another node can remove it if this one dies
 * A user is online while their connection set is not empty; each script changes it and reports the transition in
 * one atomic step, so two nodes never both see a "first" or a "last" connection.
 */

/** KEYS: user, online, node. ARGV: member, userId, nodeEntry. Returns 1 when the user came online. */
const CONNECTED = new RedisScript(`
local added = redis.call('SADD', KEYS[1], ARGV[1])
redis.call('SADD', KEYS[3], ARGV[3])
if added == 1 and redis.call('SCARD', KEYS[1]) == 1 then
  redis.call('SADD', KEYS[2], ARGV[2])
  return 1
end
return 0
`);

/** KEYS: user, online, node. ARGV: member, userId, nodeEntry. Returns 1 when the user went offline. */
const DISCONNECTED = new RedisScript(`
redis.call('SREM', KEYS[3], ARGV[3])
if redis.call('SREM', KEYS[1], ARGV[1]) == 1 and redis.call('SCARD', KEYS[1]) == 0 then
  redis.call('SREM', KEYS[2], ARGV[2])
  return 1
end
return 0
`);

/** KEYS: node. Returns appkey, userId pairs (flat) of the users that went offline. */
const FORGET_NODE = new RedisScript(`
local gone = {}
for _, raw in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local e = cjson.decode(raw)
  if redis.call('SREM', e[1], e[3]) == 1 and redis.call('SCARD', e[1]) == 0 then
    redis.call('SREM', e[2], e[5])
    table.insert(gone, e[4])
    table.insert(gone, e[5])
  end
end
redis.call('DEL', KEYS[1])
return gone
`);

/** What {@link createRedisPresenceRegistry} needs. */
export interface RedisPresenceRegistryOptions {
  client: RedisClient;
  /** Put before every key, so that several deployments (or tests) can share one Redis. */
  prefix: string;
  /** This node's id: its connections are registered under it. */
  nodeId: string;
}

/** A {@link PresenceRegistry} in Redis, shared by every node that uses the same Redis and prefix. */
export function createRedisPresenceRegistry(options: RedisPresenceRegistryOptions): PresenceRegistry {
  const { client, prefix, nodeId } = options;
  const onlineKey = (appkey: string) => redisKey(prefix, 'online', appkey);
  const args = (appkey: string, userId: string, connectionId: string) => {
    const userKey = redisKey(prefix, 'presence', appkey, userId);
    const member = `${nodeId}\n${connectionId}`;
    const entry = JSON.stringify([userKey, onlineKey(appkey), member, appkey, userId]);
    return {
      keys: [userKey, onlineKey(appkey), nodeEntriesKey(prefix, nodeId, 'presence')],
      argv: [member, userId, entry],
    };
  };

  return {
    async connected(appkey, userId, connectionId) {
      const { keys, argv } = args(appkey, userId, connectionId);
      return (await CONNECTED.run(client, keys, argv)) === 1;
    },
    async disconnected(appkey, userId, connectionId) {
      const { keys, argv } = args(appkey, userId, connectionId);
      return (await DISCONNECTED.run(client, keys, argv)) === 1;
    },
    async online(appkey, userIds) {
      if (userIds.length === 0) return [];
      const flags = await client.smIsMember(onlineKey(appkey), [...userIds]);
      return userIds.filter((_, i) => Boolean(flags[i]));
    },
    async forgetNode(deadNodeId) {
      const flat = (await FORGET_NODE.run(client, [nodeEntriesKey(prefix, deadNodeId, 'presence')], [])) as string[];
      const users: AppUser[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2) users.push({ appkey: flat[i]!, userId: flat[i + 1]! });
      return users;
    },
  };
}
