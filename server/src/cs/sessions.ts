import { randomUUID } from 'node:crypto';
import { ServiceError } from '../errors.js';
import { assertIds } from '../ids.js';
import { KeyedMutex } from '../im/mutex.js';
import { checkPayload, wireNotification } from '../im/payload.js';
import {
  CODES,
  CS_MESSAGE_TYPES,
  MESSAGES,
  SERVER_PUSHES,
  nextCustomerStatus,
  type PublishImAck,
  type PublishImRequest,
  type PushedNotification,
  type WireCsEventAck,
  type WireCustomerStatus,
} from '../protocol.js';
import { userDataJson, type Actor, type Pusher } from '../push.js';
import type {
  CsConversationKey,
  CsConversationTouch,
  CsSessionRecord,
  CsStore,
  CsStoredMessage,
  MessageStore,
} from '../store/index.js';
import type { LiveWatchers } from './live.js';
import type { TeamService } from './teams.js';
import {
  assertDataSize,
  csReadKey,
  isJsonObject,
  statusOf,
  toWireCs,
  toWireStatus,
  transitionOf,
  withStatus,
} from './wire.js';

type CustomerRef = { teamId: string; customerId: string };

/** Sessions and their messages (CS-3..CS-9): customer and agent messages, accept, end, transfer, status, live. */
export interface CsSessionService {
  /** `publishIM` with `t: 'cs'`: the customer writes to the team (`to` = teamId) or an agent to the customer. */
  publish(actor: Actor, request: PublishImRequest): Promise<PublishImAck>;
  /** `CS_ACCEPT`. */
  accept(actor: Actor, request: { teamId: string; customer: { id: string; data: string } }): Promise<WireCsEventAck>;
  /** `CS_END`. */
  end(actor: Actor, request: CustomerRef): Promise<WireCsEventAck>;
  /** `CS_TRANSFER`. */
  transfer(actor: Actor, request: CustomerRef & { agentId: string }): Promise<WireCsEventAck>;
  /** `CS_CUSTOMER_STATUS`. */
  customerStatus(actor: Actor, request: CustomerRef): Promise<WireCustomerStatus>;
  /** `CS_LIVE_SESSION`: the asking connection hears every message of the customer from now on. */
  liveSession(actor: Actor, request: CustomerRef): Promise<{ customerStatus: WireCustomerStatus }>;
  /** `CS_QUIT_LIVE`. */
  quitLive(actor: Actor, request: CustomerRef): Promise<void>;
}

/** Runs the tasks of one CS conversation one at a time, in arrival order (CS-3). */
export type CsTurns = <T>(key: CsConversationKey, task: () => Promise<T>) => Promise<T>;

/** A fresh {@link CsTurns}: the session and conversation services of one node share one. */
export function csTurns(): CsTurns {
  const turns = new KeyedMutex();
  return (key, task) => turns.run(JSON.stringify([key.appkey, key.teamId, key.customerId]), task);
}

/** What {@link createCsSessionService} needs. */
export interface CsSessionServiceDeps {
  cs: CsStore;
  messages: MessageStore;
  teams: TeamService;
  live: LiveWatchers;
  pusher: Pusher;
  now: () => number;
  /** Shared with the conversation service, whose history pages wait for the sends under way (CS-8). */
  turns?: CsTurns;
  /** Told of each message once it is stored and pushed (HOOK-7: what an app's webhook hears of). */
  events?: CsEvents | undefined;
}

/** What the session service tells of, once it is stored and pushed. None may throw. */
export interface CsEvents {
  /** A customer's or an agent's message, or a session event (accept, transfer, end), was stored. */
  stored?(actor: Actor, message: CsStoredMessage): void;
}

/** The fields of a message the caller decides; the rest follow from the conversation and the clock. */
type Draft = Pick<CsStoredMessage, 'messageId' | 'senderId' | 'to' | 'type' | 'payload' | 'senderData' | 'accepted'> & {
  /** The session the message belongs to; undefined opens a new one, numbered by the message's timestamp. */
  sessionId: number | undefined;
};

