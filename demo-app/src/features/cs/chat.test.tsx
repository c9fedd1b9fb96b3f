import { ParleyError, type CsMessage, type CustomerStatus } from 'parley-im';
import { describe, expect, it } from 'vitest';
import { LiveCsChat, type CsChannel, type CsChatListener } from './chat';
import type { ChatLink } from './live';

let ids = 0;
function message(timestamp: number, text = `t${timestamp}`, senderId = 'c1'): CsMessage {
  return {
    messageId: `m${timestamp}-${++ids}`,
    senderId,
    type: 'text',
    timestamp,
    payload: { text },
    status: 'success',
    recalled: false,
    scene: 'cs',
    to: 'service',
    teamId: 'service',
    senderData: {},
    accepted: false,
  };
}

/** A channel over a stored list, with a server clock, failing sends on demand, and a link to cut. */
function setup(stored: CsMessage[]) {
  let clock = 1000;
  let online = false;
  const onlineListeners = new Set<() => void>();
  const watchers = new Set<CsChatListener>();
  const typers = new Set<(typing: boolean) => void>();
  const told: boolean[] = [];
  const state = { failSends: false, watches: 0, unwatches: 0 };
  const channel: CsChannel = {
    history: ({ lastTimestamp, limit }) =>
      Promise.resolve(stored.filter((m) => lastTimestamp === undefined || m.timestamp < lastTimestamp).slice(-limit)),
    watch: (listener) => {
      state.watches++;
      watchers.add(listener);
      return Promise.resolve(() => {
        state.unwatches++;
        watchers.delete(listener);
      });
    },
    createText: (text) => ({ ...message(0, text, 'me'), timestamp: 1, status: 'new' }),
    send: async (m) => {
      await Promise.resolve();
      if (state.failSends) throw new ParleyError(408, 'timeout');
      m.timestamp = ++clock;
      m.status = 'success';
      stored.push({ ...m });
    },
    markRead: () => Promise.resolve(),
    typing: (on) => void told.push(on),
    watchTyping: (listener) => {
      typers.add(listener);
      return () => typers.delete(listener);
    },
  };
  const link: ChatLink = {
    isOnline: () => online,
    onOnline: (listener) => (onlineListeners.add(listener), () => onlineListeners.delete(listener)),
  };
  return {
    channel,
    link,
    state,
    /** The connection comes (back) up. */
    up() {
      online = true;
      for (const l of onlineListeners) l();
    },
    /** The server's next timestamp. */
    tick: () => ++clock,
    push(m: CsMessage) {
      for (const w of watchers) w.onMessage(m);
    },
    status(s: CustomerStatus) {
      for (const w of watchers) w.onStatus(s);
    },
    /** The other side starts or stops typing. */
    otherTypes(on: boolean) {
      for (const t of typers) t(on);
    },
    told,
    typers,
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const texts = (chat: LiveCsChat) => chat.getSnapshot().messages.map((m) => (m.payload as { text: string }).text);

describe('customer-service chat', () => {
  it('loads the newest page once the link is up, then older pages, oldest first', async () => {
    const s = setup(Array.from({ length: 5 }, (_, i) => message(i + 1)));
    const chat = new LiveCsChat(s.channel, s.link, 2);
    const off = chat.subscribe(() => undefined);
    await settle();
    expect(texts(chat)).toEqual([]);
    s.up();
    await settle();
    expect(texts(chat)).toEqual(['t4', 't5']);
    await chat.loadMore();
    expect(texts(chat)).toEqual(['t2', 't3', 't4', 't5']);
    expect(chat.getSnapshot().hasMore).toBe(true);
    await chat.loadMore();
    expect(texts(chat)).toEqual(['t1', 't2', 't3', 't4', 't5']);
    expect(chat.getSnapshot().hasMore).toBe(false);
    off();
  });

  it('TYPING-4: follows whether the other side types while watched, and tells my typing', () => {
    const s = setup([]);
    const chat = new LiveCsChat(s.channel, s.link);
    const off = chat.subscribe(() => undefined);
    s.otherTypes(true);
    expect(chat.getSnapshot().typing).toBe(true);
    s.otherTypes(false);
    expect(chat.getSnapshot().typing).toBe(false);
    chat.keystroke();
    chat.stopTyping();
    expect(s.told).toEqual([true, false]);
    off();
    expect(s.typers.size).toBe(0);
  });

  it('adds what it hears in server order, and the session status it is told', async () => {
    const s = setup([message(10)]);
    const chat = new LiveCsChat(s.channel, s.link);
    s.up();
    const off = chat.subscribe(() => undefined);
    await settle();
    s.push(message(30));
    s.push(message(20));
    s.status({ status: 'PENDING', start: 10, sessionId: 10 });
    expect(texts(chat)).toEqual(['t10', 't20', 't30']);
    expect(chat.getSnapshot().status).toEqual({ status: 'PENDING', start: 10, sessionId: 10 });
    off();
  });

  it('after a reconnect watches again and merges the newest page without showing anything twice', async () => {
    const stored = [message(10), message(20)];
    const s = setup(stored);
    const chat = new LiveCsChat(s.channel, s.link);
    s.up();
    const off = chat.subscribe(() => undefined);
    await settle();
    stored.push(message(30));
    s.up();
    await settle();
    expect(texts(chat)).toEqual(['t10', 't20', 't30']);
    expect(s.state).toMatchObject({ watches: 2, unwatches: 1 });
    off();
    await settle();
    expect(s.state.unwatches).toBe(2);
  });

  it('shows a text at once as sending, then sent in order; a failed one can be sent again', async () => {
    const s = setup([message(10)]);
    const chat = new LiveCsChat(s.channel, s.link);
    s.up();
    const off = chat.subscribe(() => undefined);
    await settle();

    const sending = chat.sendText('hello');
    expect(chat.getSnapshot().messages.at(-1)).toMatchObject({ status: 'sending', payload: { text: 'hello' } });
    await sending;
    expect(chat.getSnapshot().messages.map((m) => m.status)).toEqual(['success', 'success']);

    s.state.failSends = true;
    await expect(chat.sendText('lost')).rejects.toMatchObject({ code: 408 });
    s.push(message(s.tick(), 'later'));
    const failed = chat.getSnapshot().messages.at(-1);
    expect(failed).toMatchObject({ status: 'fail', payload: { text: 'lost' } });
    expect(texts(chat)).toEqual(['t10', 'hello', 'later', 'lost']);

    s.state.failSends = false;
    await chat.retry(failed!);
    expect(texts(chat)).toEqual(['t10', 'hello', 'later', 'lost']);
    expect(chat.getSnapshot().messages.every((m) => m.status === 'success')).toBe(true);
    await expect(chat.retry(chat.getSnapshot().messages[0]!)).rejects.toBeInstanceOf(ParleyError);
    off();
  });
});
