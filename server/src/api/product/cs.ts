import type { CsConfig } from '../../config.js';
import type { AgentPolicy, AgentRoster } from '../../cs/index.js';
import type { MemberRecord, MemberStore } from '../../store/index.js';

/** A customer-service team as the app shows it. */
export interface ProductCsTeam {
  id: string;
  /** Empty when the app should use its own words for customer service. */
  name: string;
}

/** The app route of the customer's chat with a team: `index/config` hands it out as `kefu_h5`. */
export function kefuLink(teamId: string): string {
  return `#/im/view?${new URLSearchParams({ team: teamId }).toString()}`;
}

/** A configured agent entry in the form members' phones are stored in: `+86 138...` and `86138...` read bare. */
function normalise(entry: string): string {
  const trimmed = entry.trim();
  const mainland = /^\+?86[\s-]*(1[2-9]\d{9})$/.exec(trimmed);
  return mainland?.[1] ?? trimmed.replace(/\s+/g, ' ');
}

/**
 * The teams a member works in as an agent (spec §6): the configured team when the member's id or phone number is
 * one of its agents, else none. The app shows the agent console to these members only.
 */
export function agentTeams(cs: CsConfig, member: MemberRecord): ProductCsTeam[] {
  const agents = new Set(cs.agents.map(normalise));
  return agents.has(member.id) || agents.has(member.phone) ? [{ id: cs.teamId, name: cs.teamName }] : [];
}

/** The product app and its customer-service config, and where its members are found. */
interface ProductAgents {
  productAppkey: string;
  cs: CsConfig;
  members: Pick<MemberStore, 'byId'>;
}

/**
 * CS-15 for the product app: its team (`cs.teamId`) is served by the configured agents only, the members whose id or
 * phone number is listed, so that a customer cannot go online there and read the team's customers. Checked on every
 * read of the team's agents, so that taking someone off `PARLEY_CS_AGENTS` takes effect at the next start. Other
 * teams, and other apps, are not this rule's.
 */
export function productRoster({ productAppkey, cs, members }: ProductAgents): AgentRoster {
  return async (appkey, teamId, agentId) => {
    if (appkey !== productAppkey || teamId !== cs.teamId) return true;
    const member = await members.byId(agentId);
    return member !== undefined && agentTeams(cs, member).length > 0;
  };
}

/** Going online in the product app's team: the configured agents only ({@link productRoster}); else `fallback`. */
export function productAgentPolicy(params: ProductAgents & { fallback: AgentPolicy }): AgentPolicy {
  const roster = productRoster(params);
  return async (actor, teamId, accessToken) => {
    if (actor.app.appkey !== params.productAppkey || teamId !== params.cs.teamId) {
      return params.fallback(actor, teamId, accessToken);
    }
    return roster(actor.app.appkey, teamId, actor.userId);
  };
}
