import { ServiceError } from '../errors.js';
import { assertIds } from '../ids.js';
import {
  CODES,
  LIMITS,
  MESSAGES,
  SERVER_PUSHES,
  type ImHistoryAck,
  type ImHistoryChangeAck,
  type WireConversation,
  type WireImMessage,
  type WireMessageRead,
  type WirePendingConversation,
  type WireTyping,
} from '../protocol.js';
import { userDataJson, type Actor, type Pusher } from '../push.js';
import type { CsConversationKey, CsStore, CsStoredMessage, MessageStore } from '../store/index.js';
import type { TeamService } from './teams.js';
import type { CsTurns } from './sessions.js';
import { csReadKey, toWireCs } from './wire.js';

/** How a CS request names a conversation: `id` is the team (customer side) or the customer (agent side). */
interface CsRef {
  id: string;
  teamId?: string | null | undefined;
}

/** The CS side of history, read marks and the conversation lists (CS-8..CS-12). */
export interface CsConversationService {
  /** `IM_HISTORY` with scene `cs`. */
  history(
    actor: Actor,
    request: CsRef & { lastTimestamp?: number | null; limit?: number | null },
  ): Promise<ImHistoryAck>;
  /** `IM_HISTORY_CHANGE` with scene `cs`: read offsets only, since CS messages are never deleted or recalled. */
  historyChange(actor: Actor, request: CsRef): Promise<ImHistoryChangeAck>;
  /** `IM_MARK_AS_READ` with scene `cs`. */
  markAsRead(actor: Actor, request: CsRef & { lastTimestamp: number }): Promise<void>;
  /** The actor's CS conversations for `imLastConversations`, both as a customer and as an agent. */
  list(actor: Actor): Promise<WireConversation[]>;
  /** `topConversation` with type `cs`. */
  top(actor: Actor, request: CsRef & { top: boolean }): Promise<void>;
  /** `removeConversation` with type `cs`. */
  remove(actor: Actor, request: CsRef): Promise<void>;
  /** `imData` with type `cs`. */
  data(actor: Actor, request: CsRef): Promise<string>;
  /**
   * `IM_TYPING` with scene `cs` (TYPING-4): a customer's typing reaches the agent who accepted them, or while they
   * wait every online agent of the team; an agent's, the customer they accepted.
   */
  typing(actor: Actor, request: CsRef & { typing: boolean }): Promise<void>;
  /** `CS_PENDING_CONVERSATION`: the pending customers of every team the actor is online in. */
  pending(actor: Actor): Promise<WirePendingConversation[]>;
  /**
   * IM-24: the oldest `limit` messages stored after `after` in the actor's conversations, oldest first, in wire form:
   * what a user whose link was down missed. As a customer, every message of theirs; as an agent, those of the
   * conversations they had accepted, up to the newest their row was touched by (what reached them live). Messages of
   * customers still waiting reached every online agent and are not replayed: an agent reloads its pending list
   * (CS-11).
   */
  missed(actor: Actor, after: number, limit: number): Promise<WireImMessage[]>;
}

