import type { ParleyClient } from '../client.js';
import type { OnlineUser } from '../modules/im/types.js';
import { LiveSource } from './source.js';

/** A private or group chat, as {@link LiveTyping} watches it. */
export interface TypingTarget {
  type: 'private' | 'group';
  id: string | number;
}

/**
 * Who is typing in one private or group chat with me (TYPING-2), kept current by the `TYPING` event, and the
 * actions that tell the other side I type there (TYPING-1). A failed notice is dropped: typing is best effort.
 */
export class LiveTyping extends LiveSource<readonly OnlineUser[]> {
  readonly #client: ParleyClient;
  readonly #target: TypingTarget;
  #off: (() => void) | undefined;

  constructor(client: ParleyClient, target: TypingTarget) {
    super([]);
    this.#client = client;
    this.#target = { type: target.type, id: String(target.id) };
  }

  /** Call on each keystroke in the chat's input. */
  keystroke(): void {
    this.#client.im.keystroke(this.#target).catch(() => undefined);
  }

  /** Call when the input is cleared or left, or the message is given up. */
  stopTyping(): void {
    this.#client.im.stopTyping(this.#target).catch(() => undefined);
  }

  protected start(): void {
    const { type, id } = this.#target;
    this.#off = this.#client.im.on('TYPING', (event) => {
      if (event.conversation.type === type && event.conversation.id === id) this.set(event.users);
    });
    try {
      this.set(this.#client.im.typingUsers(this.#target));
    } catch {
      // Not connected yet: nobody is heard typing.
    }
  }

  protected stop(): void {
    this.#off?.();
    this.#off = undefined;
  }
}
