// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeXhr, posted } from '../../features/api/fake-xhr';
import { pushFields } from '../../features/live/api';
import { ALICE, fakeLive, fakeRoom } from '../../features/live/fake-live';
import { LIVE_USER } from '../../features/live/fake-live-app';
import { closeLayers } from '../../test-layers';
import { renderApp, shows, step, uploadHandlers, Where } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import MyLivePage from './a1';

const UPLOAD_URL = 'https://files.test/uploads';
const live = fakeLive();
const api = setupServer(...live.handlers, ...uploadHandlers(UPLOAD_URL));
const writeText = vi.fn<(text: string) => Promise<void>>();

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  live.reset();
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(LIVE_USER));
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  FakeXhr.sent = [];
  writeText.mockReset();
  writeText.mockResolvedValue(undefined);
  vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
afterAll(() => api.close());

function openPage() {
  return renderApp(
    <>
      <Routes>
        <Route path="/live/a1" element={<MyLivePage />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
    </>,
    { path: '/live/a1' },
  );
}

const where = () => screen.getByTestId('where').textContent;
const click = (name: string) => step(() => fireEvent.click(screen.getByRole('button', { name })));
const create = () => click('Create the room');

/** Picks a cover and lets its upload finish; resolves with its URL. */
async function uploadCover(): Promise<string> {
  const xhr = posted();
  const png = new File([new Uint8Array([137, 80, 78, 71])], 'cover.png', { type: 'image/png' });
  await step(() => fireEvent.change(screen.getByTestId('live-cover-picker'), { target: { files: [png] } }));
  const request = await xhr;
  const key = request.form()[1]?.[1] ?? '';
  await step(() => request.respond(200, JSON.stringify({ key, url: `${UPLOAD_URL}/${key}` })));
  await waitFor(() => expect(screen.queryByTestId('live-cover-progress')).toBeNull());
  return `${UPLOAD_URL}/${key}`;
}

/** Alice's open room `r5`, not started. */
function myRoom(extra: Parameters<typeof fakeRoom>[1] = {}) {
  live.state.rooms.push(fakeRoom('r5', { anchor: ALICE, title: 'Morning tea', ...extra }));
}

describe('live/a1: the anchor’s page', () => {
  it('says when the server has no live streaming, and still lets a room opened before end', async () => {
    live.state.enabled = false;
    openPage();
    await shows('Live streaming is not set up on this server');
    expect(screen.queryByRole('button', { name: 'Create the room' })).toBeNull();
    cleanup();

    // A room opened before can still be ended.
    myRoom();
    openPage();
    await shows('Live streaming is not set up on this server');
    expect(await screen.findByRole('button', { name: 'End live' })).toBeTruthy();
  });

  it('checks the title and the cover, then creates the room and shows where to stream', async () => {
    openPage();
    await shows('Create a live room');
    await create();
    await shows('Enter the live title: 1 to 30 characters');
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: '   ' } });
    await create();
    expect(screen.getAllByText('Enter the live title: 1 to 30 characters').length).toBeGreaterThan(0);
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: ' Morning tea ' } });
    await create();
    await shows('Please upload the live cover');
    expect(live.calls('live/add')).toEqual([]);

    const cover = await uploadCover();
    await create();
    await shows('Server');
    expect(live.calls('live/add')).toEqual([expect.objectContaining({ title: 'Morning tea', cover })]);
    expect(screen.getByText('Morning tea')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create the room' })).toBeNull();
  });

  it('shows the push URL as OBS asks for it, server and stream key apart, each to copy', async () => {
    myRoom();
    openPage();
    await shows('rtmp://media.test/live');
    expect(screen.getByText('streamr5?key=keyr5')).toBeTruthy();
    expect(screen.getByText(/such as OBS/)).toBeTruthy();
    expect(screen.getByText('Not started')).toBeTruthy();
    await click('Copy Server');
    await click('Copy Stream key');
    expect(writeText.mock.calls).toEqual([['rtmp://media.test/live'], ['streamr5?key=keyr5']]);
    await shows('Copied');

    writeText.mockRejectedValueOnce(new Error('denied'));
    await click('Copy Server');
    await shows('Could not copy: select it and copy it by hand');
  });

  it('splits push URLs of other shapes too', () => {
    expect(pushFields('rtmp://srs.test:1935/app/s1?key=k&vhost=v')).toEqual({
      server: 'rtmp://srs.test:1935/app',
      key: 's1?key=k&vhost=v',
    });
    expect(pushFields('rtmp://srs.test')).toEqual({ server: 'rtmp://srs.test', key: '' });
  });

  it('starts the live, then ends it after asking', async () => {
    myRoom();
    openPage();
    await step(async () => fireEvent.click(await screen.findByRole('button', { name: 'Start live' })));
    await shows('The live has started');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Start live' })).toBeNull());
    expect(screen.getByText('Live')).toBeTruthy();
    expect(live.calls('live/start')).toEqual([expect.objectContaining({ id: 'r5' })]);

    await click('End live');
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('End this live? It cannot be started again.')).toBeTruthy();
    await step(() => fireEvent.click(within(dialog).getByText('Cancel')));
    expect(live.calls('live/end')).toEqual([]);
    await closeLayers();

    await click('End live');
    dialog = screen.getAllByRole('dialog').at(-1) as HTMLElement;
    await step(() => fireEvent.click(within(dialog).getByText('End live')));
    await waitFor(() => expect(live.calls('live/end')).toEqual([expect.objectContaining({ id: 'r5' })]));
    await shows('Create a live room');
    expect(within(screen.getByTestId('live-ended')).getByText('Morning tea')).toBeTruthy();
  });

  it('opens the room and the goods chooser', async () => {
    myRoom({ goods: ['p1'] });
    openPage();
    await step(async () => fireEvent.click(await screen.findByRole('button', { name: 'Choose goods (1)' })));
    expect(where()).toBe('/live/shop-add?id=r5');
    cleanup();
    openPage();
    await step(async () => fireEvent.click(await screen.findByRole('button', { name: 'Open the room' })));
    expect(where()).toBe('/live/view?id=r5');
  });

  it('offers certification to a member who has not passed it', async () => {
    live.state.certified = false;
    openPage();
    await shows('Create a live room');
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Morning tea' } });
    await uploadCover();
    await create();
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Please complete real-name certification before going live')).toBeTruthy();
    await step(() => fireEvent.click(within(dialog).getByText('Get certified')));
    await waitFor(() => expect(where()).toBe('/member/renzheng'));
  });

  it('shows other refusals in the app’s words', async () => {
    myRoom();
    live.state.refuse['live/start'] = { err: 'the live has ended', code: 'live_state' };
    openPage();
    await step(async () => fireEvent.click(await screen.findByRole('button', { name: 'Start live' })));
    await shows('The live has ended');
  });
});
