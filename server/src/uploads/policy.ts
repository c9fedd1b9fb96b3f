import { createHmac, timingSafeEqual } from 'node:crypto';
import { ServiceError } from '../errors.js';
import { CODES, MESSAGES } from '../protocol.js';

/**
 * POST policies in the OSS/S3 form: a base64 JSON document `{expiration, conditions}` signed with HMAC. A condition
 * is `{field: value}` (equals), `["eq", "$field", value]`, `["starts-with", "$field", prefix]`,
 * `["in", "$field", [values]]` (OSS's) or `["content-length-range", min, max]`. Field names compare
 * case-insensitively, as OSS does. The server's own storage also knows `["matches", "$field", regex]` (whole-value
 * match; only in policies it signed itself) and a top-level `insertOnly: true` (the key must not exist yet), which
 * every token it issues carries.
 */

/** One policy condition. */
export type PolicyCondition = Record<string, string> | [string, ...Array<string | number | string[]>];

/** A policy document. */
export interface PolicyDocument {
  /** ISO 8601 time after which the policy is refused. */
  expiration: string;
  conditions: PolicyCondition[];
  /** When true, a key that already holds a file is refused rather than overwritten (Qiniu's `insertOnly`). */
  insertOnly?: boolean;
}

/** Encodes a policy as the base64 of its JSON. */
export function encodePolicy(doc: PolicyDocument): string {
  return Buffer.from(JSON.stringify(doc), 'utf8').toString('base64');
}

/** The local storage's signature: base64 HMAC-SHA256 of the encoded policy with the app's secret. */
export function signPolicy(secret: string, policy: string): string {
  return createHmac('sha256', secret).update(policy, 'utf8').digest('base64');
}

/** Whether `signature` is `policy` signed with `secret`, compared in constant time. */
export function signatureMatches(secret: string, policy: string, signature: string): boolean {
  const expected = Buffer.from(signPolicy(secret, policy), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** What a checked policy allows. */
export interface PolicyLimits {
  minBytes: number;
  maxBytes: number;
  /** The key must not hold a file yet. */
  insertOnly: boolean;
}

function forbidden(content: string): ServiceError {
  return new ServiceError(403, content);
}

function decode(policy: string): PolicyDocument {
  try {
    const doc = JSON.parse(Buffer.from(policy, 'base64').toString('utf8')) as Partial<PolicyDocument>;
    if (typeof doc.expiration === 'string' && Array.isArray(doc.conditions)) return doc as PolicyDocument;
  } catch {
    // reported below
  }
  throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.uploadPolicyFailed);
}

/**
 * UP-10, UP-11: checks a signed policy against the posted fields: expiry, then every condition. Fails closed: an
 * unknown condition refuses the upload. Returns the size range, which the caller enforces while the file streams.
 */
export function checkPolicy(params: {
  policy: string;
  fields: Readonly<Record<string, string>>;
  now: number;
  maxBytes: number;
}): PolicyLimits {
  const doc = decode(params.policy);
  const expires = Date.parse(doc.expiration);
  if (!Number.isFinite(expires) || expires <= params.now) throw forbidden(MESSAGES.uploadPolicyExpired);
  const lower = new Map(Object.entries(params.fields).map(([k, v]) => [k.toLowerCase(), v]));
  const field = (name: unknown) =>
    typeof name === 'string' ? lower.get(name.replace(/^\$/, '').toLowerCase()) : undefined;
  const limits: PolicyLimits = { minBytes: 0, maxBytes: params.maxBytes, insertOnly: doc.insertOnly === true };
  for (const condition of doc.conditions) {
    const failed = () => forbidden(`${MESSAGES.uploadPolicyFailed}: ${JSON.stringify(condition)}`);
    if (Array.isArray(condition)) {
      const [op, a, b] = condition;
      if (op === 'content-length-range' && typeof a === 'number' && typeof b === 'number') {
        limits.minBytes = Math.max(limits.minBytes, a);
        limits.maxBytes = Math.min(limits.maxBytes, b);
      } else if (op === 'eq' && typeof b === 'string') {
        if (field(a) !== b) throw failed();
      } else if (op === 'starts-with' && typeof b === 'string') {
        const value = field(a);
        if (value === undefined || !value.startsWith(b)) throw failed();
      } else if (op === 'in' && Array.isArray(b)) {
        const value = field(a);
        if (value === undefined || !b.includes(value)) throw failed();
      } else if (op === 'matches' && typeof b === 'string') {
        const value = field(a);
        if (value === undefined || !new RegExp(`^(?:${b})$`, 'u').test(value)) throw failed();
      } else {
        throw failed();
      }
    } else if (typeof condition === 'object' && condition !== null) {
      for (const [name, value] of Object.entries(condition)) {
        // `bucket` names the storage itself; the server's own storage has one.
        if (name.toLowerCase() === 'bucket') continue;
        if (field(name) !== value) throw failed();
      }
    } else {
      throw failed();
    }
  }
  return limits;
}
