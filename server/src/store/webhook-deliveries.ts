import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { StoreDialect } from './index.js';
import type { Database } from './schema.js';

/** `webhook_deliveries` and `webhook_nodes` (migration `0053_webhook_deliveries`). */
type WebhookTables = {
  webhook_deliveries: {
    id: string;
    appkey: string;
    body: string;
    attempts: number;
    owner: string | null;
    created_at: number;
  };
  webhook_nodes: { node_id: string; alive_until: number };
};

/** A webhook delivery kept until it is answered 2xx or given up (HOOK-8). */
export interface StoredWebhookDelivery {
  /** The body's id (HOOK-2). */
  id: string;
  appkey: string;
  /** The JSON body, as posted and signed. */
  body: string;
  /** Attempts made so far. */
  attempts: number;
  createdAt: number;
}

/** One batch of changes to the kept deliveries, applied in one transaction in this order. */
export interface WebhookDeliveryWrites {
  /** New deliveries, held by `owner` (null: by no node yet). */
  added: Array<StoredWebhookDelivery & { owner: string | null }>;
  /** Deliveries tried again without success: their attempts so far. */
  tried: Array<{ id: string; attempts: number }>;
  /** Deliveries answered 2xx or given up. */
  done: string[];
}

/**
 * Webhook deliveries waiting to be answered (HOOK-8). Each node holds the ones it queued in memory and says it is
 * alive; what no live node holds (a node stopped, or its queue was full) is taken by the next node that asks.
 */
export interface WebhookDeliveryStore {
  write(writes: WebhookDeliveryWrites): Promise<void>;
  /**
   * `nodeId` is alive until `until` (ms): nobody else takes what it holds before then. The heartbeats of nodes gone
   * by `now` are removed: a gone node and one never heard of are alike to {@link claim}.
   */
  heartbeat(nodeId: string, until: number, now: number): Promise<void>;
  /**
   * Takes for `nodeId`, oldest first, up to `limit` deliveries that no node holds or whose node is no longer alive
   * at `now`. Two nodes asking at once never take the same one.
   */
  claim(nodeId: string, now: number, limit: number): Promise<StoredWebhookDelivery[]>;
  /** `nodeId` stops: it lets go of everything it holds and of its heartbeat. */
  leave(nodeId: string): Promise<void>;
}

/** Rows per statement, well under both databases' bounds on a statement's parameters. */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/** The Kysely implementation of {@link WebhookDeliveryStore}. */
export function createWebhookDeliveryStore(base: Kysely<Database>, dialect: StoreDialect): WebhookDeliveryStore {
  const db = base.withTables<WebhookTables>();
  // PostgreSQL: nodes taking at once skip each other's rows. A row another node took and committed after this
  // statement began is locked here all the same, and its condition is checked again on the row as that node left
  // it: the condition reads only the locked row (no join, whose other side would stay as first read), so the row
  // is then seen held and passed over. SQLite has one writer at a time, and one process.
  const lock = dialect === 'postgres' ? sql`for update of d skip locked` : sql``;
  return {
    async write({ added, tried, done }) {
      if (added.length === 0 && tried.length === 0 && done.length === 0) return;
      await db.transaction().execute(async (trx) => {
        for (const rows of chunks(added)) {
          await trx
            .insertInto('webhook_deliveries')
            .values(
              rows.map((r) => ({
                id: r.id,
                appkey: r.appkey,
                body: r.body,
                attempts: r.attempts,
                owner: r.owner,
                created_at: r.createdAt,
              })),
            )
            .onConflict((oc) => oc.column('id').doNothing())
            .execute();
        }
        for (const { id, attempts } of tried) {
          await trx.updateTable('webhook_deliveries').set({ attempts }).where('id', '=', id).execute();
        }
        for (const ids of chunks(done)) {
          await trx.deleteFrom('webhook_deliveries').where('id', 'in', ids).execute();
        }
      });
    },
    async heartbeat(nodeId, until, now) {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('webhook_nodes')
          .values({ node_id: nodeId, alive_until: until })
          .onConflict((oc) => oc.column('node_id').doUpdateSet({ alive_until: until }))
          .execute();
        // Nodes that stopped without leaving would otherwise stay here for good, one row per crash.
        await trx.deleteFrom('webhook_nodes').where('alive_until', '<', now).execute();
      });
    },
    async claim(nodeId, now, limit) {
      const { rows } = await sql<{ id: string; appkey: string; body: string; attempts: number; created_at: number }>`
        update webhook_deliveries set owner = ${nodeId}
        where id in (
          select d.id from webhook_deliveries d
          where d.owner is null
            or d.owner not in (select n.node_id from webhook_nodes n where n.alive_until >= ${now})
          order by d.created_at, d.id
          limit ${limit}
          ${lock}
        )
        returning id, appkey, body, attempts, created_at`.execute(db);
      return rows
        .map((r) => ({
          id: r.id,
          appkey: r.appkey,
          body: r.body,
          attempts: Number(r.attempts),
          createdAt: Number(r.created_at),
        }))
        .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },
    async leave(nodeId) {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('webhook_deliveries').set({ owner: null }).where('owner', '=', nodeId).execute();
        await trx.deleteFrom('webhook_nodes').where('node_id', '=', nodeId).execute();
      });
    },
  };
}
