import {
  CLIENT_EVENTS,
  CODES,
  type ImHistoryAck,
  type ImHistoryChangeAck,
  type PublishImAck,
  type PublishImRequest,
  type WireConversation,
} from '../../protocol/index.js';
import { ParleyError } from '../../core/errors.js';
import type { RequestManager } from '../../core/requests.js';
import { fromWire } from './message.js';
import type { ConversationRef, Message } from './types.js';

/** Typed IM requests over the request manager: each returns the ack's content in its wire form. */
export class ImWire {
  readonly #requests: RequestManager;

  constructor(requests: RequestManager) {
    this.#requests = requests;
  }

  #content<T>(
    event: string,
    params: Record<string, unknown>,
    options: Partial<{ kind: 'query' | 'request'; permission: 'none' | 'read' | 'write'; countRetries: boolean }> = {},
  ): Promise<T> {
    return this.#requests
      .send({
        event,
        params,
        kind: options.kind ?? 'request',
        permission: options.permission ?? 'none',
        countRetries: options.countRetries ?? false,
      })
      .then((ack) => ack.content as T);
  }

  /** `publishIM`. */
  publish(request: PublishImRequest): Promise<PublishImAck> {
    return this.#requests
      .send({
        event: CLIENT_EVENTS.publishIM,
        params: request,
        kind: 'request',
        permission: 'write',
        countRetries: true,
      })
      .then((ack) => {
        const content = ack.content as PublishImAck | undefined;
        if (!content || typeof content.timestamp !== 'number') {
          throw new ParleyError(CODES.SERVER_ERROR, 'publishIM ack without a timestamp');
        }
        return content;
      });
  }

  /** `IM_HISTORY`: messages older than `before` (exclusive), oldest first, in domain form. */
  async history(
    ref: ConversationRef,
    before: number | undefined,
    limit: number,
  ): Promise<{ messages: Message[]; offsets: ImHistoryAck['userOffsets'] }> {
    const params: Record<string, unknown> = { id: ref.id, scene: ref.type, limit, ...teamOf(ref) };
    if (before !== undefined) params.lastTimestamp = before;
    const content = await this.#content<ImHistoryAck>(CLIENT_EVENTS.imHistory, params, {
      kind: 'query',
      permission: 'read',
    });
    const messages = (content?.messages ?? []).map((m) => fromWire({ ...m, t: ref.type }));
    return { messages, offsets: content?.userOffsets ?? [] };
  }

  /** `IM_HISTORY_CHANGE`. */
  async changes(ref: ConversationRef, after: number, min: number): Promise<ImHistoryChangeAck> {
    const content = await this.#content<Partial<ImHistoryChangeAck>>(
      CLIENT_EVENTS.imHistoryChange,
      { scene: ref.type, id: ref.id, after, min, ...teamOf(ref) },
      { kind: 'query', permission: 'read' },
    );
    return {
      userOffsets: content?.userOffsets ?? [],
      deletedMessageTimes: content?.deletedMessageTimes ?? [],
      recalledMessages: content?.recalledMessages ?? [],
    };
  }

  /** `imLastConversations`. */
  async conversations(): Promise<WireConversation[]> {
    const content = await this.#content<WireConversation[] | undefined>(
      CLIENT_EVENTS.imLastConversations,
      {},
      { kind: 'query', permission: 'read' },
    );
    return Array.isArray(content) ? content : [];
  }

  /** `imData`: a conversation's data. */
  async data(ref: ConversationRef): Promise<Record<string, unknown>> {
    const content = await this.#content<unknown>(
      CLIENT_EVENTS.imData,
      { type: ref.type, targetId: ref.id, ...teamOf(ref) },
      { kind: 'query', permission: 'read' },
    );
    try {
      const value: unknown = typeof content === 'string' ? JSON.parse(content) : content;
      return typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : {};
    } catch {
      return {};
    }
  }

  /** Any other IM request; resolves with the ack's content. */
  call<T>(
    event: string,
    params: Record<string, unknown>,
    permission: 'none' | 'read' | 'write',
    kind: 'query' | 'request' = 'request',
  ): Promise<T> {
    return this.#content<T>(event, params, { kind, permission });
  }
}

/** The `teamId` a customer-service request carries beside the conversation id. */
export function teamOf(ref: ConversationRef): { teamId?: string } {
  return ref.type === 'cs' ? { teamId: ref.teamId ?? ref.id } : {};
}
