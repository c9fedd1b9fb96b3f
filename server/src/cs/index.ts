import type { Pusher } from '../push.js';
import type { CsStore, MessageStore } from '../store/index.js';
import { createCsConversationService, type CsConversationService } from './conversations.js';
import { createLiveWatchers, type LiveWatchers } from './live.js';
import { createCsSessionService, csTurns, type CsEvents, type CsSessionService, type CsTurns } from './sessions.js';
import { withRoster, type AgentRoster } from './roster.js';
import { createTeamService, type AgentPolicy, type TeamService } from './teams.js';

export type { CsConversationService } from './conversations.js';
export type { LiveWatchers } from './live.js';
export type { AgentRoster } from './roster.js';
export type { CsEvents, CsSessionService, CsTurns } from './sessions.js';
export { redisCsTurns } from './redis-turns.js';
export { tokenAgentPolicy, type AgentPolicy, type TeamService } from './teams.js';

/** What the IM services hand over when a request has the scene `cs`. */
export type CsForIm = Pick<CsSessionService, 'publish'> &
  Pick<
    CsConversationService,
    'history' | 'historyChange' | 'markAsRead' | 'typing' | 'list' | 'top' | 'remove' | 'data' | 'missed'
  >;

/** Customer service: teams, sessions, conversations and live watchers, over one store. */
export interface CsServices {
  teams: TeamService;
  sessions: CsSessionService;
  conversations: CsConversationService;
  live: LiveWatchers;
  /** The part the IM services call for scene `cs`. */
  im: CsForIm;
}

/** Creates the customer-service domain. */
export function createCsServices(deps: {
  cs: CsStore;
  messages: MessageStore;
  pusher: Pusher;
  now: () => number;
  /** Who may go online in which team (CS-15). @default tokens in apps that require them, else anyone */
  agentPolicy?: AgentPolicy | undefined;
  /** Who is still an agent of which team, asked on every read of a team's agents (CS-15). @default everyone */
  roster?: AgentRoster | undefined;
  /** The turns of each conversation (CS-3); with several nodes, shared through Redis (CS-17). @default this node's */
  turns?: CsTurns | undefined;
  /** Told of each stored message and session event (HOOK-7). @default nobody */
  events?: CsEvents | undefined;
}): CsServices {
  const cs = deps.roster ? withRoster(deps.cs, deps.roster) : deps.cs;
  const shared = { ...deps, cs };
  const teams = createTeamService(shared);
  const live = createLiveWatchers(deps.pusher);
  const turns = deps.turns ?? csTurns();
  const sessions = createCsSessionService({ ...shared, teams, live, turns });
  const conversations = createCsConversationService({ ...shared, teams, turns });
  return {
    teams,
    sessions,
    conversations,
    live,
    im: {
      publish: (actor, request) => sessions.publish(actor, request),
      history: (actor, request) => conversations.history(actor, request),
      historyChange: (actor, request) => conversations.historyChange(actor, request),
      markAsRead: (actor, request) => conversations.markAsRead(actor, request),
      typing: (actor, request) => conversations.typing(actor, request),
      list: (actor) => conversations.list(actor),
      top: (actor, request) => conversations.top(actor, request),
      remove: (actor, request) => conversations.remove(actor, request),
      data: (actor, request) => conversations.data(actor, request),
      missed: (actor, after, limit) => conversations.missed(actor, after, limit),
    },
  };
}
