// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanupShell } from '../../app/shell-test-utils';
import { ALICE, BOB, fakeLine, fakeRoom } from '../../features/live/fake-live';
import { fakeLink } from '../../features/live/fake-live-links';
import { fakeLiveApp } from '../../features/live/fake-live-app';
import { step } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';

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
const ERIN = { id: '12', username: 'Erin', img: '' };

beforeAll(() => {
  installAntdRender();
  app.api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  app.reset();
  Object.assign(live.state.members, { [CAROL.id]: CAROL, [DAVE.id]: DAVE, [ERIN.id]: ERIN });
});
afterEach(cleanupShell);
afterAll(() => app.api.close());

/** Alice's own room `r2`, live, with the links given. */
async function openMyRoom(links: ReturnType<typeof fakeLink>[] = []) {
  live.state.rooms = [fakeRoom('r2', { anchor: ALICE, status: 1, started_at: 1_700_000_100_000 })];
  live.state.lines = [fakeLine('l1', 'r2', BOB, 'Hi there', 1_700_000_200_000)];
  live.state.links = links;
  await app.open('/live/view?id=r2');
  await screen.findByText('Hi there', {}, SLOW);
  await waitFor(() => expect(app.channels.subscribed.has('$live.r2')).toBe(true), SLOW);
}

const requestsButton = () => screen.getByRole('button', { name: /^Requests \d+$/ });
/** Opens the Requests sheet and gives its rows as "name buttons", under their headings. */
async function openRequests(): Promise<void> {
  await step(() => fireEvent.click(requestsButton()));
  await screen.findByText('Co-broadcast', { selector: 'h2' });
}
/** A request's or guest's name. */
const nameOf = (item: Element) => item.querySelector('.adm-list-item-content-main')?.textContent;
/** The sheet's headings and rows, each row as "name: its buttons". */
const rows = () =>
  [...document.querySelectorAll('.live-sheet .adm-list-header, .live-sheet [data-testid="live-link"]')].map((item) =>
    item.classList.contains('adm-list-header')
      ? item.textContent
      : `${nameOf(item)}: ${[...item.querySelectorAll('button')].map((b) => b.textContent).join(' ')}`,
  );
const row = (name: string) => screen.queryAllByTestId('live-link').find((item) => nameOf(item) === name);
const tap = (name: string, button: string) =>
  step(() => fireEvent.click(within(row(name) as HTMLElement).getByRole('button', { name: button })));
const toasted = (text: string) => screen.findByText(text, { selector: '.adm-toast-main *' }, SLOW);
const windows = () => screen.queryAllByTestId('live-guest').map((guest) => guest.textContent);

describe('live/view: the anchor’s co-broadcast requests', () => {
  it('counts the waiting requests in the bar, and accepts one onto the stage', async () => {
    await openMyRoom([fakeLink('r2', BOB.id, { time: 1 }), fakeLink('r2', CAROL.id, { time: 2 })]);
    await waitFor(() => expect(requestsButton().textContent).toBe('Requests 2'));
    expect(screen.queryByRole('button', { name: 'Co-broadcast' })).toBeNull();
    await openRequests();
    await waitFor(() => expect(rows()).toEqual(['Waiting', 'Bob: Accept Reject', 'Carol: Accept Reject']));

    await tap('Bob', 'Accept');
    await waitFor(() =>
      expect(live.calls('live/link_accept')).toEqual([expect.objectContaining({ id: 'r2', uid: BOB.id })]),
    );
    await toasted('On stage now');
    await waitFor(() => expect(rows()).toEqual(['Waiting', 'Carol: Accept Reject', 'On stage', 'Bob: End']));
    expect(requestsButton().textContent).toBe('Requests 1');
    await waitFor(() => expect(windows()).toEqual(['Bob']));
  });

  it('rejects a request and ends a guest’s co-broadcast', async () => {
    await openMyRoom([
      fakeLink('r2', CAROL.id),
      fakeLink('r2', BOB.id, { status: 'accepted', stream: 'gb', key: 'kb' }),
    ]);
    await waitFor(() => expect(windows()).toEqual(['Bob']));
    await openRequests();
    await waitFor(() => expect(rows()).toEqual(['Waiting', 'Carol: Accept Reject', 'On stage', 'Bob: End']));

    await tap('Carol', 'Reject');
    await waitFor(() =>
      expect(live.calls('live/link_reject')).toEqual([expect.objectContaining({ id: 'r2', uid: CAROL.id })]),
    );
    await toasted('Declined');
    await waitFor(() => expect(rows()).toEqual(['On stage', 'Bob: End']));

    await tap('Bob', 'End');
    await waitFor(() =>
      expect(live.calls('live/link_end')).toEqual([expect.objectContaining({ id: 'r2', uid: BOB.id })]),
    );
    await screen.findByText('No one has asked to co-broadcast');
    expect(windows()).toEqual([]);
    expect(requestsButton().textContent).toBe('Requests 0');
  });

  it('keeps the count and the sheet current as the channel tells of requests', async () => {
    await openMyRoom();
    await openRequests();
    await screen.findByText('No one has asked to co-broadcast');
    // Carol asks now.
    live.state.links = [fakeLink('r2', CAROL.id)];
    await step(() => app.channels.publish('$live.r2', { type: 'link', uid: CAROL.id, status: 'waiting' }));
    await waitFor(() => expect(rows()).toEqual(['Waiting', 'Carol: Accept Reject']));
    expect(requestsButton().textContent).toBe('Requests 1');
    // And withdraws.
    live.state.links = [];
    await step(() => app.channels.publish('$live.r2', { type: 'link', uid: CAROL.id, status: 'cancelled' }));
    await screen.findByText('No one has asked to co-broadcast');
    expect(requestsButton().textContent).toBe('Requests 0');
  });

  it('shows a refusal in the app’s words: a full stage, a request gone', async () => {
    const onStage = [BOB, CAROL, DAVE].map((member) =>
      fakeLink('r2', member.id, { status: 'accepted', stream: `g${member.id}`, key: 'k' }),
    );
    await openMyRoom([fakeLink('r2', ERIN.id), ...onStage]);
    await openRequests();
    await waitFor(() => expect(row('Erin')).toBeTruthy());
    await tap('Erin', 'Accept');
    await toasted('The stage is full: at most 3 guests');
    expect(windows()).toEqual(['Bob', 'Carol', 'Dave']);

    live.state.links = onStage;
    await tap('Erin', 'Reject');
    await toasted('The co-broadcast request has ended');
    await waitFor(() => expect(row('Erin')).toBeUndefined());
  });

  it('gives a viewer of another’s room no Requests', async () => {
    live.state.rooms = [fakeRoom('r1', { status: 1 })];
    live.state.lines = [fakeLine('l1', 'r1', CAROL, 'Hi there')];
    await app.open('/live/view?id=r1');
    await screen.findByText('Hi there', {}, SLOW);
    expect(screen.queryByRole('button', { name: /^Requests/ })).toBeNull();
    expect(live.calls('live/links')).toEqual([]);
  });
});
