import { sql, type Kysely } from 'kysely';
import type { PubsubSessionTables } from './pubsub-sessions-migration.js';
import type { Database } from './schema.js';

/** A stored session and what it holds. */
export interface StoredSubscriberSession {
  sid: string;
  appkey: string;
  userId: string | null;
  /** Subscribed channels and whether the session is a presence member of each. */
  channels: Array<{ channel: string; presence: boolean }>;
  /** Channels whose presence it watches. */
  watching: string[];
}

/** A session and the connection (on a node) that serves it now. */
export interface SessionConnection {
  sid: string;
  appkey: string;
  userId: string | null;
  connectionId: string;
  nodeId: string;
}

/** An unacked qos-1 message of a session. */
export interface PendingMessage {
  guid: string;
  channel: string;
  /** The JSON of the wire message. */
  body: string;
  /** The connection it was pushed to live, if any. */
  deliveredTo: string | null;
}

/**
 * Pub/sub sessions in storage (PUB-8, PUB-9): subscriptions, presence watches and unacked qos-1 messages per
 * session, shared by every node and kept across restarts. Times are ms since the epoch, passed in by the caller.
 */
export interface PubsubSessionStore {
  /** The session `sid` with its channels and watches, if stored. */
  load(sid: string): Promise<StoredSubscriberSession | undefined>;
  /** Stores the session if new and records the connection serving it. */
  attach(session: SessionConnection): Promise<void>;
  /** Records that `connectionId` no longer serves `sid`, unless another connection took over since. */
  detach(params: { sid: string; connectionId: string; now: number }): Promise<void>;
  /** Adds channels to the session (attaching it); `presence` makes it a member of them, never the reverse. */
  subscribe(params: { session: SessionConnection; channels: readonly string[]; presence: boolean }): Promise<void>;
  /** Removes a channel from a session, with its pending messages. */
  unsubscribe(params: { sid: string; channel: string }): Promise<void>;
  /** The session watches a channel's presence (attaching it). */
  watch(params: { session: SessionConnection; channel: string }): Promise<void>;
  /** The session stops watching a channel's presence. */
  unwatch(params: { sid: string; channel: string }): Promise<void>;
  /** Forgets a session and all it holds. */
  drop(sid: string): Promise<void>;
  /**
   * Records a qos-1 message as pending for every session subscribed to its channel, in one statement whatever their
   * number; each entry notes the connection serving its session now. Returns how many sessions it was for.
   */
  addPending(message: { appkey: string; channel: string; guid: string; time: number; body: string }): Promise<number>;
  /** Deletes acked entries, many in few statements. */
  ack(entries: ReadonlyArray<{ sid: string; guid: string }>): Promise<void>;
  /** A session's newest `limit` pending messages (of `channels`, or all), oldest first. */
  pending(params: { sid: string; channels?: readonly string[] | undefined; limit: number }): Promise<PendingMessage[]>;
  /**
   * PUB-9: copies to `sid` the pending messages of `channels` held by the same user's other sessions that have no
   * connection, as not yet delivered. Returns how many entries it added.
   */
  takeOver(params: { sid: string; appkey: string; userId: string; channels: readonly string[] }): Promise<number>;
  /** Marks the sessions served by `nodeId` (or by any node, when absent) as without a connection since `now`. */
  release(params: { nodeId?: string | undefined; now: number }): Promise<number>;
  /**
   * Forgets sessions without a connection since before `before`, with all they hold; returns how many. With
   * `watchesBefore` (earlier than `before`), a session that watches presence keeps its row and its watches until it
   * has had no connection since before `watchesBefore`, for {@link PubsubSessionStore.handOver}.
   */
  deleteExpired(before: number, watchesBefore?: number): Promise<number>;
  /**
   * The presence watches of session `from`, handed to session `to` (attaching it), when `from` is of the same app
   * and user and has no connection; `from` is forgotten then. Answers the channels handed over, none otherwise.
   */
  handOver(params: { from: string; to: SessionConnection }): Promise<string[]>;
  /**
   * Keeps each session's newest `maxPending` pending messages, and deletes message bodies older than `before` that
   * no pending entry refers to.
   */
  prune(params: { maxPending: number; before: number }): Promise<void>;
}

