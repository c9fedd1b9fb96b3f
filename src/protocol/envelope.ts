import * as z from 'zod/mini';
import { CODES } from './codes.js';

/**
 * Every acknowledgement carries `code` (and, for the reference client, the same value as `resultCode`);
 * success is 200. A failure's `content` is a human-readable string; a success's `content` is the result.
 */
export const ackEnvelopeSchema = z.looseObject({
  code: z.optional(z.union([z.number(), z.string()])),
  resultCode: z.optional(z.union([z.number(), z.string()])),
  content: z.optional(z.unknown()),
});

/** An acknowledgement as it crosses the wire. */
export type AckEnvelope = z.infer<typeof ackEnvelopeSchema>;

/** A failed acknowledgement. */
export interface FailureAck {
  code: number;
  resultCode: number;
  content: string;
}

/** A successful acknowledgement carrying `content`. */
export interface SuccessAck<T> {
  code: typeof CODES.OK;
  resultCode: typeof CODES.OK;
  content: T;
}

/** Builds a successful acknowledgement. */
export function ok<T>(content: T): SuccessAck<T> {
  return { code: CODES.OK, resultCode: CODES.OK, content };
}

/** Builds a failed acknowledgement. */
export function fail(code: number, content: string): FailureAck {
  return { code, resultCode: code, content };
}

/** Whether an acknowledgement reports success; the reference accepts `code` or `resultCode`, as number or string. */
export function isOkAck(ack: unknown): boolean {
  if (typeof ack !== 'object' || ack === null) return false;
  const { code, resultCode } = ack as AckEnvelope;
  return Number(code) === CODES.OK || Number(resultCode) === CODES.OK;
}

/** The failure code and content of an acknowledgement, with defaults for malformed ones. */
export function failureOf(ack: unknown): { code: number; content: string } {
  if (typeof ack !== 'object' || ack === null) return { code: CODES.SERVER_ERROR, content: String(ack) };
  const { code, resultCode, content } = ack as AckEnvelope;
  const n = Number(resultCode ?? code);
  return {
    code: Number.isFinite(n) ? n : CODES.SERVER_ERROR,
    content: typeof content === 'string' ? content : JSON.stringify(content ?? null),
  };
}
