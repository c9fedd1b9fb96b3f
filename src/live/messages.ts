import type { ParleyClient } from '../client.js';
import { ParleyError } from '../core/errors.js';
import { isOnline } from '../core/status.js';
import type { Message, MessageTarget } from '../modules/im/types.js';
import { LiveSource } from './source.js';

/**
 * What {@link LiveMessages.sendFile} sends: a file of a kind, and what a platform that cannot measure media itself
 * (Node, some webviews) may state: an image's or video's size, a duration in seconds, a video's thumbnail image.
 */
export type SendFileOptions =
  | { kind: 'image'; file: Blob; width?: number; height?: number }
  | { kind: 'file'; file: Blob }
  | { kind: 'audio'; file: Blob; duration?: number }
  | { kind: 'video'; file: Blob; width?: number; height?: number; duration?: number; thumbnail?: Blob };

/** A media message sent through {@link LiveMessages.sendFile}, while it uploads or after it failed. */
export interface MessageUpload {
  kind: SendFileOptions['kind'];
  /** The file being sent, e.g. for a local preview while its URL is not known yet. */
  file: Blob;
  /** Upload progress, 0 to 100. */
  progress: number;
}

/** One conversation's messages as a live value. */
export interface MessagesState {
  /** Oldest first; messages being sent or failed are included with their status. */
  messages: readonly Message[];
  /**
   * Own media messages by `messageId`, from `sendFile` until they succeed: their upload progress while `sending`,
   * and, once failed, the file that `retry` sends again.
   */
  uploads: Readonly<Record<string, MessageUpload>>;
  loading: boolean;
  /** Whether older messages may exist on the server. */
  hasMore: boolean;
  error: ParleyError | undefined;
}

/** The conversation a live message list shows. */
export interface ConversationTarget {
  type: 'private' | 'group';
  id: string;
  /** Data about the other user or the group, sent with new messages for the conversation list. */
  data?: Record<string, unknown>;
}

const MEDIA: ReadonlySet<string> = new Set<SendFileOptions['kind']>(['image', 'file', 'audio', 'video']);

/**
 * A conversation's messages: the newest page when the connection is up, older pages on `loadMore()`, live
 * updates from events, and sending text or files with optimistic status; a failed message can be retried.
 */
export class LiveMessages extends LiveSource<MessagesState> {
  readonly #client: ParleyClient;
  readonly #target: ConversationTarget;
  readonly #pageSize: number;
  /** What each upload was asked with, so that a retry sends the same; and how to abort the ones under way. */
  readonly #files = new Map<string, SendFileOptions>();
  readonly #aborts = new Map<string, AbortController>();
  #offs: Array<() => void> = [];
  #loaded = false;

  constructor(client: ParleyClient, target: ConversationTarget, pageSize = 20) {
    super({ messages: [], uploads: {}, loading: false, hasMore: true, error: undefined });
    this.#client = client;
    this.#target = { ...target, id: String(target.id) };
    this.#pageSize = pageSize;
  }

