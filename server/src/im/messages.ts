import type * as z from 'zod/mini';
import { ServiceError } from '../errors.js';
import { assertIds } from '../ids.js';
import {
  CODES,
  LIMITS,
  MESSAGES,
  SERVER_PUSHES,
  privateConversationId,
  type ImHistoryAck,
  type ImHistoryChangeAck,
  type PublishImAck,
  type PublishImRequest,
  type Recaller,
  type Scene,
  type WireMessageDeleted,
  type WireMessageRead,
  type WireMessageRecalled,
  type WireTyping,
  type imHistoryChangeSchema,
  type imHistorySchema,
  type imMarkAsReadSchema,
  type imMessageTimesSchema,
  type imTypingSchema,
} from '../protocol.js';
import type { CsForIm } from '../cs/index.js';
import { userDataJson, type Actor, type Pusher } from '../push.js';
import type { ConversationTouch, MessageStore, StoredMessage } from '../store/index.js';
import type { GroupService } from './groups.js';
import { conversationKey } from './keys.js';
import { KeyedMutex } from './mutex.js';
import { checkPayload, wireNotification } from './payload.js';
import { SendsUnderWay } from './under-way.js';
import { parseRecaller, stringifyRecaller, toWireMessage } from './wire.js';

type HistoryRequest = z.infer<typeof imHistorySchema>;
type HistoryChangeRequest = z.infer<typeof imHistoryChangeSchema>;
type MarkAsReadRequest = z.infer<typeof imMarkAsReadSchema>;
type TimesRequest = z.infer<typeof imMessageTimesSchema>;
type TypingRequest = z.infer<typeof imTypingSchema>;

/** Private and group messages: send, history, read marks, delete, recall (IM-2..IM-15). */
export interface MessageService {
  /**
   * `publishIM`; with `trusted` (IM-30: the app's own server sends), a group's access tokens are not asked for
   * (IM-22), since the app's server holds the secret that signs them.
   */
  publish(actor: Actor, request: PublishImRequest, options?: { trusted?: boolean }): Promise<PublishImAck>;
  /** `IM_HISTORY`. */
  history(actor: Actor, request: HistoryRequest): Promise<ImHistoryAck>;
  /** `IM_HISTORY_CHANGE`. */
  historyChange(actor: Actor, request: HistoryChangeRequest): Promise<ImHistoryChangeAck>;
  /** `IM_MARK_AS_READ`. */
  markAsRead(actor: Actor, request: MarkAsReadRequest): Promise<void>;
  /** `IM_DELETE_MESSAGE`. */
  deleteMessages(actor: Actor, request: TimesRequest): Promise<void>;
  /** `IM_RECALL_MESSAGE`. */
  recall(actor: Actor, request: TimesRequest): Promise<void>;
  /**
   * IM-24: pushes to `actor`'s connection the messages of its conversations (private, group, and with customer
   * service, as a customer or as the agent who accepted the customer) stored since `seenAt`, but those named in
   * `except` (the ones the session's last connection sent itself).
   */
  replay(actor: Actor, seenAt: number, except?: readonly string[]): Promise<void>;
  /** `IM_TYPING` (TYPING-1, TYPING-2): tells the other side of a private chat, or a group's other members. */
  typing(actor: Actor, request: TypingRequest): Promise<void>;
}

/**
 * Replay covers ts >= the last sighting, no earlier: a message stored after it has a timestamp at least the clock
 * at storing time, so nothing is missed on one clock, while every earlier message was delivered live; replaying
 * more would outrun the clients' duplicate windows (300 ids, 200 cached messages per conversation).
 */
const REPLAY_MARGIN_MS = 1;
/** Most messages one replay pushes; beyond that, the client's own history sync has to take over. */
const REPLAY_MAX = 1000;

