// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanupShell, currentRoute } from '../../app/shell-test-utils';
import { BOB, fakeLine, fakeRoom, playUrl } from '../../features/live/fake-live';
import { fakeLiveApp } from '../../features/live/fake-live-app';
import { LIVE_RETRY_MS } from '../../features/live/LivePlayer';
import { fakeProduct } from '../../features/shop/fake-shop';
import { step } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';

/** hls.js as the player meets it: whether it can run here, and what each instance was told. */
type HlsRecord = { source?: string; media?: unknown; destroyed: boolean; fail?: (fatal: boolean) => void };
const hls = vi.hoisted(() => ({
  supported: true,
  made: [] as HlsRecord[],
}));
vi.mock('hls.js', () => ({
  default: class {
    static isSupported = () => hls.supported;
    static Events = { ERROR: 'hlsError' };
    record: HlsRecord = { destroyed: false };
    constructor() {
      hls.made.push(this.record);
    }
    on(event: string, handler: (event: string, data: { fatal: boolean }) => void) {
      if (event === 'hlsError') this.record.fail = (fatal) => handler(event, { fatal });
    }
    loadSource(url: string) {
      this.record.source = url;
    }
    attachMedia(media: unknown) {
      this.record.media = media;
    }
    destroy() {
      this.record.destroyed = true;
    }
  },
}));

const app = fakeLiveApp();
const SLOW = { timeout: 5000 };
const { live } = app;

beforeAll(() => {
  installAntdRender();
  app.api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  app.reset();
  hls.supported = true;
  hls.made.length = 0;
});
afterEach(cleanupShell);
afterAll(() => app.api.close());

/** The chat's lines as "name: text". */
const lines = () =>
  screen
    .queryAllByTestId('live-line')
    .map(
      (line) =>
        `${line.querySelector('.live-chat-name')?.textContent}: ${line.querySelector('.live-chat-text')?.textContent}`,
    );
const box = () => screen.getByRole<HTMLInputElement>('textbox', { name: 'Say something…' });
const subscribed = (channel: string) => waitFor(() => expect(app.channels.subscribed.has(channel)).toBe(true), SLOW);

/** Bob's room `r1`, live, with two lines of chat. */
function liveRoom(extra: Parameters<typeof fakeRoom>[1] = {}) {
  live.state.rooms = [fakeRoom('r1', { status: 1, started_at: 1_700_000_100_000, ...extra })];
  live.state.lines = [
    fakeLine('l1', 'r1', BOB, 'Welcome!', 1_700_000_200_000),
    fakeLine('l2', 'r1', { id: '9', username: 'Carol', img: '' }, 'Hello', 1_700_000_300_000),
  ];
}

