// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanupShell } from '../../app/shell-test-utils';
import { BOB, fakeLine, fakeRoom } from '../../features/live/fake-live';
import { fakeLink, guestPlayUrl } from '../../features/live/fake-live-links';
import { fakeLiveApp } from '../../features/live/fake-live-app';
import { step } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';

// Where hls.js cannot run, each window gets its stream's URL as it is.
vi.mock('hls.js', () => ({
  default: class {
    static isSupported = () => false;
  },
}));

const app = fakeLiveApp();
const SLOW = { timeout: 5000 };
const { live } = app;
const CAROL = { id: '9', username: 'Carol', img: '' };
const DAVE = { id: '11', username: 'Dave', img: '' };

beforeAll(() => {
  installAntdRender();
  app.api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  app.reset();
  Object.assign(live.state.members, { [CAROL.id]: CAROL, [DAVE.id]: DAVE });
});
afterEach(cleanupShell);
afterAll(() => app.api.close());

/** Opens Bob's room `r1`, live, as Alice, and waits for its channel. */
async function openRoom(extra: Parameters<typeof fakeRoom>[1] = {}) {
  live.state.rooms = [fakeRoom('r1', { status: 1, started_at: 1_700_000_100_000, ...extra })];
  live.state.lines = [fakeLine('l1', 'r1', BOB, 'Welcome!', 1_700_000_200_000)];
  await app.open('/live/view?id=r1');
  await screen.findByText('Welcome!', {}, SLOW);
  if (extra.status === undefined) {
    await waitFor(() => expect(app.channels.subscribed.has('$live.r1')).toBe(true), SLOW);
  }
}

const askButton = () => screen.queryByRole('button', { name: 'Co-broadcast' });
/** Taps the page's `button` and answers its confirmation with `choice`. */
async function confirm(button: string, choice: string) {
  // The page comes before the layers; a dialog closed before may still be leaving, so the newest is the last.
  await step(() => fireEvent.click(screen.getAllByRole('button', { name: button })[0] as HTMLElement));
  const dialog = (await screen.findAllByRole('dialog')).at(-1) as HTMLElement;
  await step(() => fireEvent.click(within(dialog).getByText(choice)));
}
const toasted = (text: string) => screen.findByText(text, { selector: '.adm-toast-main *' }, SLOW);
/** The guests' windows as "name url". */
const windows = () =>
  screen
    .queryAllByTestId('live-guest')
    .map((guest) => `${guest.textContent} ${guest.querySelector('video')?.getAttribute('src')}`);
/** The push fields shown, as "label value". */
const pushValues = () =>
  [...document.querySelectorAll('.live-link-stage .adm-list-item')]
    .filter((item) => item.querySelector('code'))
    .map(
      (item) => `${item.querySelector('.adm-list-item-title')?.textContent} ${item.querySelector('code')?.textContent}`,
    );