  /** Loads the page before the oldest message shown. */
  async loadMore(): Promise<void> {
    const state = this.getSnapshot();
    if (state.loading || !state.hasMore) return;
    const oldest = state.messages.find((m) => m.status === 'success')?.timestamp;
    this.#patch({ loading: true, error: undefined });
    try {
      const page = await this.#client.im.history({
        type: this.#target.type,
        id: this.#target.id,
        limit: this.#pageSize,
        ...(oldest === undefined ? {} : { lastTimestamp: oldest }),
      });
      const known = new Set(this.getSnapshot().messages.map((m) => m.messageId));
      const older = page.filter((m) => !known.has(m.messageId));
      this.#patch({
        messages: [...older, ...this.getSnapshot().messages],
        loading: false,
        hasMore: page.length >= this.#pageSize,
      });
    } catch (error) {
      this.#patch({ loading: false, error: ParleyError.from(error) });
    }
  }

  /** Sends a text message; it shows at once as `sending`, then `success` or `fail`. */
  async sendText(text: string): Promise<Message> {
    return this.#send(this.#client.im.createTextMessage({ text, to: this.#to() }));
  }

  /**
   * Sends an image, file, audio or video message. It shows at once as `sending`, with its upload progress in
   * `uploads`, then `success` or `fail`. Rejects with the SDK's 400 errors for a file it refuses (empty, over
   * 30 MiB, a type the kind does not allow) before anything shows.
   */
  async sendFile(options: SendFileOptions): Promise<Message> {
    const controller = new AbortController();
    // Progress is reported once the message exists, under its id.
    const sending: { id?: string } = {};
    const message = this.#create(options, controller.signal, (progress) => {
      if (sending.id !== undefined) this.#progress(sending.id, progress);
    });
    const id = (sending.id = message.messageId);
    this.#files.set(id, options);
    this.#aborts.set(id, controller);
    try {
      return await this.#send(message, { kind: options.kind, file: options.file, progress: 0 });
    } finally {
      this.#aborts.delete(id);
    }
  }

  /**
   * Stops the upload of a media message being sent; the message then fails (and may be retried). Returns whether an
   * upload was under way.
   */
  abort(message: Message): boolean {
    const controller = this.#aborts.get(message.messageId);
    controller?.abort();
    return controller !== undefined;
  }

  /** Sends a failed message again, as a new message with the same content (the same file for media). */
  async retry(failed: Message): Promise<Message> {
    if (failed.status !== 'fail') throw new ParleyError(400, 'only a failed message can be retried');
    const file = this.#files.get(failed.messageId);
    if (MEDIA.has(failed.type) && !file) {
      throw new ParleyError(400, 'the file of this message is no longer at hand: send it again');
    }
    await this.#client.im.deleteMessage({ messages: [failed] });
    this.#forget(failed.messageId);
    if (file) return this.sendFile(file);
    const to = this.#to();
    const message =
      failed.type === 'text'
        ? this.#client.im.createTextMessage({ text: (failed.payload as { text: string }).text, to })
        : this.#client.im.createCustomMessage({ type: failed.type, payload: failed.payload, to });
    return this.#send(message);
  }

  /** Marks the conversation read. */
  markRead(): Promise<void> {
    return this.#client.im.markMessageAsRead({ type: this.#target.type, id: this.#target.id });
  }

  protected start(): void {
    const im = this.#client.im;
    const mine = (m: Message) => this.#belongs(m);
    this.#offs.push(im.on('PRIVATE_MESSAGE_RECEIVED', (m) => mine(m) && this.#upsert(m)));
    this.#offs.push(im.on('GROUP_MESSAGE_RECEIVED', (m) => mine(m) && this.#upsert(m)));
    for (const event of ['MESSAGE_RECALLED', 'MESSAGE_READ'] as const) {
      this.#offs.push(im.on(event, (list) => list.filter(mine).forEach((m) => this.#replace(m))));
    }
    this.#offs.push(im.on('MESSAGE_DELETED', (list) => list.filter(mine).forEach((m) => this.#forget(m.messageId))));
    this.#offs.push(
      this.#client.on('connectionStatus', ({ status }) => {
        if (isOnline(status) && !this.#loaded) void this.#first();
      }),
    );
    if (isOnline(this.#client.getConnectionStatus())) void this.#first();
  }

  protected stop(): void {
    for (const off of this.#offs) off();
    this.#offs = [];
  }

  async #first(): Promise<void> {
    this.#loaded = true;
    await this.loadMore();
  }

  #create(options: SendFileOptions, signal: AbortSignal, onProgress: (percent: number) => void): Message {
    const im = this.#client.im;
    const common = { file: options.file, to: this.#to(), signal, onProgress };
    switch (options.kind) {
      case 'image':
        return im.createImageMessage({ ...common, width: options.width, height: options.height });
      case 'file':
        return im.createFileMessage(common);
      case 'audio':
        return im.createAudioMessage({ ...common, duration: options.duration });
      case 'video':
        return im.createVideoMessage({
          ...common,
          width: options.width,
          height: options.height,
          duration: options.duration,
          thumbnail: options.thumbnail,
        });
    }
  }

  #to(): MessageTarget {
    return { type: this.#target.type, id: this.#target.id, data: this.#target.data ?? {} };
  }

  async #send(message: Message, upload?: MessageUpload): Promise<Message> {
    const id = message.messageId;
    const { messages, uploads } = this.getSnapshot();
    this.#patch({
      messages: [...messages.filter((m) => m.messageId !== id), { ...message, status: 'sending' }],
      ...(upload ? { uploads: { ...uploads, [id]: upload } } : {}),
    });
    try {
      await this.#client.im.sendMessage({ message });
    } catch (error) {
      // A send refused before it started (e.g. no connection) leaves the message `new`: it failed all the same.
      this.#replace({ ...message, status: 'fail' });
      throw ParleyError.from(error);
    }
    this.#files.delete(id);
    this.#replace({ ...message });
    if (upload) this.#patch({ uploads: without(this.getSnapshot().uploads, id) });
    return message;
  }

  #progress(id: string, progress: number): void {
    const uploads = this.getSnapshot().uploads;
    const upload = uploads[id];
    if (upload && upload.progress !== progress) this.#patch({ uploads: { ...uploads, [id]: { ...upload, progress } } });
  }

  /** Drops a message (deleted, or replaced by its retry) and what was kept for it. */
  #forget(id: string): void {
    this.#files.delete(id);
    const { messages, uploads } = this.getSnapshot();
    if (!messages.some((m) => m.messageId === id) && !(id in uploads)) return;
    this.#patch({ messages: messages.filter((m) => m.messageId !== id), uploads: without(uploads, id) });
  }

  #belongs(m: Message): boolean {
    const me = String(this.#client.user?.id ?? '');
    const id = this.#target.id;
    if (this.#target.type === 'group') return m.scene === 'group' && m.groupId === id;
    return (
      m.scene === 'private' &&
      ((m.senderId === id && m.receiverId === me) || (m.senderId === me && m.receiverId === id))
    );
  }

  #upsert(message: Message): void {
    const messages = this.getSnapshot().messages;
    if (messages.some((m) => m.messageId === message.messageId)) this.#replace(message);
    else this.#patch({ messages: [...messages, message] });
  }

  #replace(message: Message): void {
    const messages = this.getSnapshot().messages;
    if (!messages.some((m) => m.messageId === message.messageId)) return;
    this.#patch({ messages: messages.map((m) => (m.messageId === message.messageId ? { ...message } : m)) });
  }

  #patch(changes: Partial<MessagesState>): void {
    this.set({ ...this.getSnapshot(), ...changes });
  }
}

function without<T>(record: Readonly<Record<string, T>>, key: string): Readonly<Record<string, T>> {
  if (!(key in record)) return record;
  const { [key]: _gone, ...rest } = record;
  return rest;
}