/** Row values per statement, well below SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 200;
/** Sessions per ack statement. */
const ACK_CHUNK = 512;

/**
 * `values` padded (with its last one) to a power of two: an IN list of any length then takes one of a few
 * statement shapes, so that prepared statements are reused and never crowd out the others in the cache.
 */
function padded(values: readonly string[]): string[] {
  let size = 1;
  while (size < values.length) size *= 2;
  const out = [...values];
  while (out.length < size) out.push(values[values.length - 1]!);
  return out;
}

/** The Kysely implementation of {@link PubsubSessionStore}. */
export function createPubsubSessionStore(database: Kysely<Database>): PubsubSessionStore {
  const db = database.withTables<PubsubSessionTables>();

  const attach = async (s: SessionConnection) => {
    await db
      .insertInto('pubsub_sessions')
      .values({
        sid: s.sid,
        appkey: s.appkey,
        user_id: s.userId,
        connection_id: s.connectionId,
        node_id: s.nodeId,
        offline_since: null,
      })
      .onConflict((oc) =>
        oc.column('sid').doUpdateSet({ connection_id: s.connectionId, node_id: s.nodeId, offline_since: null }),
      )
      .execute();
  };

  /** PUB-9: one statement for a few channels: entries of the user's sessions without a connection, copied. */
  const takeOverChunk = async (sid: string, appkey: string, userId: string, channels: readonly string[]) => {
    const result = await db
      .insertInto('pubsub_pending')
      .columns(['sid', 'appkey', 'guid', 'channel', 'time', 'delivered_to'])
      .expression(
        db
          .selectFrom('pubsub_pending as p')
          .innerJoin('pubsub_sessions as s', 's.sid', 'p.sid')
          .select([
            sql<string>`${sid}`.as('sid'),
            'p.appkey',
            'p.guid',
            'p.channel',
            'p.time',
            sql<null>`null`.as('delivered_to'),
          ])
          .where('s.appkey', '=', appkey)
          .where('s.user_id', '=', userId)
          .where('s.sid', '<>', sid)
          .where('s.connection_id', 'is', null)
          .where('p.channel', 'in', padded(channels)),
      )
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0);
  };

  const drop = async (sid: string) => {
    await db.deleteFrom('pubsub_pending').where('sid', '=', sid).execute();
    await db.deleteFrom('pubsub_subscriptions').where('sid', '=', sid).execute();
    await db.deleteFrom('pubsub_watches').where('sid', '=', sid).execute();
    await db.deleteFrom('pubsub_sessions').where('sid', '=', sid).execute();
  };

  const expiredSids = (before: number) =>
    db.selectFrom('pubsub_sessions').select('sid').where('offline_since', '<', before);

  return {
    async load(sid) {
      const row = await db.selectFrom('pubsub_sessions').selectAll().where('sid', '=', sid).executeTakeFirst();
      if (!row) return undefined;
      const channels = await db
        .selectFrom('pubsub_subscriptions')
        .select(['channel', 'presence'])
        .where('sid', '=', sid)
        .orderBy('channel')
        .execute();
      const watches = await db
        .selectFrom('pubsub_watches')
        .select('channel')
        .where('sid', '=', sid)
        .orderBy('channel')
        .execute();
      return {
        sid,
        appkey: row.appkey,
        userId: row.user_id,
        channels: channels.map((c) => ({ channel: c.channel, presence: Number(c.presence) === 1 })),
        watching: watches.map((w) => w.channel),
      };
    },

    attach,

    async detach({ sid, connectionId, now }) {
      await db
        .updateTable('pubsub_sessions')
        .set({ connection_id: null, node_id: null, offline_since: now })
        .where('sid', '=', sid)
        .where('connection_id', '=', connectionId)
        .execute();
    },

    async subscribe({ session, channels, presence }) {
      await attach(session);
      if (channels.length === 0) return;
      const rows = [...new Set(channels)].map((channel) => ({
        sid: session.sid,
        appkey: session.appkey,
        channel,
        presence: presence ? 1 : 0,
      }));
      for (let i = 0; i < rows.length; i += CHUNK) {
        await db
          .insertInto('pubsub_subscriptions')
          .values(rows.slice(i, i + CHUNK))
          .onConflict((oc) =>
            presence
              ? oc.columns(['sid', 'channel']).doUpdateSet({ presence: 1 })
              : oc.columns(['sid', 'channel']).doNothing(),
          )
          .execute();
      }
    },

    async unsubscribe({ sid, channel }) {
      await db.deleteFrom('pubsub_pending').where('sid', '=', sid).where('channel', '=', channel).execute();
      await db.deleteFrom('pubsub_subscriptions').where('sid', '=', sid).where('channel', '=', channel).execute();
    },

    async watch({ session, channel }) {
      await attach(session);
      await db
        .insertInto('pubsub_watches')
        .values({ sid: session.sid, channel })
        .onConflict((oc) => oc.columns(['sid', 'channel']).doNothing())
        .execute();
    },

    async unwatch({ sid, channel }) {
      await db.deleteFrom('pubsub_watches').where('sid', '=', sid).where('channel', '=', channel).execute();
    },

    drop,

    async addPending({ appkey, channel, guid, time, body }) {
      // Entries first, the body only if some session needs it: a channel without subscribers costs one read.
      // The SELECT's WHERE also settles SQLite's parse of INSERT ... SELECT ... ON CONFLICT.
      const result = await db
        .insertInto('pubsub_pending')
        .columns(['sid', 'appkey', 'guid', 'channel', 'time', 'delivered_to'])
        .expression(
          db
            .selectFrom('pubsub_subscriptions as s')
            .innerJoin('pubsub_sessions as ss', 'ss.sid', 's.sid')
            .select([
              's.sid',
              's.appkey',
              sql<string>`${guid}`.as('guid'),
              's.channel',
              sql<number>`cast(${time} as bigint)`.as('time'),
              'ss.connection_id',
            ])
            .where('s.appkey', '=', appkey)
            .where('s.channel', '=', channel),
        )
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      const added = Number(result.numInsertedOrUpdatedRows ?? 0);
      if (added > 0) {
        await db
          .insertInto('pubsub_pending_messages')
          .values({ appkey, guid, time, body })
          .onConflict((oc) => oc.columns(['appkey', 'guid']).doNothing())
          .execute();
      }
      return added;
    },

    async ack(entries) {
      // One statement per message and up to ACK_CHUNK sessions: the usual batch is one message acked by many.
      const byGuid = new Map<string, string[]>();
      for (const { sid, guid } of entries) {
        const sids = byGuid.get(guid);
        if (sids) sids.push(sid);
        else byGuid.set(guid, [sid]);
      }
      for (const [guid, sids] of byGuid) {
        for (let i = 0; i < sids.length; i += ACK_CHUNK) {
          await db
            .deleteFrom('pubsub_pending')
            .where('guid', '=', guid)
            .where('sid', 'in', padded(sids.slice(i, i + ACK_CHUNK)))
            .execute();
        }
      }
    },

    async pending({ sid, channels, limit }) {
      if (channels?.length === 0) return [];
      let query = db
        .selectFrom('pubsub_pending as p')
        .innerJoin('pubsub_pending_messages as m', (join) =>
          join.onRef('m.appkey', '=', 'p.appkey').onRef('m.guid', '=', 'p.guid'),
        )
        .select(['p.guid', 'p.channel', 'p.delivered_to', 'm.body'])
        .where('p.sid', '=', sid);
      if (channels) query = query.where('p.channel', 'in', padded(channels));
      const rows = await query.orderBy('p.time', 'desc').orderBy('p.guid', 'desc').limit(limit).execute();
      return rows
        .reverse()
        .map((r) => ({ guid: r.guid, channel: r.channel, body: r.body, deliveredTo: r.delivered_to }));
    },

    async takeOver({ sid, appkey, userId, channels }) {
      let added = 0;
      for (let i = 0; i < channels.length; i += CHUNK) {
        added += await takeOverChunk(sid, appkey, userId, channels.slice(i, i + CHUNK));
      }
      return added;
    },

    async release({ nodeId, now }) {
      let query = db
        .updateTable('pubsub_sessions')
        .set({ connection_id: null, node_id: null, offline_since: now })
        .where('connection_id', 'is not', null);
      if (nodeId !== undefined) query = query.where('node_id', '=', nodeId);
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async deleteExpired(before, watchesBefore = before) {
      await db.deleteFrom('pubsub_pending').where('sid', 'in', expiredSids(before)).execute();
      await db.deleteFrom('pubsub_subscriptions').where('sid', 'in', expiredSids(before)).execute();
      await db
        .deleteFrom('pubsub_watches')
        .where('sid', 'in', expiredSids(Math.min(before, watchesBefore)))
        .execute();
      const result = await db
        .deleteFrom('pubsub_sessions')
        .where('offline_since', '<', before)
        .where((eb) =>
          eb.or([
            eb('offline_since', '<', watchesBefore),
            eb.not(
              eb.exists(
                eb.selectFrom('pubsub_watches as w').select('w.sid').whereRef('w.sid', '=', 'pubsub_sessions.sid'),
              ),
            ),
          ]),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async handOver({ from, to }) {
      const old = await db.selectFrom('pubsub_sessions').selectAll().where('sid', '=', from).executeTakeFirst();
      if (!old || old.sid === to.sid || old.connection_id !== null) return [];
      if (old.appkey !== to.appkey || old.user_id !== to.userId) return [];
      const watches = await db.selectFrom('pubsub_watches').select('channel').where('sid', '=', from).execute();
      const channels = watches.map((w) => w.channel).sort();
      if (channels.length > 0) {
        await attach(to);
        for (let i = 0; i < channels.length; i += CHUNK) {
          await db
            .insertInto('pubsub_watches')
            .values(channels.slice(i, i + CHUNK).map((channel) => ({ sid: to.sid, channel })))
            .onConflict((oc) => oc.columns(['sid', 'channel']).doNothing())
            .execute();
        }
      }
      await drop(from);
      return channels;
    },

    async prune({ maxPending, before }) {
      const crowded = await db
        .selectFrom('pubsub_pending')
        .select('sid')
        .groupBy('sid')
        .having((eb) => eb.fn.countAll(), '>', maxPending)
        .execute();
      for (const { sid } of crowded) {
        const boundary = await db
          .selectFrom('pubsub_pending')
          .select(['time', 'guid'])
          .where('sid', '=', sid)
          .orderBy('time', 'desc')
          .orderBy('guid', 'desc')
          .offset(maxPending - 1)
          .limit(1)
          .executeTakeFirst();
        if (!boundary) continue;
        await db
          .deleteFrom('pubsub_pending')
          .where('sid', '=', sid)
          .where((eb) =>
            eb.or([
              eb('time', '<', boundary.time),
              eb.and([eb('time', '=', boundary.time), eb('guid', '<', boundary.guid)]),
            ]),
          )
          .execute();
      }
      await db
        .deleteFrom('pubsub_pending_messages')
        .where('time', '<', before)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('pubsub_pending as p')
                .select('p.sid')
                .whereRef('p.appkey', '=', 'pubsub_pending_messages.appkey')
                .whereRef('p.guid', '=', 'pubsub_pending_messages.guid'),
            ),
          ),
        )
        .execute();
    },
  };
}
