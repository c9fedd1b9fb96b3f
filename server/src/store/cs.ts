import { sql, type Kysely } from 'kysely';
import type { CsAgentsTable, CsConversationsTable, CsSessionsTable, Database } from './schema.js';
import { createCsMessageStore, type CsConversationKey, type CsMessageStore } from './cs-messages.js';

/** An agent's membership of a team. */
export interface CsAgentRecord {
  teamId: string;
  agentId: string;
  /** JSON. */
  agentData: string;
  /** JSON. */
  teamData: string;
  online: boolean;
}

/** A customer's session with a team, as stored. */
export interface CsSessionRecord {
  teamId: string;
  customerId: string;
  status: 'FREE' | 'PENDING' | 'ACCEPTED';
  sessionId: number;
  start: number;
  agentId: string | null;
  /** JSON. */
  agentData: string | null;
  /** JSON. */
  customerData: string;
  lastTs: number;
}

/** One participant's CS conversation row. */
export interface CsConversationRecord {
  ownerId: string;
  teamId: string;
  customerId: string;
  top: boolean;
  removed: boolean;
  /** JSON. */
  data: string;
  lastTs: number;
}

/** A participant's row to create or bring forward; `data` null keeps what is stored (`fallback` for a new row). */
export interface CsConversationTouch {
  ownerId: string;
  data: string | null;
  fallback?: string;
}

/** Customer service in storage: teams and agents, sessions, messages, conversation rows. */
export interface CsStore {
  readonly messages: CsMessageStore;
  /** Makes the agent a member of the team and online, with the data given. */
  setOnline(params: {
    appkey: string;
    teamId: string;
    agentId: string;
    agentData: string;
    teamData: string;
    now: number;
  }): Promise<void>;
  /** Marks the agent offline in the team (still a member). */
  setOffline(params: { appkey: string; teamId: string; agentId: string; now: number }): Promise<void>;
  /** One membership, if any. */
  agent(appkey: string, teamId: string, agentId: string): Promise<CsAgentRecord | undefined>;
  /** The teams the agent is online in. */
  onlineTeams(appkey: string, agentId: string): Promise<string[]>;
  /** The online agents of a team, oldest membership change first. */
  onlineAgents(appkey: string, teamId: string): Promise<CsAgentRecord[]>;
  /** Some member's data for the team (the customer side's conversation data), if any agent ever joined it. */
  teamData(appkey: string, teamId: string): Promise<string | undefined>;
  /** The session of a customer with a team, if one ever started. */
  session(key: CsConversationKey): Promise<CsSessionRecord | undefined>;
  /** Creates or replaces a session row. */
  saveSession(appkey: string, session: CsSessionRecord): Promise<void>;
  /** PENDING sessions of these teams, newest message first. */
  pendingSessions(appkey: string, teamIds: readonly string[]): Promise<CsSessionRecord[]>;
  /** How many sessions of the team the agent holds (ACCEPTED). */
  acceptedCount(appkey: string, teamId: string, agentId: string): Promise<number>;
  /** Creates or brings forward participants' rows (never back); a removed row shows again. */
  touch(key: CsConversationKey, lastTs: number, rows: readonly CsConversationTouch[]): Promise<void>;
  /** One participant's row. */
  conversation(key: CsConversationKey, ownerId: string): Promise<CsConversationRecord | undefined>;
  /** A user's rows that are not removed, topped first, then newest first. */
  conversations(appkey: string, ownerId: string, limit: number): Promise<CsConversationRecord[]>;
  /** Sets the top flag; returns whether the row exists. */
  setTop(key: CsConversationKey, ownerId: string, top: boolean): Promise<boolean>;
  /** Hides the row until its next message; returns whether it exists. */
  remove(key: CsConversationKey, ownerId: string): Promise<boolean>;
}