/** Creates the CS conversation service. */
export function createCsConversationService(deps: {
  cs: CsStore;
  messages: MessageStore;
  teams: TeamService;
  pusher: Pusher;
  /** The session service's turns: a history page waits for the conversation's sends under way (CS-8). */
  turns?: CsTurns;
}): CsConversationService {
  const { cs, messages, teams } = deps;

  /**
   * CS-8: which conversation a request names, and from which side. A customer only ever names their own (the team
   * id stands for it); naming a customer needs membership of the team, else 401.
   */
  const resolve = async (actor: Actor, ref: CsRef) => {
    const teamId = ref.teamId ?? ref.id;
    assertIds([teamId, ref.id]);
    const appkey = actor.app.appkey;
    if (ref.id === teamId) return { key: { appkey, teamId, customerId: actor.userId }, customer: true };
    if (!(await teams.isMember(appkey, teamId, actor.userId))) {
      throw new ServiceError(CODES.UNAUTHORIZED, MESSAGES.noPermission);
    }
    return { key: { appkey, teamId, customerId: ref.id }, customer: false };
  };

  const offsets = (key: CsConversationKey, userIds: readonly string[]) =>
    messages.readOffsets(key.appkey, csReadKey(key.teamId, key.customerId), userIds);

  const viewers = (actor: Actor, key: CsConversationKey, customer: boolean) =>
    customer ? [actor.userId] : [actor.userId, key.customerId];

  return {
    async history(actor, request) {
      const { key, customer } = await resolve(actor, request);
      const limit = Math.min(request.limit ?? LIMITS.historyDefaultLimit, LIMITS.historyMaxLimit);
      const read = () => cs.messages.page(key, request.lastTimestamp ? request.lastTimestamp : undefined, limit);
      // After the sends of this conversation under way on this node, so that a page never reaches a connection
      // before the push of a message it holds (their writes and pushes are several steps).
      const page = await (deps.turns ? deps.turns(key, read) : read());
      return { messages: page.map(toWireCs), userOffsets: await offsets(key, viewers(actor, key, customer)) };
    },

    async historyChange(actor, request) {
      const { key, customer } = await resolve(actor, request);
      return {
        userOffsets: await offsets(key, viewers(actor, key, customer)),
        deletedMessageTimes: [],
        recalledMessages: [],
      };
    },

    async typing(actor, request) {
      const { key, customer } = await resolve(actor, request);
      const session = await cs.session(key);
      const agentId = session?.status === 'ACCEPTED' ? session.agentId : null;
      if (!customer && agentId !== actor.userId) {
        throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.csNotYourCustomer);
      }
      // The agent who accepted the customer; while the customer waits (CS-6), every online agent of the team, as
      // their messages reach; a customer with nothing open yet, nobody.
      let userIds: string[];
      if (!customer) userIds = [key.customerId];
      else if (agentId !== null) userIds = [agentId];
      else if (session?.status === 'PENDING') {
        userIds = (await cs.onlineAgents(key.appkey, key.teamId))
          .map((a) => a.agentId)
          .filter((id) => id !== actor.userId);
      } else return;
      if (userIds.length === 0) return;
      // The conversation as the receiver names it: the team for the customer, the customer for the agent.
      const payload: WireTyping = {
        scene: 'cs',
        targetId: customer ? key.customerId : key.teamId,
        teamId: key.teamId,
        userId: actor.userId,
        userData: userDataJson(actor),
        typing: request.typing,
      };
      deps.pusher.toUsers({
        appkey: key.appkey,
        userIds,
        event: SERVER_PUSHES.imTyping,
        payload,
      });
    },

    async markAsRead(actor, request) {
      const { key } = await resolve(actor, request);
      const time = await messages.raiseReadOffset({
        appkey: key.appkey,
        convKey: csReadKey(key.teamId, key.customerId),
        userId: actor.userId,
        ts: request.lastTimestamp,
      });
      const payload: WireMessageRead = {
        scene: 'cs',
        targetId: request.id,
        markerId: actor.userId,
        teamId: key.teamId,
        time,
      };
      // As IM-11 for groups: the marker's other devices hear it; the other side keeps its own unread count.
      deps.pusher.toUsers({
        appkey: key.appkey,
        userIds: [actor.userId],
        event: SERVER_PUSHES.messageRead,
        payload,
        exceptConnectionId: actor.connectionId,
      });
    },

    async missed(actor, after, limit) {
      const appkey = actor.app.appkey;
      const me = actor.userId;
      const rows = await cs.conversations(appkey, me, LIMITS.conversationListMax);
      const missed: CsStoredMessage[] = [];
      for (const row of rows) {
        // A message stored since brought its conversation's time forward (and back into the list, if removed).
        if (row.lastTs <= after) continue;
        const since = await cs.messages.since({ appkey, teamId: row.teamId, customerId: row.customerId }, after, limit);
        // An agent's row moves only with the messages that reached them (CS-9): none after a hand-over or an end.
        missed.push(...(row.customerId === me ? since : since.filter((m) => m.ts <= row.lastTs)));
      }
      return missed
        .sort((a, b) => a.ts - b.ts)
        .slice(0, limit)
        .map(toWireCs);
    },
    async list(actor) {
      const appkey = actor.app.appkey;
      const me = actor.userId;
      const rows = await cs.conversations(appkey, me, LIMITS.conversationListMax);
      const listed: WireConversation[] = [];
      for (const row of rows) {
        const key = { appkey, teamId: row.teamId, customerId: row.customerId };
        // CS-9: an agent's row shows the newest message the agent took part in, so a handed-over or ended
        // conversation keeps its transfer or end as the last message.
        const last = await cs.messages.at(key, row.lastTs);
        if (!last) continue;
        const customer = row.customerId === me;
        const userOffsets = await offsets(key, customer ? [me] : [me, row.customerId]);
        const mine = userOffsets.find((o) => o.userId === me)?.offset ?? 0;
        const unread = customer
          ? await cs.messages.count(key, { after: mine, notFrom: me })
          : await cs.messages.count(key, { after: mine, upTo: row.lastTs, from: row.customerId });
        listed.push({ t: 'cs', top: row.top, d: row.data || '{}', userOffsets, lmsg: toWireCs(last), unread });
      }
      return listed;
    },

    async top(actor, request) {
      const { key, customer } = await resolve(actor, request);
      if (customer && (await cs.session(key))?.status === 'PENDING') {
        throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.csPendingConversation);
      }
      if (!(await cs.setTop(key, actor.userId, request.top))) {
        throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.conversationNotFound);
      }
    },

    async remove(actor, request) {
      const { key, customer } = await resolve(actor, request);
      if (!(await cs.conversation(key, actor.userId))) {
        throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.conversationNotFound);
      }
      const session = await cs.session(key);
      // CS-10: only an ended conversation may go; for an agent, one they no longer hold has ended for them.
      if (customer && session?.status === 'PENDING') {
        throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.csPendingConversation);
      }
      const open = customer
        ? session?.status === 'ACCEPTED'
        : session?.status === 'ACCEPTED' && session.agentId === actor.userId;
      if (open) throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.csNotEnded);
      await cs.remove(key, actor.userId);
    },

    async data(actor, request) {
      const { key, customer } = await resolve(actor, request);
      const row = await cs.conversation(key, actor.userId);
      if (row) return row.data || '{}';
      if (customer) return (await cs.teamData(key.appkey, key.teamId)) ?? '{}';
      return (await cs.session(key))?.customerData ?? '{}';
    },

    async pending(actor) {
      const appkey = actor.app.appkey;
      const teamIds = await cs.onlineTeams(appkey, actor.userId);
      const sessions = await cs.pendingSessions(appkey, teamIds);
      const listed: WirePendingConversation[] = [];
      for (const s of sessions) {
        const key = { appkey, teamId: s.teamId, customerId: s.customerId };
        const last = await cs.messages.at(key, s.lastTs);
        if (!last) continue;
        listed.push({
          lastMessage: toWireCs(last),
          customerData: s.customerData,
          userOffsets: await offsets(key, [actor.userId]),
          unread: await cs.messages.count(key, { after: s.start - 1, from: s.customerId }),
        });
      }
      return listed;
    },
  };
}
