// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanupShell } from '../../app/shell-test-utils';
import { ALICE, BOB, fakeLine, fakeRoom } from '../../features/live/fake-live';
import { fakeLiveApp } from '../../features/live/fake-live-app';
import { step } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';

const app = fakeLiveApp();
const SLOW = { timeout: 5000 };
const { live } = app;
const CAROL = { id: '9', username: 'Carol', img: '' };

beforeAll(() => {
  installAntdRender();
  app.api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  app.reset();
  live.state.members[CAROL.id] = CAROL;
});
afterEach(cleanupShell);
afterAll(() => app.api.close());

/** Alice's own room `r2`, live, where Bob, Alice and Carol wrote. */
async function openMyRoom() {
  live.state.rooms = [fakeRoom('r2', { anchor: ALICE, status: 1, started_at: 1_700_000_100_000 })];
  live.state.lines = [
    fakeLine('l1', 'r2', BOB, 'Hi there', 1_700_000_200_000),
    fakeLine('l2', 'r2', ALICE, 'Welcome', 1_700_000_300_000),
    fakeLine('l3', 'r2', CAROL, 'Spam spam', 1_700_000_400_000),
  ];
  await app.open('/live/view?id=r2');
  await screen.findByText('Hi there', {}, SLOW);
  await waitFor(() => expect(app.channels.subscribed.has('$live.r2')).toBe(true), SLOW);
}

/** Taps the chat line saying `text` and chooses `action` in the sheet. */
async function choose(text: string, action: string) {
  await step(() => fireEvent.click(screen.getByText(text)));
  // A sheet closed before may still be leaving: the newest is the last.
  await step(() => fireEvent.click(screen.getAllByText(action).at(-1) as HTMLElement));
}

/** The Banned sheet's rows as "name kind". */
async function banned(): Promise<string[]> {
  await step(() => fireEvent.click(screen.getByRole('button', { name: 'Banned' })));
  await waitFor(() =>
    expect(
      screen.queryAllByTestId('live-ban').length + screen.queryAllByText('No one is muted or removed').length,
    ).toBeGreaterThan(0),
  );
  return screen.queryAllByTestId('live-ban').map((row) => row.textContent ?? '');
}

describe('live/view: the anchor’s tools', () => {
  it('mutes a viewer from their line, and restores them from Banned', async () => {
    await openMyRoom();
    await choose('Hi there', 'Mute');
    await waitFor(() =>
      expect(live.calls('live/ban')).toEqual([expect.objectContaining({ id: 'r2', uid: '7', kind: 'mute' })]),
    );
    await screen.findByText('Muted', { selector: '.adm-toast-main *' });
    expect(await banned()).toEqual([expect.stringMatching(/Bob.*Muted.*Restore/)]);

    const row = screen.getByTestId('live-ban');
    await step(() => fireEvent.click(within(row).getByRole('button', { name: 'Restore' })));
    await waitFor(() => expect(live.calls('live/restore')).toEqual([expect.objectContaining({ id: 'r2', uid: '7' })]));
    await screen.findByText('No one is muted or removed');
  });

  it('removes a viewer from the room, and Banned says so, newest first', async () => {
    await openMyRoom();
    await choose('Hi there', 'Mute');
    await choose('Spam spam', 'Remove from the room');
    await waitFor(() =>
      expect(live.calls('live/ban').map((call) => [call['uid'], call['kind']])).toEqual([
        ['7', 'mute'],
        ['9', 'kick'],
      ]),
    );
    expect(await banned()).toEqual([expect.stringMatching(/Carol.*Removed/), expect.stringMatching(/Bob.*Muted/)]);
  });

  it('keeps Banned current as the room’s channel reports mutes from elsewhere', async () => {
    await openMyRoom();
    expect(await banned()).toEqual([]);
    // The anchor muted Carol on another device.
    live.state.bans = [{ room: 'r2', uid: '9', kind: 'mute', time: 2 }];
    await step(() => app.channels.publish('$live.r2', { type: 'mute', uid: '9' }));
    await waitFor(() =>
      expect(screen.getAllByTestId('live-ban').map((row) => row.textContent)).toEqual([
        expect.stringMatching(/Carol.*Muted/),
      ]),
    );
  });

  it('offers nothing on the anchor’s own lines, and shows a refusal in the app’s words', async () => {
    await openMyRoom();
    expect(screen.getByText('Welcome').closest('button')).toBeNull();
    live.state.refuse['live/ban'] = { err: 'the user does not exist or is blocked', code: 'user_missing' };
    await choose('Hi there', 'Mute');
    await screen.findByText('The user does not exist or is blocked');
  });

  it('gives a viewer of another’s room no anchor tools', async () => {
    live.state.rooms = [fakeRoom('r1', { status: 1 })];
    live.state.lines = [fakeLine('l1', 'r1', CAROL, 'Hi there')];
    await app.open('/live/view?id=r1');
    await screen.findByText('Hi there', {}, SLOW);
    expect(screen.queryByRole('button', { name: 'Banned' })).toBeNull();
    expect(screen.getByText('Hi there').closest('button')).toBeNull();
  });
});
