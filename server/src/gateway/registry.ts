import type * as z from 'zod/mini';
import type { AppConfig } from '../config.js';
import type { Logger } from '../logger.js';
import type { DeliveryTracker } from './deliveries.js';
import {
  check,
  type ClientEventName,
  type ClientNoticeName,
  type Permissions,
  type ServerPushName,
  type WireModuleName,
} from '../protocol.js';

/** What a request handler knows about the connection it serves. */
export interface RequestContext {
  /** The app the connection authorized for. */
  app: AppConfig;
  /** Null for an anonymous connection. */
  userId: string | null;
  /** The user data sent at authorize. */
  userData: Record<string, unknown>;
  /** The session id. */
  sid: string;
  /** The socket.io socket id, unique per connection. */
  socketId: string;
  /** What the key used at authorize allows. */
  permissions: Permissions;
  /**
   * Where a replay of what the client missed starts (IM-24): when the session it resumed (or named by its sid) was
   * last seen, or the oldest message pushed to its last connection and not acknowledged; null for a fresh start.
   */
  previousSeenAt: number | null;
  /** Messages the replay leaves out: those the session's last connection sent itself after `previousSeenAt`. */
  replayExcept: readonly string[];
  /** The sid the client named when it was given a new one instead (PUB-20); null otherwise. */
  replacedSid: string | null;
  /** IM-24: what this connection's client acknowledges, for a client that acknowledges pushed messages. */
  deliveries?: Pick<DeliveryTracker, 'acked' | 'sent'> | undefined;
  /** Sends a push to this connection only. */
  push(event: ServerPushName, payload: object): void;
  /** A logger bound to this connection. */
  log: Logger;
}

/** What a request needs beyond an authorized connection: nothing, the read (subscribe) or the write (publish) grant. */
export type RequiredPermission = 'none' | 'read' | 'write';

/** A request handler: `params` are validated against `schema` first; what it returns is the ack's `content`. */
export interface RequestHandlerSpec<S extends z.ZodMiniType, R> {
  schema: S;
  /**
   * A faster reader of the usual requests: what `schema` makes of them, or undefined for any other input, which
   * `schema` then reads (and words the error of). For the requests every client sends, such as `publishIM`.
   */
  read?: (params: unknown) => z.infer<S> | undefined;
  permission: RequiredPermission;
  /** Throw a `ServiceError` to answer with its code; any other error answers 500 and is logged. */
  handler: (ctx: RequestContext, params: z.infer<S>) => Promise<R>;
}

/** A handler for a plain emit that expects no ack; invalid params are dropped. */
export interface NoticeHandlerSpec<S extends z.ZodMiniType> {
  schema: S;
  handler: (ctx: RequestContext, params: z.infer<S>) => Promise<void>;
}

/** Supplies a module's `mD` entry in the authorize reply. */
export type ModuleDataProvider = (ctx: RequestContext) => Promise<Record<string, unknown>>;

/** The outcome of running a registered handler on raw input. */
export type HandlerOutcome = { ok: true; content: unknown } | { ok: false; code: number; content: string };

/** A registered request handler with its types erased, as the dispatcher runs it. */
export interface RegisteredRequest {
  permission: RequiredPermission;
  /** May throw instead of rejecting, as a handler that is not async may. */
  run(ctx: RequestContext, params: unknown): Promise<HandlerOutcome>;
}

/** A registered notice handler with its types erased. */
export interface RegisteredNotice {
  run(ctx: RequestContext, params: unknown): Promise<void>;
}

/** A handler's result as a successful outcome. */
const succeeded = (content: unknown): HandlerOutcome => ({ ok: true, content });

/** Events the gateway answers itself; modules cannot take them over. */
const RESERVED: ReadonlySet<string> = new Set(['authorize', 'manualDisconnect']);

/**
 * Where modules (im, pubsub, cs, ...) plug their events in. Each event has at most one handler, so that two
 * modules cannot both answer one request.
 */
export class HandlerRegistry {
  readonly #requests = new Map<string, RegisteredRequest>();
  readonly #notices = new Map<string, RegisteredNotice>();
  readonly #moduleData = new Map<string, ModuleDataProvider>();

  /** Registers the handler of a request event. @throws Error if the event is taken or reserved. */
  handle<S extends z.ZodMiniType, R>(event: ClientEventName, spec: RequestHandlerSpec<S, R>): void {
    this.#claim(event, this.#requests);
    this.#requests.set(event, {
      permission: spec.permission,
      // Not async: each layer of promises between a request and its ack costs every request a turn or two more.
      run(ctx, params) {
        const read = spec.read?.(params);
        if (read !== undefined) return spec.handler(ctx, read).then(succeeded);
        const checked = check(spec.schema, params);
        if (!checked.ok) return Promise.resolve(checked);
        return spec.handler(ctx, checked.value).then(succeeded);
      },
    });
  }

  /** Registers the handler of a plain emit (`imAck`, `ack`). @throws Error if the event is taken. */
  notice<S extends z.ZodMiniType>(event: ClientNoticeName, spec: NoticeHandlerSpec<S>): void {
    this.#claim(event, this.#notices);
    this.#notices.set(event, {
      async run(ctx, params) {
        const checked = check(spec.schema, params);
        if (checked.ok) await spec.handler(ctx, checked.value);
      },
    });
  }

  /** Supplies the `mD` entry of a module key; modules without a provider get `{}`. */
  moduleData(key: WireModuleName, provider: ModuleDataProvider): void {
    this.#claim(key, this.#moduleData);
    this.#moduleData.set(key, provider);
  }

  /** The request handler of `event`, if any. */
  request(event: string): RegisteredRequest | undefined {
    return this.#requests.get(event);
  }

  /** The notice handler of `event`, if any. */
  noticeHandler(event: string): RegisteredNotice | undefined {
    return this.#notices.get(event);
  }

  /** The `mD` provider of a module key, if any. */
  moduleDataProvider(key: string): ModuleDataProvider | undefined {
    return this.#moduleData.get(key);
  }

  #claim(name: string, map: Map<string, unknown>): void {
    if (RESERVED.has(name)) throw new Error(`The gateway answers ${name} itself`);
    if (map.has(name)) throw new Error(`A handler for ${name} is already registered`);
  }
}
