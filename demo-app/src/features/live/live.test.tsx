// @vitest-environment jsdom
import { createClient } from 'parley-im';
import { describe, expect, it, vi } from 'vitest';
import type { ChatLine, LiveLink, RoomDetail } from './api';
import { chatTextValid, roomProblem } from './api';
import { joinLiveChannel } from './channel';
import { parseLiveEvent, type LiveEvent } from './events';
import { fakeChannels } from './fake-channels';
import { CHAT_LINES_KEPT, LiveRoom } from './room';

const line = (id: string, time: number, uid = '7'): ChatLine => ({ id, uid, username: 'Bob', img: '', text: id, time });

function detail(extra: Partial<RoomDetail> = {}): RoomDetail {
  return {
    id: 'r1',
    title: 'Room',
    cover: '',
    status: 1,
    anchor: { id: '7', username: 'Bob', img: '' },
    viewers: 3,
    started_at: 1,
    created_at: 0,
    ended_at: null,
    play_url: 'https://media.test/r1.m3u8',
    channel: '$live.r1',
    access_token: null,
    goods: [],
    messages: [line('a', 1), line('b', 2)],
    guests: [],
    me: { anchor: false, muted: false, link: null },
    ...extra,
  };
}

describe('the channel’s events', () => {
  it('reads each kind the server publishes', () => {
    const chat = { type: 'chat', ...line('c', 5) };
    expect(parseLiveEvent(JSON.stringify(chat))).toEqual(chat);
    expect(parseLiveEvent('{"type":"status","status":2}')).toEqual({ type: 'status', status: 2 });
    expect(parseLiveEvent('{"type":"goods","goods":[{"id":"p1","title":"Tea","price":1.5,"img":"x"}]}')).toEqual({
      type: 'goods',
      goods: [{ id: 'p1', title: 'Tea', price: 1.5, img: 'x' }],
    });
    for (const type of ['mute', 'kick', 'restore']) {
      expect(parseLiveEvent(JSON.stringify({ type, uid: 42 }))).toEqual({ type, uid: '42' });
    }
    expect(parseLiveEvent('{"type":"link","uid":9,"status":"accepted","play_url":"https://m.test/g.m3u8"}')).toEqual({
      type: 'link',
      uid: '9',
      status: 'accepted',
      play_url: 'https://m.test/g.m3u8',
    });
    for (const status of ['waiting', 'rejected', 'cancelled', 'ended']) {
      expect(parseLiveEvent(JSON.stringify({ type: 'link', uid: '9', status, play_url: null }))).toEqual({
        type: 'link',
        uid: '9',
        status,
      });
    }
  });

  it('leaves out anything else', () => {
    for (const content of [
      'not json',
      'null',
      '"chat"',
      '{"type":"chat","text":"no id"}',
      '{"type":"status","status":0}',
      '{"type":"goods","goods":[{"id":"p1"}]}',
      '{"type":"mute"}',
      '{"type":"dance","uid":"1"}',
      '{"type":"link","uid":"9","status":"accepted","play_url":null}',
      '{"type":"link","uid":"9","status":"gone"}',
      '{"type":"link","status":"ended"}',
    ]) {
      expect(parseLiveEvent(content)).toBeUndefined();
    }
  });
});

describe('a room on screen', () => {
  it('shows each line once, oldest first, and keeps the newest', () => {
    const room = new LiveRoom({ detail: detail(), me: '42' });
    room.apply({ type: 'chat', ...line('c', 3) });
    room.said(line('c', 3));
    room.load(detail({ messages: [line('b', 2), line('c', 3)] }));
    expect(room.getSnapshot().messages.map((m) => m.id)).toEqual(['a', 'b', 'c']);
    for (let i = 0; i < CHAT_LINES_KEPT + 5; i++) room.apply({ type: 'chat', ...line(`n${i}`, 10 + i) });
    const kept = room.getSnapshot().messages;
    expect(kept).toHaveLength(CHAT_LINES_KEPT);
    expect(kept.at(-1)?.id).toBe(`n${CHAT_LINES_KEPT + 4}`);
  });

  it('never goes back to an earlier status', () => {
    const room = new LiveRoom({ detail: detail({ status: 0 }), me: '42' });
    room.apply({ type: 'status', status: 2 });
    room.load(detail({ status: 1 }));
    expect(room.getSnapshot().status).toBe(2);
  });

  it('counts viewers by presence once heard', () => {
    const room = new LiveRoom({ detail: detail(), me: '42' });
    expect(room.getSnapshot().viewers).toBe(3);
    room.presence(8);
    room.load(detail({ viewers: 4 }));
    expect(room.getSnapshot().viewers).toBe(8);
  });

  it('mutes, restores and removes the member only by their own id, and tells its listeners', () => {
    const room = new LiveRoom({ detail: detail(), me: '42' });
    const changed = vi.fn();
    room.subscribe(changed);
    const events: LiveEvent[] = [
      { type: 'mute', uid: '9' },
      { type: 'mute', uid: '42' },
    ];
    for (const event of events) room.apply(event);
    expect(room.getSnapshot()).toMatchObject({ muted: true, removed: false });
    room.apply({ type: 'restore', uid: '42' });
    expect(room.getSnapshot().muted).toBe(false);
    room.apply({ type: 'kick', uid: '42' });
    expect(room.getSnapshot()).toMatchObject({ muted: true, removed: true });
    expect(changed).toHaveBeenCalledTimes(3);
  });
});

