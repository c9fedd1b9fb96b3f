import type { Recaller, Scene, WireImMessage } from '../protocol.js';
import type { StoredMessage } from '../store/index.js';

/** A stored message in the wire's abbreviated form (`imMessage`, history items, `lmsg`). */
export function toWireMessage(message: StoredMessage): WireImMessage {
  const scene = message.scene as Scene;
  const wire: WireImMessage = {
    t: scene,
    r: message.targetId,
    s: message.senderId,
    i: message.messageId,
    ts: message.ts,
    mt: message.type,
    p: message.payload,
  };
  // The reference reads `d` as sender data for group and cs only; private messages carry none.
  if (scene !== 'private') wire.d = message.senderData;
  if (message.recalled) {
    wire.rc = true;
    if (message.recaller) wire.recaller = parseRecaller(message.recaller);
  }
  return wire;
}

/** Parses a stored recaller; the store only ever holds what {@link stringifyRecaller} wrote. */
export function parseRecaller(json: string): Recaller {
  return JSON.parse(json) as Recaller;
}

/** The stored form of a recaller. */
export function stringifyRecaller(recaller: Recaller): string {
  return JSON.stringify(recaller);
}

/**
 * HOOK-1: a stored private or group message as an app's server hears of it in an `im.message` delivery: the
 * SDK's names, the payload and the sender's data parsed.
 */
export function messageEventOf(message: StoredMessage) {
  return {
    scene: message.scene,
    messageId: message.messageId,
    timestamp: message.ts,
    senderId: message.senderId,
    senderData: parseJsonOr(message.senderData, {}),
    // The receiver of a private message, or the group.
    to: message.targetId,
    type: message.type,
    payload: parseJsonOr(message.payload, null),
  };
}

/** Parses JSON; `fallback` for nothing or what does not parse. */
export function parseJsonOr(text: string | null | undefined, fallback: unknown): unknown {
  if (typeof text !== 'string' || text === '') return fallback;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fallback;
  }
}
