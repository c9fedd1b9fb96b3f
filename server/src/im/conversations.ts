import type * as z from 'zod/mini';
import { ServiceError } from '../errors.js';
import { assertIds } from '../ids.js';
import {
  CODES,
  LIMITS,
  MESSAGES,
  SERVER_PUSHES,
  type Scene,
  type WireConversation,
  type WireConversationChanged,
  type conversationRefSchema,
  type topConversationSchema,
} from '../protocol.js';
import type { CsForIm } from '../cs/index.js';
import type { Actor, Pusher } from '../push.js';
import type { ConversationStore, MessageStore } from '../store/index.js';
import type { UserDirectory } from './users.js';
import { toWireMessage } from './wire.js';

type TopRequest = z.infer<typeof topConversationSchema>;
type ConversationRef = z.infer<typeof conversationRefSchema>;

/** The conversation list and per-conversation settings (IM-16..IM-19). */
export interface ConversationService {
  /** `imLastConversations`. */
  list(actor: Actor): Promise<WireConversation[]>;
  /** `topConversation`. */
  top(actor: Actor, request: TopRequest): Promise<void>;
  /** `removeConversation`. */
  remove(actor: Actor, request: ConversationRef): Promise<void>;
  /** `imData`: the conversation data as a JSON string, `"{}"` when unknown. */
  data(actor: Actor, request: ConversationRef): Promise<string>;
}

/** What {@link createConversationService} needs. */
export interface ConversationServiceDeps {
  conversations: ConversationStore;
  messages: MessageStore;
  users: UserDirectory;
  /** Serves the type `cs`; without it, `cs` is refused as before customer service existed. */
  cs?: CsForIm;
  /** Tells the user's other connections of a pin or a removal (IM-32); without it, nobody is told. */
  pusher?: Pusher;
}

/** Creates the conversation service. */
export function createConversationService(deps: ConversationServiceDeps): ConversationService {
  const { conversations, messages } = deps;
  /** The conversation a pin or removal was of, as the push names it. */
  const changed = (request: ConversationRef): WireConversationChanged => ({
    type: request.type,
    targetId: String(request.targetId),
    ...(request.teamId !== undefined && request.teamId !== null && { teamId: String(request.teamId) }),
  });
  /** IM-32: the user's other connections list the conversation as this one does now. */
  const tellOtherDevices = (actor: Actor, payload: WireConversationChanged) =>
    deps.pusher?.toUsers({
      appkey: actor.app.appkey,
      userIds: [actor.userId],
      event: SERVER_PUSHES.conversationChanged,
      payload,
      exceptConnectionId: actor.connectionId,
    });

  const ref = (actor: Actor, type: Scene, targetId: string) => {
    if (type === 'cs') throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.sceneNotSupported);
    assertIds([targetId]);
    return { appkey: actor.app.appkey, ownerId: actor.userId, scene: type, targetId };
  };

  return {
    async list(actor) {
      const appkey = actor.app.appkey;
      const me = actor.userId;
      const rows = await conversations.list(appkey, me, LIMITS.conversationListMax);
      const listed: WireConversation[] = [];
      // One small query per conversation and at most 200 conversations: simple, and indexed on both stores.
      for (const row of rows) {
        const [last] = await messages.page({ appkey, convKey: row.convKey, viewerId: me, before: undefined, limit: 1 });
        // IM-16: a conversation whose every message I deleted has nothing to show.
        if (!last) continue;
        const users = row.scene === 'private' ? [me, row.targetId] : [me];
        const userOffsets = await messages.readOffsets(appkey, row.convKey, users);
        const mine = userOffsets.find((o) => o.userId === me)?.offset ?? 0;
        listed.push({
          t: row.scene as Scene,
          top: row.top,
          d: row.data || '{}',
          userOffsets,
          lmsg: toWireMessage(last),
          // Counted up to `lmsg`: a message stored meanwhile (PostgreSQL, several nodes) is not in this answer at all,
          // so that a client adding its push counts it once.
          unread: await messages.countUnread({
            appkey,
            convKey: row.convKey,
            userId: me,
            after: mine,
            through: last.ts,
          }),
        });
      }
      if (!deps.cs) return listed;
      // CS-9: customer-service conversations join the one list, in the same order (topped, then newest).
      const all = [...listed, ...(await deps.cs.list(actor))];
      all.sort((a, b) => Number(b.top) - Number(a.top) || b.lmsg.ts - a.lmsg.ts);
      return all.slice(0, LIMITS.conversationListMax);
    },
    async top(actor, request) {
      if (request.type === 'cs' && deps.cs) {
        await deps.cs.top(actor, { ...request, id: request.targetId });
      } else {
        const found = await conversations.setTop({ ...ref(actor, request.type, request.targetId), top: request.top });
        if (!found) throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.conversationNotFound);
      }
      tellOtherDevices(actor, { ...changed(request), top: request.top });
    },
    async remove(actor, request) {
      if (request.type === 'cs' && deps.cs) {
        await deps.cs.remove(actor, { ...request, id: request.targetId });
      } else if (!(await conversations.remove(ref(actor, request.type, request.targetId)))) {
        throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.conversationNotFound);
      }
      tellOtherDevices(actor, { ...changed(request), removed: true });
    },
    async data(actor, request) {
      if (request.type === 'cs' && deps.cs) return deps.cs.data(actor, { ...request, id: request.targetId });
      const key = ref(actor, request.type, request.targetId);
      const row = await conversations.find(key);
      if (row) return row.data || '{}';
      // IM-19: a private conversation not yet listed still has a face: the other user's own data.
      if (key.scene === 'private') return (await deps.users.dataOf(key.appkey, key.targetId)) ?? '{}';
      return '{}';
    },
  };
}