describe('live/view: a viewer’s co-broadcast', () => {
  it('asks after a confirmation, waits for the anchor, and cancels', async () => {
    await openRoom();
    await confirm('Co-broadcast', 'Cancel');
    expect(live.calls('live/link_request')).toEqual([]);

    await confirm('Co-broadcast', 'Ask');
    await waitFor(() => expect(live.calls('live/link_request')).toEqual([expect.objectContaining({ id: 'r1' })]));
    await screen.findByText('Waiting for the anchor…');
    expect(askButton()).toBeNull();

    const waiting = screen.getByText('Waiting for the anchor…').closest('section') as HTMLElement;
    await step(() => fireEvent.click(within(waiting).getByRole('button', { name: 'Cancel' })));
    await waitFor(() => expect(live.calls('live/link_cancel')).toEqual([expect.objectContaining({ id: 'r1' })]));
    await waitFor(() => expect(screen.queryByText('Waiting for the anchor…')).toBeNull());
    expect(askButton()).toBeTruthy();
    expect(live.state.links).toEqual([]);
  });

  it('once accepted, says where to stream and shows the member’s window; leaves the stage after a confirmation', async () => {
    await openRoom();
    await confirm('Co-broadcast', 'Ask');
    await screen.findByText('Waiting for the anchor…');
    await step(() => live.anchorDoes('r1', '42', 'accept'));
    await screen.findByText('You are on stage', {}, SLOW);
    await waitFor(() =>
      expect(pushValues()).toEqual(['Server rtmp://media.test/live', 'Stream key streamr1g42?key=gkey42']),
    );
    expect(screen.getByText(/Stream from the app, or paste the server and the stream key/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy Stream key' })).toBeTruthy();
    await waitFor(() => expect(windows()).toEqual([`Alice ${guestPlayUrl('streamr1g42')}`]));

    await confirm('Leave the stage', 'Cancel');
    expect(live.calls('live/link_cancel')).toEqual([]);
    await confirm('Leave the stage', 'Leave the stage');
    await waitFor(() => expect(live.calls('live/link_cancel')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText('You are on stage')).toBeNull());
    expect(windows()).toEqual([]);
    expect(askButton()).toBeTruthy();
  });

  it('opens on stage, with the push fields, when live/view says so', async () => {
    live.state.links = [fakeLink('r1', '42', { status: 'accepted', stream: 'g42', key: 'k42' })];
    await openRoom();
    expect(pushValues()).toEqual(['Server rtmp://media.test/live', 'Stream key g42?key=k42']);
    await waitFor(() => expect(windows()).toEqual([`Alice ${guestPlayUrl('g42')}`]));
    expect(askButton()).toBeNull();
  });

  it('opens waiting when live/view says so', async () => {
    live.state.links = [fakeLink('r1', '42')];
    await openRoom();
    expect(screen.getByText('Waiting for the anchor…')).toBeTruthy();
    expect(askButton()).toBeNull();
  });

  it('tells the member the anchor declined, and that the anchor ended their co-broadcast', async () => {
    await openRoom();
    await confirm('Co-broadcast', 'Ask');
    await screen.findByText('Waiting for the anchor…');
    await step(() => live.anchorDoes('r1', '42', 'reject'));
    await toasted('The anchor declined');
    expect(screen.queryByText('Waiting for the anchor…')).toBeNull();
    expect(askButton()).toBeTruthy();

    await confirm('Co-broadcast', 'Ask');
    await screen.findByText('Waiting for the anchor…');
    await step(() => live.anchorDoes('r1', '42', 'accept'));
    await screen.findByText('You are on stage', {}, SLOW);
    await step(() => live.anchorDoes('r1', '42', 'end'));
    await toasted('Your co-broadcast ended');
    expect(screen.queryByText('You are on stage')).toBeNull();
    expect(windows()).toEqual([]);
  });

  it('offers no co-broadcast before the live starts', async () => {
    await openRoom({ status: 0, started_at: null });
    expect(screen.getByText('The live has not started', { selector: '.live-overlay' })).toBeTruthy();
    expect(askButton()).toBeNull();
  });

  it('offers no co-broadcast to a muted member', async () => {
    live.state.bans = [{ room: 'r1', uid: '42', kind: 'mute', time: 1 }];
    await openRoom();
    expect(askButton()).toBeNull();
  });

  it('shows refusals in the app’s words, and takes in a request made elsewhere', async () => {
    await openRoom();
    live.state.refuse['live/link_request'] = { err: 'too many are waiting', code: 'live_link_full' };
    await confirm('Co-broadcast', 'Ask');
    await toasted('The stage is full: at most 3 guests');
    expect(askButton()).toBeTruthy();

    // The member asked on another device meanwhile.
    delete live.state.refuse['live/link_request'];
    live.state.links = [fakeLink('r1', '42')];
    await confirm('Co-broadcast', 'Ask');
    await toasted('You have already asked to join');
    await screen.findByText('Waiting for the anchor…', {}, SLOW);
  });
});

describe('live/view: the guests on stage', () => {
  it('shows each guest’s window over the stream as they come and go, and none once the live ends', async () => {
    live.state.links = [fakeLink('r1', CAROL.id, { status: 'accepted', stream: 'gc', key: 'kc' })];
    await openRoom();
    await waitFor(() => expect(windows()).toEqual([`Carol ${guestPlayUrl('gc')}`]));
    expect(screen.getByLabelText('Carol').tagName).toBe('VIDEO');

    live.state.links.push(fakeLink('r1', DAVE.id));
    await step(() => live.anchorDoes('r1', DAVE.id, 'accept'));
    await waitFor(() =>
      expect(windows()).toEqual([`Carol ${guestPlayUrl('gc')}`, `Dave ${guestPlayUrl('streamr1g11')}`]),
    );

    await step(() => live.anchorDoes('r1', CAROL.id, 'end'));
    expect(windows()).toEqual([`Dave ${guestPlayUrl('streamr1g11')}`]);

    await step(() => app.channels.publish('$live.r1', { type: 'status', status: 2 }));
    expect(windows()).toEqual([]);
  });

  it('takes a guest’s window away when they leave the stage themselves', async () => {
    live.state.links = [fakeLink('r1', CAROL.id, { status: 'accepted', stream: 'gc', key: 'kc' })];
    await openRoom();
    expect(windows()).toHaveLength(1);
    await step(() => app.channels.publish('$live.r1', { type: 'link', uid: CAROL.id, status: 'cancelled' }));
    expect(windows()).toEqual([]);
  });
});