describe('the stage of a room on screen', () => {
  const guest = (uid: string, username: string, playUrl: string): LiveLink => ({
    uid,
    username,
    img: '',
    status: 'accepted',
    time: 1,
    play_url: playUrl,
  });

  it('names a guest accepted on the channel by their chat, and keeps a guest who left gone from an older page', () => {
    const room = new LiveRoom({ detail: detail({ guests: [guest('8', 'Dan', 'g8')] }), me: '42' });
    room.apply({ type: 'link', uid: '7', status: 'accepted', play_url: 'g7' });
    expect(room.getSnapshot().guests).toEqual([
      { uid: '8', username: 'Dan', play_url: 'g8' },
      { uid: '7', username: 'Bob', play_url: 'g7' },
    ]);
    room.apply({ type: 'link', uid: '8', status: 'ended' });
    // An answer asked for before the end.
    room.load(detail({ guests: [guest('8', 'Dan', 'g8'), guest('7', 'Bob', 'g7')] }));
    expect(room.getSnapshot().guests.map((g) => g.uid)).toEqual(['7']);
    // On stage again: a new stream.
    room.load(detail({ guests: [guest('7', 'Bob', 'g7'), guest('8', 'Dan', 'g8b')] }));
    expect(room.getSnapshot().guests.map((g) => g.play_url)).toEqual(['g7', 'g8b']);
  });

  it('follows the member’s own link, and clears the stage when the live ends', () => {
    const room = new LiveRoom({ detail: detail({ guests: [guest('8', 'Dan', 'g8')] }), me: '42' });
    room.apply({ type: 'link', uid: '42', status: 'waiting' });
    expect(room.getSnapshot().link).toEqual({ status: 'waiting' });
    room.apply({ type: 'link', uid: '42', status: 'accepted', play_url: 'g42' });
    expect(room.getSnapshot().link).toEqual({ status: 'accepted', push_url: null });
    room.load(
      detail({
        guests: [guest('8', 'Dan', 'g8'), guest('42', 'Alice', 'g42')],
        me: { anchor: false, muted: false, link: { ...guest('42', 'Alice', 'g42'), push_url: 'rtmp://m.test/a/g42' } },
      }),
    );
    expect(room.getSnapshot().link).toEqual({ status: 'accepted', push_url: 'rtmp://m.test/a/g42' });
    room.apply({ type: 'status', status: 2 });
    expect(room.getSnapshot()).toMatchObject({ guests: [], link: null });
  });
});

describe('checks before sending', () => {
  it('a room needs a title of 1 to 30 characters and a cover', () => {
    expect(roomProblem({ title: ' ', cover: 'x' })).toBe('live_title_invalid');
    expect(roomProblem({ title: '长'.repeat(31), cover: 'x' })).toBe('live_title_invalid');
    expect(roomProblem({ title: '长'.repeat(30), cover: '' })).toBe('live_cover_invalid');
    expect(roomProblem({ title: 'Tea', cover: 'x' })).toBeUndefined();
  });

  it('a line has 1 to 100 characters and no control characters', () => {
    expect(chatTextValid('  hi  ')).toBe(true);
    expect(chatTextValid('   ')).toBe(false);
    expect(chatTextValid('字'.repeat(100))).toBe(true);
    expect(chatTextValid('字'.repeat(101))).toBe(false);
    expect(chatTextValid('a\u0007b')).toBe(false);
  });
});

describe('joining a room’s channel', () => {
  async function connected() {
    const channels = fakeChannels();
    const client = createClient({
      host: 'chat.test',
      appkey: 'app',
      modules: ['pubsub'],
      transport: channels.server.transport,
    });
    await client.connect({ id: '42' });
    return { channels, client };
  }
  const join = (client: Parameters<typeof joinLiveChannel>[0]['client']) =>
    joinLiveChannel({
      client,
      channel: '$live.r1',
      accessToken: 'read-r1',
      onEvent: () => undefined,
      onViewers: () => undefined,
    });

  it('stays joined when left and joined again at once, as a remount does', async () => {
    const { channels, client } = await connected();
    join(client)();
    const leave = join(client);
    // A join ends with here-now, which the presence watch asks too.
    await vi.waitFor(() => expect(channels.server.requests('PUBSUB_PRESENCE_HERENOW')).toHaveLength(2));
    // Left before it began: the first join asked nothing.
    expect(channels.server.requests('subscribe')).toHaveLength(1);

    leave();
    join(client);
    await vi.waitFor(() => expect(channels.server.requests('PUBSUB_PRESENCE_HERENOW')).toHaveLength(4));
    const order = channels.server.received
      .map((r) => r.event)
      .filter((event) => event === 'subscribe' || event === 'unsubscribe');
    expect(order).toEqual(['subscribe', 'unsubscribe', 'subscribe']);
    expect(channels.subscribed.has('$live.r1')).toBe(true);
  });

  it('joins again after a new connection', async () => {
    const { channels, client } = await connected();
    join(client);
    await vi.waitFor(() => expect(channels.subscribed.has('$live.r1')).toBe(true));
    await client.disconnect();
    channels.subscribed.clear();
    await client.connect({ id: '42' });
    await vi.waitFor(() => expect(channels.server.requests('subscribe')).toHaveLength(2));
    expect(channels.subscribed.get('$live.r1')).toMatchObject({ accessToken: 'read-r1', presence: { enable: true } });
  });
});