/** What {@link createMessageService} needs. */
export interface MessageServiceDeps {
  messages: MessageStore;
  groups: GroupService;
  pusher: Pusher;
  now: () => number;
  /** Serves the scene `cs`; without it, `cs` is refused as before customer service existed. */
  cs?: CsForIm;
  /**
   * IM-29: whether `from` may send a private message to `to` in app `appkey` (the host's block lists); refused with
   * 401 `user does not exist or is blocked` when not. Asked for private messages only. @default everyone may
   */
  mayMessage?: ((appkey: string, from: string, to: string) => Promise<boolean>) | undefined;
  /** Told of what happened, once it is stored and pushed (HOOK-1, HOOK-4: what an app's webhook hears of). */
  events?: MessageEvents | undefined;
}

/** What the message service tells of, each once it is stored and pushed. None may throw. */
export interface MessageEvents {
  /** A private or group message was stored (not again when it is sent again after a lost ack). */
  stored?(actor: Actor, message: StoredMessage): void;
  /** Messages of one conversation were recalled by their sender: those not recalled before, as they were stored. */
  recalled?(actor: Actor, recall: { scene: ChatScene; targetId: string; messages: readonly StoredMessage[] }): void;
  /** A user read a conversation up to `time`, their read offset after the mark. */
  read?(actor: Actor, read: { scene: ChatScene; targetId: string; time: number }): void;
}

export type ChatScene = Exclude<Scene, 'cs'>;

