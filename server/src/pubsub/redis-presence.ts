import { nodeEntriesKey, redisKey, RedisScript, type RedisClient } from '../presence/redis.js';
import type { HereNowAck, PresenceAction, PresenceMember } from '../protocol.js';
import { liveId, type ChannelPresence, type ChannelPresenceChange, type PresenceChange } from './presence.js';

/*
 * Keys of one channel, under base = <prefix>chp:["<appkey>","<channel>"]:
 *   base:members       sorted set of present user ids, scored in the order they came (newest highest)
 *   base:data          hash of user id -> JSON of the member's data
 *   base:timeouts      hash of user id -> when they timed out, for `back`; expires a back window after the last one
 *   base:live:<userId> set of "<sid>\n<connectionId>": the user's open member connections, on any node
 * and per node, node:<nodeId>:chp: set of JSON [base, userId, liveId] it registered, removed by another node if this
 * one dies. Each script changes a user's connections and reports the join/leave in one atomic step.
 */

/**
 * KEYS: live, members, data, timeouts, node. ARGV: liveId, userId, data, now, backWithinMs, nodeEntry.
 * Returns {action, amount} when the user became present, else nil.
 */
const ENTER = new RedisScript(`
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('SADD', KEYS[5], ARGV[6])
redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
if redis.call('ZSCORE', KEYS[2], ARGV[2]) then return false end
local now = tonumber(ARGV[4])
local score = now
local top = redis.call('ZREVRANGE', KEYS[2], 0, 0, 'WITHSCORES')
if top[2] and tonumber(top[2]) >= now then score = tonumber(top[2]) + 1 end
redis.call('ZADD', KEYS[2], score, ARGV[2])
local at = redis.call('HGET', KEYS[4], ARGV[2])
redis.call('HDEL', KEYS[4], ARGV[2])
local action = 'join'
if at and tonumber(at) >= now - tonumber(ARGV[5]) then action = 'back' end
return {action, redis.call('ZCARD', KEYS[2])}
`);

/**
 * KEYS: live, members, data, timeouts, node. ARGV: liveId, userId, how, now, nodeEntry, backWithinMs.
 * Returns {data, amount} when that was the user's last member connection, else nil.
 */
const EXIT = new RedisScript(`
redis.call('SREM', KEYS[5], ARGV[5])
if redis.call('SREM', KEYS[1], ARGV[1]) == 0 or redis.call('SCARD', KEYS[1]) > 0 then return false end
if redis.call('ZREM', KEYS[2], ARGV[2]) == 0 then return false end
local data = redis.call('HGET', KEYS[3], ARGV[2])
redis.call('HDEL', KEYS[3], ARGV[2])
if ARGV[3] == 'timeout' then
  redis.call('HSET', KEYS[4], ARGV[2], ARGV[4])
  redis.call('PEXPIRE', KEYS[4], ARGV[6])
end
return {data or '{}', redis.call('ZCARD', KEYS[2])}
`);

/** KEYS: members, data. ARGV: limit. Returns {amount, id1, data1, id2, data2, ...}, newest first. */
const HERE_NOW = new RedisScript(`
local out = {redis.call('ZCARD', KEYS[1])}
for _, id in ipairs(redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)) do
  table.insert(out, id)
  table.insert(out, redis.call('HGET', KEYS[2], id) or '{}')
end
return out
`);

/**
 * KEYS: node. ARGV: now, backWithinMs. Every member whose last connection was on that node times out.
 * Returns {base, userId, data, amount} per change, flat.
 */
const FORGET_NODE = new RedisScript(`
local out = {}
for _, raw in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local e = cjson.decode(raw)
  local base, user = e[1], e[2]
  local live = base .. ':live:' .. user
  if redis.call('SREM', live, e[3]) == 1 and redis.call('SCARD', live) == 0 then
    local members = base .. ':members'
    if redis.call('ZREM', members, user) == 1 then
      local data = redis.call('HGET', base .. ':data', user) or '{}'
      redis.call('HDEL', base .. ':data', user)
      redis.call('HSET', base .. ':timeouts', user, ARGV[1])
      redis.call('PEXPIRE', base .. ':timeouts', ARGV[2])
      table.insert(out, base)
      table.insert(out, user)
      table.insert(out, data)
      table.insert(out, redis.call('ZCARD', members))
    end
  end
end
redis.call('DEL', KEYS[1])
return out
`);

