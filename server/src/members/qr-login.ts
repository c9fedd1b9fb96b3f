import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { LoginTicketStore, MemberRecord } from '../store/index.js';
import type { MemberResult, MemberService } from './service.js';

/** Sign-in by QR code (spec §2 user/scan-login): its limits. */
export const QR_LOGIN_LIMITS = {
  /** A shown code lasts this long; scanning gives the member this long again to confirm. */
  ticketTtlMs: 120_000,
  /** The device description kept, in characters. */
  deviceMaxLength: 200,
} as const;

/** What the asking device sees when it polls its ticket. */
export type QrLoginState =
  | { status: 'waiting'; expiresAt: number }
  /** Scanned: whose phone it is, so that the device can show their avatar while they confirm. */
  | { status: 'scanned'; member: MemberRecord; expiresAt: number }
  | { status: 'cancelled' }
  /** Expired, or never shown: the device shows a new code. */
  | { status: 'expired' }
  /** Confirmed: the device's own new session. */
  | { status: 'confirmed'; token: string; member: MemberRecord };

/** What the scanning member is asked to confirm: which device, from where, since when. */
export interface QrLoginRequest {
  device: string;
  address: string;
  createdAt: number;
  expiresAt: number;
}

/** Sign-in by QR code. No HTTP here. */
export interface QrLoginService {
  /** A new ticket for a device that is not signed in: the QR code carries `ticket`; `key` stays on the device. */
  create(asker: { userAgent: unknown; address: string }): Promise<{ ticket: string; key: string; expiresAt: number }>;
  /** The ticket's state for the device holding its key; `bad_params` when the key is not the ticket's. */
  poll(ticket: unknown, key: unknown): Promise<MemberResult<QrLoginState>>;
  /** A member's phone opened the code: `qr_invalid` when expired, `qr_taken` when another member scanned it. */
  scan(memberId: string, ticket: unknown): Promise<MemberResult<QrLoginRequest>>;
  /** The member who scanned it confirms the sign-in (`true`) or turns it down; `qr_invalid` when too late. */
  settle(memberId: string, ticket: unknown, confirm: boolean): Promise<MemberResult<void>>;
}

/** What {@link createQrLoginService} needs. */
export interface QrLoginDeps {
  tickets: LoginTicketStore;
  members: MemberService;
  now: () => number;
}

/** A ticket or key as sent: 32 base64url characters (24 random bytes). */
const isSecret = (value: unknown): value is string => typeof value === 'string' && /^[\w-]{32}$/.test(value);

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bMicroMessenger\//, 'WeChat'],
  [/\b(?:HeadlessChrome|Chrome|Chromium|CriOS)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/**
 * The device a browser's `User-Agent` names, as a member reads it before confirming a sign-in: "Chrome on Windows",
 * "Safari on iOS", or the header itself cut short when neither part is known (empty when there is none).
 */
export function describeDevice(userAgent: unknown): string {
  if (typeof userAgent !== 'string') return '';
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  const known = browser ?? system;
  if (known) return known;
  // Printable characters only: the phone shows it as text, and a header may carry anything.
  return userAgent.replace(/[^\x20-\x7e]/g, '').slice(0, QR_LOGIN_LIMITS.deviceMaxLength);
}

/** Creates the QR sign-in service over its store and the member service, which starts the device's session. */
export function createQrLoginService({ tickets, members, now }: QrLoginDeps): QrLoginService {
  return {
    async create({ userAgent, address }) {
      const ticket = randomBytes(24).toString('base64url');
      const key = randomBytes(24).toString('base64url');
      const createdAt = now();
      const expiresAt = createdAt + QR_LOGIN_LIMITS.ticketTtlMs;
      await tickets.add(
        {
          ticket,
          keyHash: sha256(key),
          device: describeDevice(userAgent),
          address: address.slice(0, 64),
          createdAt,
          expiresAt,
        },
        createdAt,
      );
      return { ticket, key, expiresAt };
    },

    async poll(ticket, key) {
      if (!isSecret(ticket) || !isSecret(key)) return { ok: false, failure: 'bad_params' };
      const record = await tickets.get(ticket, now());
      if (!record) return { ok: true, value: { status: 'expired' } };
      if (!timingSafeEqual(Buffer.from(sha256(key)), Buffer.from(record.keyHash))) {
        return { ok: false, failure: 'bad_params' };
      }
      switch (record.status) {
        case 'waiting':
          return { ok: true, value: { status: 'waiting', expiresAt: record.expiresAt } };
        case 'cancelled':
          return { ok: true, value: { status: 'cancelled' } };
        case 'scanned': {
          const member = record.memberId === null ? undefined : await members.profile(record.memberId);
          if (!member?.ok) return { ok: true, value: { status: 'expired' } };
          return { ok: true, value: { status: 'scanned', member: member.value, expiresAt: record.expiresAt } };
        }
        case 'confirmed': {
          const memberId = await tickets.take(ticket, now());
          // Taken by another poll with the same key a moment ago: this one is too late.
          if (memberId === undefined) return { ok: true, value: { status: 'expired' } };
          const session = await members.startSession(memberId);
          if (!session.ok) return { ok: true, value: { status: 'expired' } };
          return { ok: true, value: { status: 'confirmed', ...session.value } };
        }
      }
    },

    async scan(memberId, ticket) {
      if (!isSecret(ticket)) return { ok: false, failure: 'qr_invalid' };
      const at = now();
      const record = await tickets.scan(ticket, memberId, at, at + QR_LOGIN_LIMITS.ticketTtlMs);
      if (record) {
        const { device, address, createdAt, expiresAt } = record;
        return { ok: true, value: { device, address, createdAt, expiresAt } };
      }
      const current = await tickets.get(ticket, at);
      const taken = current?.status === 'scanned' && current.memberId !== memberId;
      return { ok: false, failure: taken ? 'qr_taken' : 'qr_invalid' };
    },

    async settle(memberId, ticket, confirm) {
      if (!isSecret(ticket)) return { ok: false, failure: 'qr_invalid' };
      const settled = await tickets.settle(ticket, memberId, confirm ? 'confirmed' : 'cancelled', now());
      return settled ? { ok: true, value: undefined } : { ok: false, failure: 'qr_invalid' };
    },
  };
}
