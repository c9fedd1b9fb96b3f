import { accessGrant } from '../auth/token.js';
import { ServiceError } from '../errors.js';
import { assertIds } from '../ids.js';
import { CODES, MESSAGES, SERVER_PUSHES, type WireCsAgent, type WireCsOnlineChanged } from '../protocol.js';
import type { Actor, Pusher } from '../push.js';
import type { CsAgentRecord, CsStore } from '../store/index.js';
import { assertDataSize, isJsonObject } from './wire.js';

/**
 * CS-15: whether `actor` may go online in `teamId`, given the `at` of their `CS_ONLINE`. An app server's rule; see
 * {@link tokenAgentPolicy} for the default.
 */
export type AgentPolicy = (actor: Actor, teamId: string, accessToken: string | null | undefined) => Promise<boolean>;

/**
 * The default agent rule (CS-15): anyone in an app without `requireAccessToken`, as in the reference; otherwise the
 * holder of an unexpired token signed with the app's secret, `{u: userId, t: teamId | [teamIds], e: expiry ms}`,
 * naming the team.
 */
export function tokenAgentPolicy(now: () => number): AgentPolicy {
  return (actor, teamId, accessToken) => {
    if (!actor.app.requireAccessToken) return Promise.resolve(true);
    const grant = accessGrant({
      secret: actor.app.secretKey,
      token: accessToken,
      userId: actor.userId,
      now: now(),
      field: 't',
      ids: [teamId],
    });
    return Promise.resolve(grant !== undefined);
  };
}

/** Teams and their agents (CS-1, CS-2): going online and offline, who is online where. */
export interface TeamService {
  /** `CS_ONLINE`: joins the team (if not yet a member) and goes online with this data, if the policy lets them. */
  online(
    actor: Actor,
    request: { teamId: string; teamData: string; agentData: string; at?: string | null | undefined },
  ): Promise<void>;
  /** `CS_OFFLINE`: refused while the agent holds accepted customers in the team. */
  offline(actor: Actor, teamId: string): Promise<void>;
  /** `CS_MY_TEAMS`: the teams the actor is online in. */
  myTeams(actor: Actor): Promise<string[]>;
  /** `CS_AGENTS`: the online agents of a team, data as JSON strings. */
  agents(actor: Actor, teamId: string): Promise<WireCsAgent[]>;
  /** The actor's membership if they are an online agent of the team; else 401 `No permission`. */
  requireOnlineAgent(actor: Actor, teamId: string): Promise<CsAgentRecord>;
  /** Whether the user is a member of the team (online or not). */
  isMember(appkey: string, teamId: string, userId: string): Promise<boolean>;
}

/** Creates the team service. */
export function createTeamService(deps: {
  cs: CsStore;
  pusher: Pusher;
  now: () => number;
  /** @default {@link tokenAgentPolicy} */
  agentPolicy?: AgentPolicy | undefined;
}): TeamService {
  const { cs, pusher } = deps;
  const mayServe = deps.agentPolicy ?? tokenAgentPolicy(deps.now);

  /** CS-1: the agent's other devices follow (the reference keeps its team set current from this push). */
  const tellOtherDevices = (actor: Actor, payload: WireCsOnlineChanged) =>
    pusher.toUsers({
      appkey: actor.app.appkey,
      userIds: [actor.userId],
      event: SERVER_PUSHES.csOnlineChanged,
      payload,
      exceptConnectionId: actor.connectionId,
    });

  return {
    async online(actor, { teamId, teamData, agentData, at }) {
      assertIds([teamId]);
      if (!isJsonObject(teamData) || !isJsonObject(agentData)) {
        throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.csDataNotObjects);
      }
      assertDataSize(teamData, agentData);
      if (!(await mayServe(actor, teamId, at))) throw new ServiceError(CODES.UNAUTHORIZED, MESSAGES.noPermission);
      const appkey = actor.app.appkey;
      await cs.setOnline({ appkey, teamId, agentId: actor.userId, agentData, teamData, now: deps.now() });
      tellOtherDevices(actor, { teamId, online: true });
    },
    async offline(actor, teamId) {
      assertIds([teamId]);
      const appkey = actor.app.appkey;
      // CS-2: a customer being served must not lose their agent without an end or a transfer.
      if ((await cs.acceptedCount(appkey, teamId, actor.userId)) > 0) {
        throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.csOfflineWithCustomers);
      }
      await cs.setOffline({ appkey, teamId, agentId: actor.userId, now: deps.now() });
      tellOtherDevices(actor, { teamId, online: false });
    },
    myTeams: (actor) => cs.onlineTeams(actor.app.appkey, actor.userId),
    async agents(actor, teamId) {
      assertIds([teamId]);
      const agents = await cs.onlineAgents(actor.app.appkey, teamId);
      return agents.map((a) => ({ id: a.agentId, data: a.agentData }));
    },
    async requireOnlineAgent(actor, teamId) {
      assertIds([teamId]);
      const agent = await cs.agent(actor.app.appkey, teamId, actor.userId);
      if (!agent?.online) throw new ServiceError(CODES.UNAUTHORIZED, MESSAGES.noPermission);
      return agent;
    },
    async isMember(appkey, teamId, userId) {
      return (await cs.agent(appkey, teamId, userId)) !== undefined;
    },
  };
}
