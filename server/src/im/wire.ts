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