/** Creates the message service. */
export function createMessageService(deps: MessageServiceDeps): MessageService {
  const { messages, groups, pusher } = deps;
  const sends = new KeyedMutex();
  /**
   * IM-3: the answers of each connection's sends under way, by guid. A client that hears no ack within its single
   * timeout (1.7 s) sends again on the same link; on a server that is behind, that re-send would queue behind the
   * first and go through the store once more, and every re-send deepens the backlog that made the ack late. It gets
   * the first's answer instead, when that comes. Kept by actor: a connection's requests share one (see `actorOf`).
   */
  const underWay = new WeakMap<Actor, SendsUnderWay<Promise<PublishImAck>>>();
  const underWayOf = (actor: Actor) => {
    let mine = underWay.get(actor);
    if (mine === undefined) {
      mine = new SendsUnderWay();
      underWay.set(actor, mine);
    }
    return mine;
  };

  /**
   * Who a message reaches and who gets a conversation row: the two users (private), or the group's members (IM-15).
   * A sender outside the group (IM-22) is not among them: the group is not theirs to list or read (IM-9, IM-16).
   */
  const audience = async (appkey: string, scene: ChatScene, me: string, targetId: string) => {
    if (scene === 'private') return { userIds: [targetId, me], member: true };
    // Members are unique; the store's own array serves as it is.
    const userIds = await groups.members(appkey, targetId);
    return { userIds, member: userIds.includes(me) };
  };

  /**
   * IM-9: the conversation `actor` may read. A private key always contains the requester, so nobody reads a pair
   * they are not part of; a group needs membership.
   */
  const readableKey = async (actor: Actor, scene: Scene, targetId: string): Promise<string> => {
    const chat = chatScene(scene, MESSAGES.sceneNotSupported);
    assertIds([targetId]);
    if (chat === 'group' && !(await groups.isMember(actor.app.appkey, targetId, actor.userId))) {
      throw new ServiceError(CODES.UNAUTHORIZED, MESSAGES.noPermission);
    }
    return conversationKey(chat, actor.userId, targetId);
  };

  const offsetsOf = (actor: Actor, scene: Scene, convKey: string, targetId: string) =>
    messages.readOffsets(actor.app.appkey, convKey, scene === 'private' ? [actor.userId, targetId] : [actor.userId]);

  /** Stores and pushes a checked send, or answers it with the first's answer when it is a re-send under way. */
  const send = (
    actor: Actor,
    request: PublishImRequest,
    scene: ChatScene,
    conversationData: string | null,
  ): Promise<PublishImAck> => {
    const me = actor.userId;
    const to = request.to;
    const appkey = actor.app.appkey;
    const nt = wireNotification(request.nt);
    const mine = underWayOf(actor);
    const first = mine.get(request.guid);
    if (first) return first;
    const convKey = conversationKey(scene, me, to);
    const senderData = userDataJson(actor);
    // IM-5: one conversation's sends are handed to the store in order here, so timestamps and pushes leave this
    // node in one order.
    const handed = sends.run(`${appkey}\n${convKey}`, async () => {
      const { userIds, member } = await audience(appkey, scene, me, to);
      // IM-6: each side's row; private data is the other side's, group data is what the latest sender sent.
      const rows: ConversationTouch[] =
        scene === 'private'
          ? [
              { ownerId: me, targetId: to, data: conversationData },
              { ownerId: to, targetId: me, data: senderData },
            ]
          : userIds.map((ownerId) => ({ ownerId, targetId: to, data: conversationData }));
      // IM-3: a re-sent message gets its first timestamp back and is neither stored nor pushed again.
      const storing = messages.send({
        message: {
          appkey,
          convKey,
          scene,
          messageId: request.guid,
          senderId: me,
          targetId: to,
          type: request.mt,
          payload: request.p,
          senderData,
        },
        now: deps.now(),
        rows,
        // IM-7: sending reads everything before it, as the reference client assumes locally.
        readerId: me,
        // IM-15: pushed once it is stored with its bookkeeping. Not back to the sending connection: it has the
        // ack, and an echo would only cost it an imAck.
        // A method, not an arrow: `tsx` names each arrow made as a property, once for each send.
        stored(message) {
          pusher.toUsers({
            appkey,
            userIds,
            event: SERVER_PUSHES.imMessage,
            payload: nt ? { ...toWireMessage(message), nt } : toWireMessage(message),
            exceptConnectionId: actor.connectionId,
          });
          deps.events?.stored?.(actor, message);
        },
      });
      // A store that keeps its sends in call order has fixed this one's place: the conversation's next send is
      // handed over at once, and a burst of one conversation (after the server was held, say) is stored in one
      // batch instead of one a turn of the loop. Otherwise the next waits until this one is stored.
      if (!messages.sendsInCallOrder) await storing;
      return { storing, member };
    });
    const sending = handed.then(async ({ storing, member }): Promise<PublishImAck> => {
      const { message } = await storing;
      return member ? { timestamp: message.ts } : { timestamp: message.ts, member: false };
    });
    const guid = request.guid;
    mine.add(guid, sending);
    // Two unnamed functions, not one named: the server runs under `tsx`, which names each named function it makes.
    sending.then(
      () => mine.settled(guid, sending),
      () => mine.settled(guid, sending),
    );
    return sending;
  };

  /** {@link MessageService.publish}, whose checks throw rather than reject. */
  const publishNow = (
    actor: Actor,
    request: PublishImRequest,
    options: { trusted?: boolean } | undefined,
  ): Promise<PublishImAck> => {
    // IM-2: the target is never the sender, in any scene, customer service included.
    if (request.to === actor.userId) throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.toSelf);
    if (request.t === 'cs' && deps.cs) return deps.cs.publish(actor, request);
    const scene = chatScene(request.t, MESSAGES.sceneNotSupported);
    const me = actor.userId;
    const to = request.to;
    const appkey = actor.app.appkey;
    assertIds([to]);
    checkPayload(request.mt, request.p);
    const conversationData = request.d ?? null;
    if (conversationData !== null && !isJsonObject(conversationData, LIMITS.messageMaxBytes)) {
      throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.dataNotObjectIm);
    }
    if (scene === 'group') {
      const may = options?.trusted || groups.maySend(actor, to, request.at);
      if (may !== true) {
        return may.then((allowed) => {
          if (!allowed) throw new ServiceError(CODES.UNAUTHORIZED, MESSAGES.noPermission);
          return send(actor, request, scene, conversationData);
        });
      }
    } else if (deps.mayMessage) {
      return deps.mayMessage(appkey, me, to).then((allowed) => {
        if (!allowed) throw new ServiceError(CODES.UNAUTHORIZED, MESSAGES.blocked);
        return send(actor, request, scene, conversationData);
      });
    }
    return send(actor, request, scene, conversationData);
  };

  return {
    publish(actor, request, options) {
      // Not async: every send of every client passes here, and each layer of promises costs it a turn or two.
      try {
        return publishNow(actor, request, options);
      } catch (err) {
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
    },

    async history(actor, request) {
      if (request.scene === 'cs' && deps.cs) return deps.cs.history(actor, request);
      const convKey = await readableKey(actor, request.scene, request.id);
      const appkey = actor.app.appkey;
      const limit = Math.min(request.limit ?? LIMITS.historyDefaultLimit, LIMITS.historyMaxLimit);
      // IM-8: after the sends of this conversation under way here, so that a page never reaches a connection before
      // the push of a message it holds (a client that took it from the page would take the push for a copy). A store
      // that keeps its sends in call order shows a message to pages only once it is pushed; otherwise the sends are
      // under way until stored and pushed.
      const page = await sends.run(`${appkey}\n${convKey}`, () =>
        messages.page({
          appkey,
          convKey,
          viewerId: actor.userId,
          // IM-8: exclusive; 0, null or missing means "from the newest".
          before: request.lastTimestamp ? request.lastTimestamp : undefined,
          limit,
        }),
      );
      return {
        messages: page.map(toWireMessage),
        userOffsets: await offsetsOf(actor, request.scene, convKey, request.id),
      };
    },

    async historyChange(actor, request) {
      if (request.scene === 'cs' && deps.cs) return deps.cs.historyChange(actor, request);
      const convKey = await readableKey(actor, request.scene, request.id);
      const appkey = actor.app.appkey;
      const recalled = await messages.recalledSince(appkey, convKey, request.min);
      const byRecaller = new Map<string, { recaller: Recaller; times: number[] }>();
      for (const m of recalled) {
        const key = m.recaller ?? '';
        let entry = byRecaller.get(key);
        if (!entry) {
          entry = { recaller: m.recaller ? parseRecaller(m.recaller) : { id: m.senderId, data: {} }, times: [] };
          byRecaller.set(key, entry);
        }
        entry.times.push(m.ts);
      }
      return {
        userOffsets: await offsetsOf(actor, request.scene, convKey, request.id),
        deletedMessageTimes: await messages.deletedTimes({ appkey, userId: actor.userId, convKey, min: request.min }),
        recalledMessages: [...byRecaller.values()],
      };
    },

    async markAsRead(actor, request) {
      if (request.scene === 'cs' && deps.cs) return deps.cs.markAsRead(actor, request);
      const scene = chatScene(request.scene, MESSAGES.sceneNotSupported);
      assertIds([request.id]);
      const appkey = actor.app.appkey;
      const me = actor.userId;
      const convKey = conversationKey(scene, me, request.id);
      const offset = await messages.raiseReadOffset({ appkey, convKey, userId: me, ts: request.lastTimestamp });
      // IM-11: targetId is what the marker sent; the other side of a private chat and the marker's other devices hear it.
      const payload: WireMessageRead = { scene, targetId: request.id, markerId: me, time: offset };
      pusher.toUsers({
        appkey,
        userIds: scene === 'private' ? [request.id, me] : [me],
        event: SERVER_PUSHES.messageRead,
        payload,
        exceptConnectionId: actor.connectionId,
      });
      deps.events?.read?.(actor, { scene, targetId: request.id, time: offset });
    },

    async deleteMessages(actor, request) {
      const scene = chatScene(request.scene, MESSAGES.deleteCs);
      assertIds([request.targetId]);
      const appkey = actor.app.appkey;
      const me = actor.userId;
      const convKey = conversationKey(scene, me, request.targetId);
      const found = await messages.findByTimes(appkey, convKey, [...new Set(request.times)]);
      if (found.length === 0) return;
      const times = found.map((m) => m.ts);
      await messages.deleteFor({ appkey, userId: me, convKey, times });
      // IM-12: deleting is for me only; my other devices hear it, the other side never does.
      const payload: WireMessageDeleted = { scene, targetId: request.targetId, deleterId: me, times };
      pusher.toUsers({
        appkey,
        userIds: [me],
        event: SERVER_PUSHES.messageDeleted,
        payload,
        exceptConnectionId: actor.connectionId,
      });
    },

    async replay(actor, seenAt, except = []) {
      const after = seenAt - REPLAY_MARGIN_MS;
      const chats = await messages.since({ appkey: actor.app.appkey, ownerId: actor.userId, after, limit: REPLAY_MAX });
      let missed = chats.map(toWireMessage);
      // Conversations with customer service too, a customer's and an agent's: the reference client learns of their
      // messages by push.
      if (deps.cs) {
        const cs = await deps.cs.missed(actor, after, REPLAY_MAX);
        if (cs.length > 0) missed = [...missed, ...cs].sort((a, b) => a.ts - b.ts).slice(0, REPLAY_MAX);
      }
      const left = new Set(except);
      for (const message of missed) {
        if (left.has(message.i) && message.s === actor.userId) continue;
        pusher.toConnection({ connectionId: actor.connectionId, event: SERVER_PUSHES.imMessage, payload: message });
      }
    },

    async typing(actor, request) {
      if (request.scene === 'cs' && deps.cs) {
        return deps.cs.typing(actor, { id: request.targetId, teamId: request.teamId, typing: request.typing });
      }
      const scene = chatScene(request.scene, MESSAGES.sceneNotSupported);
      assertIds([request.targetId]);
      const appkey = actor.app.appkey;
      const me = actor.userId;
      const to = request.targetId;
      let userIds: readonly string[];
      if (scene === 'private') {
        if (to === me) throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.toSelf);
        // IM-29: nothing reaches a user who blocked the typer, nor tells the typer so.
        if (deps.mayMessage && !(await deps.mayMessage(appkey, me, to))) return;
        userIds = [to];
      } else {
        const members = await groups.members(appkey, to);
        if (!members.includes(me)) throw new ServiceError(CODES.UNAUTHORIZED, MESSAGES.noPermission);
        userIds = members.filter((userId) => userId !== me);
      }
      if (userIds.length === 0) return;
      // Stored nowhere: who is typing now is only worth telling now (TYPING-2).
      const payload: WireTyping = {
        scene,
        targetId: scene === 'private' ? me : to,
        userId: me,
        userData: userDataJson(actor),
        typing: request.typing,
      };
      pusher.toUsers({ appkey, userIds, event: SERVER_PUSHES.imTyping, payload });
    },

    async recall(actor, request) {
      const scene = chatScene(request.scene, MESSAGES.recallCs);
      assertIds([request.targetId]);
      const appkey = actor.app.appkey;
      const me = actor.userId;
      const convKey = conversationKey(scene, me, request.targetId);
      const wanted = [...new Set(request.times)];
      const found = await messages.findByTimes(appkey, convKey, wanted);
      // IM-13: every time must name my own message in this conversation.
      if (found.length !== wanted.length || found.some((m) => m.senderId !== me)) {
        throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.recallOthers);
      }
      const recaller: Recaller = { id: me, data: actor.userData };
      const times = await messages.recall({ appkey, convKey, times: wanted, recaller: stringifyRecaller(recaller) });
      if (times.length === 0) return;
      const payload: WireMessageRecalled = {
        scene,
        conversationId: scene === 'private' ? privateConversationId(me, request.targetId) : request.targetId,
        recaller,
        times,
      };
      // IM-14: not back to the asking socket: the reference fires its recall event locally on the ack already.
      pusher.toUsers({
        appkey,
        userIds: (await audience(appkey, scene, me, request.targetId)).userIds,
        event: SERVER_PUSHES.messageRecalled,
        payload,
        exceptConnectionId: actor.connectionId,
      });
      if (deps.events?.recalled) {
        const changed = new Set(times);
        const recalledNow = found.filter((m) => changed.has(m.ts));
        deps.events.recalled(actor, { scene, targetId: request.targetId, messages: recalledNow });
      }
    },
  };
}

/** Private or group; customer service is not served by this service, answered with `message`. */
function chatScene(scene: Scene, message: string): ChatScene {
  if (scene === 'cs') throw new ServiceError(CODES.BAD_REQUEST, message);
  return scene;
}

function isJsonObject(text: string, maxLength: number): boolean {
  if (text.length > maxLength) return false;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
