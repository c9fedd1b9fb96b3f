/** Store test support: a message as the message service hands it to the store, and the params of its send. */
import type { NewMessage, SendParams } from '../src/store/im.js';

/** A text message of `u1` to group `g1`, with `overrides`. */
export function newMessage(overrides: Partial<NewMessage> = {}): NewMessage {
  return {
    appkey: 'app',
    convKey: 'group:g1',
    scene: 'group',
    messageId: 'm1',
    senderId: 'u1',
    targetId: 'g1',
    type: 'text',
    payload: '{"text":"hi"}',
    senderData: '{}',
    ...overrides,
  };
}

/** What `messages.send` takes for `message`: its sender's conversation row and read offset, sent now; `overrides`. */
export function sendParams(message: NewMessage, overrides: Partial<Omit<SendParams, 'message'>> = {}): SendParams {
  return {
    message,
    now: Date.now(),
    rows: [{ ownerId: message.senderId, targetId: message.targetId, data: null }],
    readerId: message.senderId,
    stored: () => undefined,
    ...overrides,
  };
}
