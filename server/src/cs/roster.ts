import type { CsStore } from '../store/index.js';

/**
 * CS-15: whether a user is still one of a team's agents by the host's own list, asked on every read of the team's
 * agents, so that taking someone off the list takes effect at once: they no longer count as a member, as online, as
 * a transfer target, or among those who hear a pending customer.
 */
export type AgentRoster = (appkey: string, teamId: string, agentId: string) => Promise<boolean>;

/** The store as `roster` lets it be seen: memberships it refuses are not there. Everything else is the store's. */
export function withRoster(store: CsStore, roster: AgentRoster): CsStore {
  return {
    ...store,
    async agent(appkey, teamId, agentId) {
      const agent = await store.agent(appkey, teamId, agentId);
      return agent && (await roster(appkey, teamId, agentId)) ? agent : undefined;
    },
    async onlineTeams(appkey, agentId) {
      const teamIds = await store.onlineTeams(appkey, agentId);
      const kept = await Promise.all(teamIds.map((teamId) => roster(appkey, teamId, agentId)));
      return teamIds.filter((_, i) => kept[i]);
    },
    async onlineAgents(appkey, teamId) {
      const agents = await store.onlineAgents(appkey, teamId);
      const kept = await Promise.all(agents.map((agent) => roster(appkey, teamId, agent.agentId)));
      return agents.filter((_, i) => kept[i]);
    },
  };
}