/** What {@link createRedisChannelPresence} needs. */
export interface RedisChannelPresenceOptions {
  client: RedisClient;
  /** Put before every key. */
  prefix: string;
  /** This node's id: its member connections are registered under it. */
  nodeId: string;
  /** How long after a timeout a return counts as `back`: the session lifetime. */
  backWithinMs: number;
}

/** A {@link ChannelPresence} in Redis, shared by every node that uses the same Redis and prefix. */
export function createRedisChannelPresence(options: RedisChannelPresenceOptions): ChannelPresence {
  const { client, prefix, nodeId, backWithinMs } = options;
  const basePrefix = `${prefix}chp:`;
  const baseOf = (appkey: string, channel: string) => redisKey(prefix, 'chp', appkey, channel);
  const keysOf = (base: string, userId: string, node: string) => [
    `${base}:live:${userId}`,
    `${base}:members`,
    `${base}:data`,
    `${base}:timeouts`,
    nodeEntriesKey(prefix, node, 'chp'),
  ];
  const parseData = (raw: string): Record<string, unknown> => {
    try {
      const value: unknown = JSON.parse(raw);
      return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  };

  return {
    async enter({ appkey, channel, member, entry, now }) {
      const base = baseOf(appkey, channel);
      const id = liveId(entry);
      const reply = (await ENTER.run(client, keysOf(base, member.id, nodeId), [
        id,
        member.id,
        JSON.stringify(member.data),
        String(now),
        String(backWithinMs),
        JSON.stringify([base, member.id, id]),
      ])) as [PresenceAction, number] | null;
      if (!reply) return undefined;
      return { action: reply[0], member, amount: Number(reply[1]) };
    },

    async exit({ appkey, channel, userId, entry, how, now }) {
      const base = baseOf(appkey, channel);
      const id = liveId(entry);
      const reply = (await EXIT.run(client, keysOf(base, userId, nodeId), [
        id,
        userId,
        how,
        String(now),
        JSON.stringify([base, userId, id]),
        String(backWithinMs),
      ])) as [string, number] | null;
      if (!reply) return undefined;
      const change: PresenceChange = {
        action: how,
        member: { id: userId, data: parseData(reply[0]) },
        amount: Number(reply[1]),
      };
      return change;
    },

    async hereNow(appkey, channel, limit): Promise<HereNowAck> {
      const base = baseOf(appkey, channel);
      const reply = (await HERE_NOW.run(client, [`${base}:members`, `${base}:data`], [String(limit)])) as Array<
        string | number
      >;
      const members: PresenceMember[] = [];
      for (let i = 1; i + 1 < reply.length; i += 2) {
        members.push({ id: String(reply[i]), data: parseData(String(reply[i + 1])) });
      }
      return { members, amount: Number(reply[0]) };
    },

    // Timeouts expire with their key (PEXPIRE on every timeout); nothing to sweep.
    sweep: () => Promise.resolve(),

    async forgetNode(deadNodeId, now) {
      const flat = (await FORGET_NODE.run(
        client,
        [nodeEntriesKey(prefix, deadNodeId, 'chp')],
        [String(now), String(backWithinMs)],
      )) as Array<string | number>;
      const changes: ChannelPresenceChange[] = [];
      for (let i = 0; i + 3 < flat.length; i += 4) {
        const [appkey, channel] = JSON.parse(String(flat[i]).slice(basePrefix.length)) as [string, string];
        const member = { id: String(flat[i + 1]), data: parseData(String(flat[i + 2])) };
        changes.push({ appkey, channel, change: { action: 'timeout', member, amount: Number(flat[i + 3]) } });
      }
      return changes;
    },
  };
}