describe('live/view: watching a room', () => {
  it('plays an HLS stream through hls.js where the browser cannot, and tears it down on leaving', async () => {
    liveRoom();
    live.state.viewers['r1'] = 3;
    await app.open('/live/view?id=r1');
    await screen.findByText('Room r1', {}, SLOW);
    expect(screen.getByText('Bob', { selector: '.live-info-who strong' })).toBeTruthy();
    const video = screen.getByTestId<HTMLVideoElement>('live-video');
    await waitFor(() => expect(hls.made).toHaveLength(1));
    expect(hls.made[0]?.source).toBe(playUrl(live.state.rooms[0]!));
    expect(hls.made[0]?.media === video).toBe(true);
    expect(hls.made[0]?.destroyed).toBe(false);
    expect(video.getAttribute('src')).toBeNull();

    await step(() => fireEvent.click(screen.getByText('Back')));
    await waitFor(() => expect(currentRoute()).toBe('/pages/article/index'));
    // The front page's chunk loads before the room goes.
    await waitFor(() => expect(hls.made.every((made) => made.destroyed)).toBe(true), SLOW);
  });

  it('gives the video the URL as it is where hls.js cannot run either', async () => {
    hls.supported = false;
    liveRoom();
    await app.open('/live/view?id=r1');
    const video = await screen.findByTestId<HTMLVideoElement>('live-video', {}, SLOW);
    await waitFor(() => expect(video.getAttribute('src')).toBe(playUrl(live.state.rooms[0]!)));
    expect(hls.made).toHaveLength(0);
  });

  it('tries a failed stream again after a pause: a fatal hls.js error makes a new player, others do not', async () => {
    liveRoom();
    await app.open('/live/view?id=r1');
    await screen.findByText('Room r1', {}, SLOW);
    await waitFor(() => expect(hls.made.at(-1)?.destroyed).toBe(false), SLOW);
    const made = hls.made.length;
    const current = hls.made.at(-1)!;
    await step(() => current.fail?.(false));
    await step(() => current.fail?.(true));
    // A second failure while waiting asks for no second try.
    await step(() => current.fail?.(true));
    expect(hls.made).toHaveLength(made);
    await waitFor(() => expect(hls.made).toHaveLength(made + 1), { timeout: LIVE_RETRY_MS + 2000 });
    expect(current.destroyed).toBe(true);
    expect(hls.made.at(-1)).toMatchObject({ source: playUrl(live.state.rooms[0]!), destroyed: false });
    expect(hls.made.at(-1)?.media === screen.getByTestId('live-video')).toBe(true);
  }, 10_000);

  it('tries a stream the browser plays itself again after it failed', async () => {
    hls.supported = false;
    liveRoom();
    await app.open('/live/view?id=r1');
    const first = await screen.findByTestId<HTMLVideoElement>('live-video', {}, SLOW);
    await waitFor(() => expect(first.getAttribute('src')).toBe(playUrl(live.state.rooms[0]!)));
    await step(() => fireEvent.error(first));
    // A new video element, given the URL again.
    await waitFor(() => expect(screen.getByTestId('live-video')).not.toBe(first), { timeout: LIVE_RETRY_MS + 2000 });
    expect(screen.getByTestId('live-video').getAttribute('src')).toBe(playUrl(live.state.rooms[0]!));
  }, 10_000);

  it('counts viewers by the channel’s presence, falling back to the room’s count', async () => {
    liveRoom();
    live.state.viewers['r1'] = 3;
    const release = app.holdOtp();
    await app.open('/live/view?id=r1');
    await screen.findByText('3 watching', {}, SLOW);
    app.channels.amounts['$live.r1'] = 5;
    release();
    await screen.findByText('5 watching', {}, SLOW);
    await step(() => app.channels.presence('$live.r1', 'join', '11', 6));
    expect(screen.getByTestId('live-viewers').textContent).toBe('6 watching');
    await step(() => app.channels.presence('$live.r1', 'leave', '11', 4));
    expect(screen.getByTestId('live-viewers').textContent).toBe('4 watching');
  });

  it('says the live has not started, plays once it starts, and says when it has ended', async () => {
    liveRoom({ status: 0, started_at: null });
    await app.open('/live/view?id=r1');
    await screen.findByText('The live has not started', { selector: '.live-overlay' }, SLOW);
    expect(screen.queryByTestId('live-video')).toBeNull();
    expect(box().disabled).toBe(true);
    expect(box().placeholder).toBe('The live has not started');
    await subscribed('$live.r1');

    const room = live.state.rooms[0]!;
    Object.assign(room, { status: 1, started_at: Date.now() });
    await step(() => app.channels.publish('$live.r1', { type: 'status', status: 1 }));
    await waitFor(() => expect(hls.made[0]?.source).toBe(playUrl(room)));
    expect(screen.queryByText('The live has not started')).toBeNull();
    expect(box().disabled).toBe(false);

    await step(() => app.channels.publish('$live.r1', { type: 'status', status: 2 }));
    expect(screen.getByText('The live has ended', { selector: '.live-overlay' })).toBeTruthy();
    expect(screen.queryByTestId('live-video')).toBeNull();
    expect(hls.made[0]?.destroyed).toBe(true);
    expect(box().placeholder).toBe('The live has ended');
  });

  it('shows the newest chat, then each line of the channel once, newest at the bottom', async () => {
    liveRoom();
    await app.open('/live/view?id=r1');
    await screen.findByText('Welcome!', {}, SLOW);
    expect(lines()).toEqual(['Bob: Welcome!', 'Carol: Hello']);
    await subscribed('$live.r1');
    const line = fakeLine('l3', 'r1', BOB, 'Starting soon', 1_700_000_400_000);
    const { room: _room, ...chat } = line;
    await step(() => app.channels.publish('$live.r1', { type: 'chat', ...chat }));
    await step(() => app.channels.publish('$live.r1', { type: 'chat', ...chat }));
    await step(() => app.channels.publish('$live.r1', { type: 'chat', ...fakeLine('l2', 'r1', BOB, 'Hello', 0) }));
    expect(lines()).toEqual(['Bob: Welcome!', 'Carol: Hello', 'Bob: Starting soon']);
    // Not a chat line, or not the app's: left out.
    await step(() => app.channels.publish('$live.r1', { type: 'chat', text: 'no id' }));
    expect(lines()).toHaveLength(3);
  });

  it('follows new lines while at the bottom, and stays where the member scrolled up to', async () => {
    liveRoom();
    await app.open('/live/view?id=r1');
    const log = await screen.findByRole('log', {}, SLOW);
    Object.defineProperty(log, 'scrollHeight', { configurable: true, value: 1000 });
    Object.defineProperty(log, 'clientHeight', { configurable: true, value: 200 });
    await subscribed('$live.r1');
    const say = (id: string, text: string) => {
      const { room: _room, ...chat } = fakeLine(id, 'r1', BOB, text, Date.now());
      return step(() => app.channels.publish('$live.r1', { type: 'chat', ...chat }));
    };
    await say('n1', 'one');
    expect(log.scrollTop).toBe(1000);

    log.scrollTop = 300;
    fireEvent.scroll(log);
    await say('n2', 'two');
    expect(log.scrollTop).toBe(300);

    log.scrollTop = 790;
    fireEvent.scroll(log);
    await say('n3', 'three');
    expect(log.scrollTop).toBe(1000);
  });

  it('sends a line with live/say and shows it once, though the channel brings it too', async () => {
    liveRoom();
    await app.open('/live/view?id=r1');
    await screen.findByText('Welcome!', {}, SLOW);
    await subscribed('$live.r1');
    fireEvent.change(box(), { target: { value: '  Nice stream  ' } });
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    await waitFor(() => expect(lines()).toEqual(['Bob: Welcome!', 'Carol: Hello', 'Alice: Nice stream']));
    expect(live.calls('live/say')).toEqual([expect.objectContaining({ id: 'r1', text: 'Nice stream' })]);
    expect(box().value).toBe('');
  });

  it('checks a line before sending, and shows a refusal in the app’s words, keeping the text', async () => {
    liveRoom();
    await app.open('/live/view?id=r1');
    await screen.findByText('Welcome!', {}, SLOW);
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    await screen.findByText('Say something of 1 to 100 characters');
    expect(live.calls('live/say')).toEqual([]);

    live.state.refuse['live/say'] = { err: 'do not operate too frequently', code: 'too_frequent' };
    fireEvent.change(box(), { target: { value: 'again' } });
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    await screen.findByText('Do not operate too frequently');
    expect(box().value).toBe('again');
    expect(box().disabled).toBe(false);
  });

  it('keeps the box closed for a member muted before they came', async () => {
    liveRoom();
    live.state.bans = [{ room: 'r1', uid: '42', kind: 'mute', time: 1 }];
    await app.open('/live/view?id=r1');
    await screen.findByText('Welcome!', {}, SLOW);
    expect(box().disabled).toBe(true);
    expect(box().placeholder).toBe('You were removed from or muted in the live room');
  });

  it('takes the refusal live_removed to mean the member may no longer write', async () => {
    liveRoom();
    await app.open('/live/view?id=r1');
    await screen.findByText('Welcome!', {}, SLOW);
    live.state.bans = [{ room: 'r1', uid: '42', kind: 'mute', time: 1 }];
    fireEvent.change(box(), { target: { value: 'hi' } });
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    await waitFor(() =>
      expect(
        screen
          .getAllByText('You were removed from or muted in the live room')
          .some((element) => element.closest('.adm-toast-main')),
      ).toBe(true),
    );
    expect(box().disabled).toBe(true);
  });

  it('closes the box when the anchor mutes the member, opens it on restore, and ignores others’ mutes', async () => {
    liveRoom();
    await app.open('/live/view?id=r1');
    await screen.findByText('Welcome!', {}, SLOW);
    await subscribed('$live.r1');
    await step(() => app.channels.publish('$live.r1', { type: 'mute', uid: '9' }));
    expect(box().disabled).toBe(false);
    await step(() => app.channels.publish('$live.r1', { type: 'mute', uid: '42' }));
    expect(box().disabled).toBe(true);
    expect(box().placeholder).toBe('You were removed from or muted in the live room');
    await step(() => app.channels.publish('$live.r1', { type: 'restore', uid: '42' }));
    expect(box().disabled).toBe(false);
  });

  it('tells a member the anchor removed, and leaves the room', async () => {
    liveRoom();
    await app.open('/live/view?id=r1');
    await screen.findByText('Welcome!', {}, SLOW);
    await subscribed('$live.r1');
    await step(() => app.channels.publish('$live.r1', { type: 'kick', uid: '42' }));
    const alert = await screen.findByRole('dialog');
    expect(within(alert).getByText('You were removed from or muted in the live room')).toBeTruthy();
    await step(() => fireEvent.click(within(alert).getByText('OK')));
    await waitFor(() => expect(currentRoute()).toBe('/pages/article/index'));
    await waitFor(() => expect(app.channels.subscribed.has('$live.r1')).toBe(false));
  });

  it('refuses a removed member the room', async () => {
    liveRoom();
    live.state.bans = [{ room: 'r1', uid: '42', kind: 'kick', time: 1 }];
    await app.open('/live/view?id=r1');
    await screen.findByText('You were removed from or muted in the live room', {}, SLOW);
    expect(screen.queryByRole('log')).toBeNull();
  });

  it('works from live/view without messaging, and shows the channel’s chat once connected', async () => {
    liveRoom();
    const release = app.holdOtp();
    await app.open('/live/view?id=r1');
    await screen.findByText('Welcome!', {}, SLOW);
    fireEvent.change(box(), { target: { value: 'Anyone here?' } });
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    await waitFor(() => expect(lines()).toContain('Alice: Anyone here?'));
    expect(app.channels.server.requests('subscribe')).toEqual([]);

    release();
    await subscribed('$live.r1');
    expect(app.channels.subscribed.get('$live.r1')).toMatchObject({
      presence: { enable: true },
      accessToken: 'read-r1',
    });
    const { room: _room, ...chat } = fakeLine('l9', 'r1', BOB, 'Yes!', Date.now());
    await step(() => app.channels.publish('$live.r1', { type: 'chat', ...chat }));
    expect(lines().at(-1)).toBe('Bob: Yes!');
  });

  it('lists the goods, follows the anchor’s changes, and opens a product', async () => {
    liveRoom({ goods: ['p1', 'p2'] });
    live.state.products = [
      fakeProduct('p1', { title: 'Green tea', price: 12.5 }),
      fakeProduct('p2', { title: 'Tea cup', price: 30 }),
    ];
    await app.open('/live/view?id=r1');
    await step(async () => fireEvent.click(await screen.findByRole('button', { name: 'Goods 2' }, SLOW)));
    const goods = await screen.findAllByTestId('live-goods');
    expect(goods.map((item) => item.textContent)).toEqual(['Green tea¥12.50', 'Tea cup¥30.00']);
    await subscribed('$live.r1');
    await step(() =>
      app.channels.publish('$live.r1', { type: 'goods', goods: [{ id: 'p2', title: 'Tea cup', price: 30, img: '' }] }),
    );
    expect(screen.getAllByTestId('live-goods')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Goods 1' })).toBeTruthy();
    await step(() => fireEvent.click(screen.getByText('Tea cup')));
    await waitFor(() => expect(currentRoute()).toBe('/shop/view?id=p2'));
  });

  it('unsubscribes the channel and its presence on leaving', async () => {
    liveRoom();
    await app.open('/live/view?id=r1');
    await subscribed('$live.r1');
    await waitFor(() => expect(app.channels.server.requests('PUBSUB_PRESENCE_SUBSCRIBE')).toHaveLength(1));
    await step(() => fireEvent.click(screen.getByText('Back')));
    await waitFor(() => expect(app.channels.subscribed.has('$live.r1')).toBe(false));
    await waitFor(() =>
      expect(app.channels.server.requests('PUBSUB_PRESENCE_UNSUBSCRIBE').map((r) => r.params)).toEqual([
        { channel: '$live.r1' },
      ]),
    );
  });
});

describe('live/a2: the anchor’s console', () => {
  it('is the room, whose page has the anchor’s tools', async () => {
    liveRoom();
    await app.open('/live/a2?id=r1');
    await screen.findByText('Welcome!', {}, SLOW);
    expect(currentRoute()).toBe('/live/view?id=r1');
  });
});