/** The Kysely implementation of {@link CsStore}. */
export function createCsStore(db: Kysely<Database>): CsStore {
  const convRow = (key: CsConversationKey, ownerId: string) =>
    db
      .updateTable('cs_conversations')
      .where('appkey', '=', key.appkey)
      .where('owner_id', '=', ownerId)
      .where('team_id', '=', key.teamId)
      .where('customer_id', '=', key.customerId);

  return {
    messages: createCsMessageStore(db),
    async setOnline({ appkey, teamId, agentId, agentData, teamData, now }) {
      await db
        .insertInto('cs_agents')
        .values({
          appkey,
          team_id: teamId,
          agent_id: agentId,
          agent_data: agentData,
          team_data: teamData,
          online: 1,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc.columns(['appkey', 'team_id', 'agent_id']).doUpdateSet({
            agent_data: agentData,
            team_data: teamData,
            online: 1,
            updated_at: now,
          }),
        )
        .execute();
    },
    async setOffline({ appkey, teamId, agentId, now }) {
      await db
        .updateTable('cs_agents')
        .set({ online: 0, updated_at: now })
        .where('appkey', '=', appkey)
        .where('team_id', '=', teamId)
        .where('agent_id', '=', agentId)
        .execute();
    },
    async agent(appkey, teamId, agentId) {
      const row = await db
        .selectFrom('cs_agents')
        .selectAll()
        .where('appkey', '=', appkey)
        .where('team_id', '=', teamId)
        .where('agent_id', '=', agentId)
        .executeTakeFirst();
      return row && toAgent(row);
    },
    async onlineTeams(appkey, agentId) {
      const rows = await db
        .selectFrom('cs_agents')
        .select('team_id')
        .where('appkey', '=', appkey)
        .where('agent_id', '=', agentId)
        .where('online', '=', 1)
        .orderBy('team_id')
        .execute();
      return rows.map((r) => r.team_id);
    },
    async onlineAgents(appkey, teamId) {
      const rows = await db
        .selectFrom('cs_agents')
        .selectAll()
        .where('appkey', '=', appkey)
        .where('team_id', '=', teamId)
        .where('online', '=', 1)
        .orderBy('updated_at')
        .orderBy('agent_id')
        .execute();
      return rows.map(toAgent);
    },
    async teamData(appkey, teamId) {
      const row = await db
        .selectFrom('cs_agents')
        .select('team_data')
        .where('appkey', '=', appkey)
        .where('team_id', '=', teamId)
        .orderBy('updated_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row?.team_data;
    },
    async session({ appkey, teamId, customerId }) {
      const row = await db
        .selectFrom('cs_sessions')
        .selectAll()
        .where('appkey', '=', appkey)
        .where('team_id', '=', teamId)
        .where('customer_id', '=', customerId)
        .executeTakeFirst();
      return row && toSession(row);
    },
    async saveSession(appkey, s) {
      const row: CsSessionsTable = {
        appkey,
        team_id: s.teamId,
        customer_id: s.customerId,
        status: s.status,
        session_id: s.sessionId,
        start: s.start,
        agent_id: s.agentId,
        agent_data: s.agentData,
        customer_data: s.customerData,
        last_ts: s.lastTs,
      };
      const { appkey: _a, team_id: _t, customer_id: _c, ...changes } = row;
      await db
        .insertInto('cs_sessions')
        .values(row)
        .onConflict((oc) => oc.columns(['appkey', 'team_id', 'customer_id']).doUpdateSet(changes))
        .execute();
    },
    async pendingSessions(appkey, teamIds) {
      if (teamIds.length === 0) return [];
      const rows = await db
        .selectFrom('cs_sessions')
        .selectAll()
        .where('appkey', '=', appkey)
        .where('team_id', 'in', [...teamIds])
        .where('status', '=', 'PENDING')
        .orderBy('last_ts', 'desc')
        .execute();
      return rows.map(toSession);
    },
    async acceptedCount(appkey, teamId, agentId) {
      const row = await db
        .selectFrom('cs_sessions')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('appkey', '=', appkey)
        .where('team_id', '=', teamId)
        .where('status', '=', 'ACCEPTED')
        .where('agent_id', '=', agentId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    async touch(key, lastTs, rows) {
      for (const r of rows) {
        const values: CsConversationsTable = {
          appkey: key.appkey,
          owner_id: r.ownerId,
          team_id: key.teamId,
          customer_id: key.customerId,
          top: 0,
          removed: 0,
          data: r.data ?? r.fallback ?? '{}',
          last_ts: lastTs,
        };
        await db
          .insertInto('cs_conversations')
          .values(values)
          .onConflict((oc) =>
            oc.columns(['appkey', 'owner_id', 'team_id', 'customer_id']).doUpdateSet({
              // Portable max(), as in store/im.ts.
              last_ts: sql<number>`case when excluded.last_ts > cs_conversations.last_ts then excluded.last_ts else cs_conversations.last_ts end`,
              removed: 0,
              ...(r.data !== null ? { data: r.data } : {}),
            }),
          )
          .execute();
      }
    },
    async conversation(key, ownerId) {
      const row = await db
        .selectFrom('cs_conversations')
        .selectAll()
        .where('appkey', '=', key.appkey)
        .where('owner_id', '=', ownerId)
        .where('team_id', '=', key.teamId)
        .where('customer_id', '=', key.customerId)
        .executeTakeFirst();
      return row && toConversation(row);
    },
    async conversations(appkey, ownerId, limit) {
      const rows = await db
        .selectFrom('cs_conversations')
        .selectAll()
        .where('appkey', '=', appkey)
        .where('owner_id', '=', ownerId)
        .where('removed', '=', 0)
        .orderBy('top', 'desc')
        .orderBy('last_ts', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toConversation);
    },
    async setTop(key, ownerId, top) {
      const result = await convRow(key, ownerId)
        .set({ top: top ? 1 : 0 })
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async remove(key, ownerId) {
      const result = await convRow(key, ownerId).set({ removed: 1 }).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

function toAgent(row: CsAgentsTable): CsAgentRecord {
  return {
    teamId: row.team_id,
    agentId: row.agent_id,
    agentData: row.agent_data,
    teamData: row.team_data,
    online: Number(row.online) === 1,
  };
}

function toSession(row: CsSessionsTable): CsSessionRecord {
  return {
    teamId: row.team_id,
    customerId: row.customer_id,
    status: row.status as CsSessionRecord['status'],
    sessionId: Number(row.session_id),
    start: Number(row.start),
    agentId: row.agent_id,
    agentData: row.agent_data,
    customerData: row.customer_data,
    lastTs: Number(row.last_ts),
  };
}

function toConversation(row: CsConversationsTable): CsConversationRecord {
  return {
    ownerId: row.owner_id,
    teamId: row.team_id,
    customerId: row.customer_id,
    top: Number(row.top) === 1,
    removed: Number(row.removed) === 1,
    data: row.data,
    lastTs: Number(row.last_ts),
  };
}