/** Creates the session service. */
export function createCsSessionService(deps: CsSessionServiceDeps): CsSessionService {
  const { cs, teams, live, pusher } = deps;
  // CS-3: one conversation's messages and session changes run in order, so timestamps and states never race.
  const run = deps.turns ?? csTurns();

  /** Stores the message and the session state the shared state machine gives after it. */
  const commit = async (
    key: CsConversationKey,
    previous: CsSessionRecord | undefined,
    draft: (ts: number) => Draft,
    customerData?: string,
  ): Promise<CsStoredMessage> => {
    const ts = Math.max(deps.now(), (previous?.lastTs ?? 0) + 1);
    const { sessionId, ...fields } = draft(ts);
    const message: CsStoredMessage = {
      ...fields,
      teamId: key.teamId,
      customerId: key.customerId,
      ts,
      sessionId: sessionId ?? ts,
    };
    await cs.messages.append(key.appkey, message);
    const next = nextCustomerStatus(statusOf(previous), transitionOf(message));
    await cs.saveSession(
      key.appkey,
      withStatus(key, previous, next, { lastTs: ts, ...(customerData ? { customerData } : {}) }),
    );
    return message;
  };

  /** CS-6: rows first, so that a client listing right after the push finds the message; then the pushes. */
  const deliver = async (
    actor: Actor,
    key: CsConversationKey,
    message: CsStoredMessage,
    userIds: readonly string[],
    rows: readonly CsConversationTouch[],
    nt?: PushedNotification,
  ) => {
    await cs.touch(key, message.ts, rows);
    await deps.messages.raiseReadOffset({
      appkey: key.appkey,
      convKey: csReadKey(key.teamId, key.customerId),
      userId: message.senderId,
      ts: message.ts,
    });
    const payload = nt ? { ...toWireCs(message), nt } : toWireCs(message);
    const audience = [...new Set(userIds)];
    pusher.toUsers({
      appkey: key.appkey,
      userIds: audience,
      event: SERVER_PUSHES.imMessage,
      payload,
      exceptConnectionId: actor.connectionId,
    });
    live.push(key, {
      event: SERVER_PUSHES.imMessage,
      payload,
      exceptUserIds: audience,
      exceptConnectionId: actor.connectionId,
    });
    deps.events?.stored?.(actor, message);
  };

  const onlineAgentIds = async (appkey: string, teamId: string) =>
    (await cs.onlineAgents(appkey, teamId)).map((a) => a.agentId);

  /** A re-sent request whose first run succeeded (its ack was lost) gets that run's message back. */
  const repeated = async (
    key: CsConversationKey,
    session: CsSessionRecord | undefined,
    match: (m: CsStoredMessage) => boolean,
  ) => {
    const last = session && (await cs.messages.at(key, session.lastTs));
    return last && match(last) ? { message: toWireCs(last) } : undefined;
  };

  const keyOf = (actor: Actor, ref: CustomerRef): CsConversationKey => {
    assertIds([ref.teamId, ref.customerId]);
    return { appkey: actor.app.appkey, teamId: ref.teamId, customerId: ref.customerId };
  };

  const publishAsCustomer = (actor: Actor, request: PublishImRequest, teamId: string) => {
    const key = keyOf(actor, { teamId, customerId: actor.userId });
    const senderData = userDataJson(actor);
    return run(key, async () => {
      const first = await cs.messages.byGuid(key.appkey, actor.userId, request.guid);
      if (first) return { timestamp: first.ts, sessionId: first.sessionId };
      const previous = await cs.session(key);
      const open = !previous || previous.status === 'FREE';
      const accepted = previous?.status === 'ACCEPTED' ? previous : undefined;
      const message = await commit(
        key,
        previous,
        () => ({
          messageId: request.guid,
          senderId: actor.userId,
          to: teamId,
          type: request.mt,
          payload: request.p,
          senderData,
          accepted: accepted !== undefined,
          sessionId: open ? undefined : previous.sessionId,
        }),
        open ? senderData : undefined,
      );
      const teamData = (await cs.teamData(key.appkey, teamId)) ?? '{}';
      const given = request.d && request.d !== '{}' ? request.d : null;
      const rows: CsConversationTouch[] = [{ ownerId: actor.userId, data: given, fallback: teamData }];
      if (accepted?.agentId) rows.push({ ownerId: accepted.agentId, data: null, fallback: accepted.customerData });
      // CS-6: a pending message reaches every online agent of the team; an accepted one its agent only.
      const agents = accepted?.agentId ? [accepted.agentId] : await onlineAgentIds(key.appkey, teamId);
      await deliver(actor, key, message, [actor.userId, ...agents], rows, wireNotification(request.nt));
      return { timestamp: message.ts, sessionId: message.sessionId };
    });
  };

  const publishAsAgent = async (actor: Actor, request: PublishImRequest, teamId: string) => {
    const key = keyOf(actor, { teamId, customerId: request.to });
    const agent = await teams.requireOnlineAgent(actor, teamId);
    return run(key, async () => {
      const first = await cs.messages.byGuid(key.appkey, actor.userId, request.guid);
      if (first) return { timestamp: first.ts, sessionId: first.sessionId };
      const session = await cs.session(key);
      if (session?.status !== 'ACCEPTED' || session.agentId !== actor.userId) {
        throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.csNotYourCustomer);
      }
      const message = await commit(key, session, () => ({
        messageId: request.guid,
        senderId: actor.userId,
        to: key.customerId,
        type: request.mt,
        payload: request.p,
        senderData: agent.agentData,
        accepted: true,
        sessionId: session.sessionId,
      }));
      await deliver(
        actor,
        key,
        message,
        [key.customerId, actor.userId],
        agentConversationRows(key, actor.userId, agent.teamData, session.customerData),
        wireNotification(request.nt),
      );
      return { timestamp: message.ts, sessionId: message.sessionId };
    });
  };

  return {
    publish(actor, request) {
      // IM-4 and IM-25 hold for CS too.
      checkPayload(request.mt, request.p);
      // CS-14: accept, end and transfer move the session; they come from their requests, never from a client's message.
      if (RESERVED_TYPES.has(request.mt)) throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.csEventReserved);
      const teamId = request.tid ?? null;
      // CS-3: the customer writes to the team (to = teamId); an agent names the customer in `to` and the team in `tid`.
      if (teamId === null || teamId === request.to) return publishAsCustomer(actor, request, request.to);
      return publishAsAgent(actor, request, teamId);
    },

    async accept(actor, request) {
      const key = keyOf(actor, { teamId: request.teamId, customerId: request.customer.id });
      const agent = await teams.requireOnlineAgent(actor, key.teamId);
      if (!isJsonObject(request.customer.data, true)) {
        throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.csCustomerDataEmpty);
      }
      assertDataSize(request.customer.data);
      return run(key, async () => {
        const previous = await cs.session(key);
        if (previous?.status === 'ACCEPTED') {
          const again = await repeated(
            key,
            previous,
            (m) => m.type === CS_MESSAGE_TYPES.accept && m.senderId === actor.userId,
          );
          if (again) return again;
          throw new ServiceError(
            CODES.BAD_REQUEST,
            previous.agentId === actor.userId ? MESSAGES.csAlreadyAccepted : MESSAGES.csAcceptedByOther,
          );
        }
        const pending = previous?.status === 'PENDING' ? previous : undefined;
        const message = await commit(
          key,
          previous,
          (ts) => ({
            messageId: newMessageId(),
            senderId: actor.userId,
            to: key.customerId,
            type: CS_MESSAGE_TYPES.accept,
            payload: JSON.stringify({ sessionStart: pending ? pending.start : ts }),
            senderData: agent.agentData,
            accepted: true,
            sessionId: pending?.sessionId,
          }),
          request.customer.data,
        );
        // CS-7: every online agent hears the accept, so that the customer leaves every pending list.
        const agents = await onlineAgentIds(key.appkey, key.teamId);
        await deliver(
          actor,
          key,
          message,
          [key.customerId, actor.userId, ...agents],
          [
            { ownerId: key.customerId, data: null, fallback: agent.teamData },
            { ownerId: actor.userId, data: request.customer.data },
          ],
        );
        return { message: toWireCs(message) };
      });
    },

    async end(actor, request) {
      const key = keyOf(actor, request);
      const agent = await teams.requireOnlineAgent(actor, key.teamId);
      return run(key, async () => {
        const session = await cs.session(key);
        if (session?.status !== 'ACCEPTED' || session.agentId !== actor.userId) {
          const again = await repeated(
            key,
            session,
            (m) => m.type === CS_MESSAGE_TYPES.end && m.senderId === actor.userId,
          );
          if (again) return again;
          throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.csNotYourCustomer);
        }
        const message = await commit(key, session, () => ({
          messageId: newMessageId(),
          senderId: actor.userId,
          to: key.customerId,
          type: CS_MESSAGE_TYPES.end,
          payload: JSON.stringify({ sessionStart: session.start }),
          senderData: agent.agentData,
          accepted: true,
          sessionId: session.sessionId,
        }));
        await deliver(
          actor,
          key,
          message,
          [key.customerId, actor.userId],
          agentConversationRows(key, actor.userId, agent.teamData, session.customerData),
        );
        return { message: toWireCs(message) };
      });
    },

    async transfer(actor, request) {
      const key = keyOf(actor, request);
      assertIds([request.agentId]);
      const agent = await teams.requireOnlineAgent(actor, key.teamId);
      const target = await cs.agent(key.appkey, key.teamId, request.agentId);
      if (request.agentId === actor.userId || !target?.online) {
        throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.csTransferTarget);
      }
      return run(key, async () => {
        const session = await cs.session(key);
        if (session?.status !== 'ACCEPTED' || session.agentId !== actor.userId) {
          const again = await repeated(
            key,
            session,
            (m) => m.type === CS_MESSAGE_TYPES.transfer && m.senderId === actor.userId,
          );
          if (again) return again;
          throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.csNotYourCustomer);
        }
        // The reference parses transferTo.data a second time: on the wire it is a JSON string inside the JSON.
        const transferTo = { id: target.agentId, data: target.agentData };
        const message = await commit(key, session, () => ({
          messageId: newMessageId(),
          senderId: actor.userId,
          to: key.customerId,
          type: CS_MESSAGE_TYPES.transfer,
          payload: JSON.stringify({ sessionStart: session.start, transferTo }),
          senderData: agent.agentData,
          accepted: true,
          sessionId: session.sessionId,
        }));
        await deliver(
          actor,
          key,
          message,
          [key.customerId, actor.userId, target.agentId],
          [
            ...agentConversationRows(key, actor.userId, agent.teamData, session.customerData),
            { ownerId: target.agentId, data: session.customerData },
          ],
        );
        return { message: toWireCs(message) };
      });
    },

    async customerStatus(actor, request) {
      const key = keyOf(actor, request);
      await teams.requireOnlineAgent(actor, key.teamId);
      return toWireStatus(statusOf(await cs.session(key)));
    },

    async liveSession(actor, request) {
      const key = keyOf(actor, request);
      await teams.requireOnlineAgent(actor, key.teamId);
      live.watch({ ...key, connectionId: actor.connectionId });
      return { customerStatus: toWireStatus(statusOf(await cs.session(key))) };
    },

    quitLive(actor, request) {
      const key = keyOf(actor, request);
      live.quit({ ...key, connectionId: actor.connectionId });
      return Promise.resolve();
    },
  };
}

/** A 32-hex id for the session events the server writes, in the reference's messageId form. */
/** The session events' message types, which only the server writes (CS-14). */
const RESERVED_TYPES: ReadonlySet<string> = new Set(Object.values(CS_MESSAGE_TYPES));

function newMessageId(): string {
  return randomUUID().replace(/-/g, '');
}

/**
 * The conversation rows an agent's message touches: the customer's (keeping its data, else the team's) and the
 * agent's (keeping its data, else the customer's).
 */
function agentConversationRows(
  key: CsConversationKey,
  agentId: string,
  teamData: string,
  customerData: string,
): CsConversationTouch[] {
  return [
    { ownerId: key.customerId, data: null, fallback: teamData },
    { ownerId: agentId, data: null, fallback: customerData },
  ];
}
