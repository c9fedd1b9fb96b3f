import { randomUUID } from 'node:crypto';
import type { AppConfig } from '../config.js';
import { ServiceError } from '../errors.js';
import { CODES, LIMITS, MESSAGES, jsonByteLength, type AuthorizeRequest, type Permissions } from '../protocol.js';
import type { ReplayHorizon, SessionStore } from '../store/index.js';
import type { AppRegistry } from './apps.js';
import { verifyOtp, type OtpFailure } from './otp.js';

/** A client that passed authorize: who it is, what it may do, and its session. */
export interface AuthorizedSession {
  app: AppConfig;
  permissions: Permissions;
  /** Null for an anonymous connection. */
  userId: string | null;
  userData: Record<string, unknown>;
  sid: string;
  /** True when the client's previous sid was still valid and is kept (the client shows `reconnected`). */
  resumed: boolean;
  /**
   * When the session the client named by its sid (same app and user, resumed or not) was last seen, or null when
   * it named none we know: what the client may have missed since then can be replayed. When the session's last
   * connection left messages pushed and not acknowledged, the oldest of their times (IM-24).
   */
  previousSeenAt: number | null;
  /** The messages the replay leaves out: those that connection sent itself since `previousSeenAt`. */
  replayExcept: readonly string[];
  /**
   * The sid the client named when it was given a new one instead (the session had expired, or is forgotten), or null:
   * what the pub/sub layer kept of that session longer may come over (PUB-20), if it was the same app's and user's.
   */
  replacedSid: string | null;
}

/** A session with a connection on this node, and what that connection's disconnect would leave to a replay. */
export interface LiveSession {
  sid: string;
  replay?: ReplayHorizon | undefined;
}

/** Authorize and session lifetime, free of any transport. */
export interface SessionService {
  /**
   * Checks an authorize request and resumes or starts a session. `admit`, when given, is asked once the request's
   * app and user are known and its otp checked, before any store write; false refuses the request with 429
   * (WIRE-10). @throws ServiceError with the wire code.
   */
  authorize(request: AuthorizeRequest, admit?: (appkey: string, userId: string) => boolean): Promise<AuthorizedSession>;
  /**
   * Records that a session's connection went away, which starts its time to live; `horizon`, when that connection's
   * client had not acknowledged every message pushed to it, is where the next replay starts (IM-24).
   */
  left(sid: string, horizon?: ReplayHorizon): Promise<void>;
  /**
   * Keeps the live sessions fresh and deletes sessions unseen for longer than the time to live; returns how many. A
   * live session's `replay`, when its connection has pushes not yet acknowledged, is stored as its disconnect would
   * store it, so that a node that stops without its disconnects still leaves where each replay starts (IM-24).
   */
  sweep(live: readonly LiveSession[]): Promise<number>;
}

/** What {@link createSessionService} needs. */
export interface SessionServiceDeps {
  apps: AppRegistry;
  sessions: SessionStore;
  /** How long a sid stays valid after its connection went away, in ms. */
  sessionTtlMs: number;
  /** The clock, injectable so that tests need not wait. */
  now: () => number;
  /** Makes new sids. @default randomUUID */
  newSid?: () => string;
}

const OTP_MESSAGES: Record<OtpFailure, string> = {
  missing: MESSAGES.otpRequired,
  forged: MESSAGES.otpInvalid,
  'wrong-user': MESSAGES.otpInvalid,
  expired: MESSAGES.otpExpired,
};

/** Longest userData string we even parse; anything longer cannot fit the byte limit in any reasonable encoding. */
const USER_DATA_PARSE_LIMIT = LIMITS.userDataMaxBytes * 16;

/** Creates the session service. */
export function createSessionService(deps: SessionServiceDeps): SessionService {
  const newSid = deps.newSid ?? randomUUID;
  return {
    async authorize(request, admit) {
      const grant = deps.apps.byClientKey(request.appkey);
      if (!grant) throw new ServiceError(CODES.UNAUTHORIZED, MESSAGES.invalidAppkey);
      const userData = parseUserData(request.userData);
      const anonymous =
        request.a === true || request.userId === null || request.userId === undefined || request.userId === '';
      const userId = anonymous ? null : String(request.userId);
      const now = deps.now();
      if (grant.app.requireOtp && userId !== null) {
        const otp = verifyOtp({ secretKey: grant.app.secretKey, token: request.otp, userId, now });
        if (!otp.ok) throw new ServiceError(CODES.UNAUTHORIZED, OTP_MESSAGES[otp.reason]);
      }
      if (userId !== null && admit && !admit(grant.app.appkey, userId)) {
        throw new ServiceError(CODES.TOO_MANY_REQUESTS, MESSAGES.tooManyConnections);
      }
      const base = { app: grant.app, permissions: grant.permissions, userId, userData };
      let previousSeenAt: number | null = null;
      let replayExcept: readonly string[] = [];
      if (request.sid) {
        const previous = await deps.sessions.find(request.sid);
        const same = previous !== undefined && previous.appkey === grant.app.appkey && previous.userId === userId;
        if (same) {
          previousSeenAt = previous.replay?.from ?? previous.lastSeenAt;
          replayExcept = previous.replay?.except ?? [];
        }
        if (same && previous.lastSeenAt >= now - deps.sessionTtlMs) {
          await deps.sessions.touch(previous.sid, now);
          return { ...base, sid: previous.sid, resumed: true, previousSeenAt, replayExcept, replacedSid: null };
        }
      }
      const created = await deps.sessions.create({ sid: newSid(), appkey: grant.app.appkey, userId, now });
      const replacedSid = request.sid ? request.sid : null;
      return { ...base, sid: created.sid, resumed: false, previousSeenAt, replayExcept, replacedSid };
    },
    async left(sid, horizon) {
      await deps.sessions.left(sid, deps.now(), horizon);
    },
    async sweep(live) {
      const now = deps.now();
      // Live sessions are only touched on authorize and disconnect; refresh them first so that a long-lived
      // connection does not lose its session to the sweep.
      await deps.sessions.touchMany(
        live.filter((session) => !session.replay).map((session) => session.sid),
        now,
      );
      for (const { sid, replay } of live) if (replay) await deps.sessions.left(sid, now, replay);
      return deps.sessions.deleteExpired(now - deps.sessionTtlMs);
    },
  };
}

/** Parses the wire's userData (a JSON string of an object, at most 300 bytes). */
function parseUserData(raw: string | null | undefined): Record<string, unknown> {
  if (raw === null || raw === undefined || raw === '') return {};
  if (raw.length > USER_DATA_PARSE_LIMIT) throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.dataTooLong);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.dataNotObject);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.dataNotObject);
  }
  if (jsonByteLength(value) > LIMITS.userDataMaxBytes) throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.dataTooLong);
  return value as Record<string, unknown>;
}
