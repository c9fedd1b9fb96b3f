// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { requiresLogin, resolveTarget } from '../../app/navigation';
import { ROUTES } from '../../app/routes';
import { BOB, fakeLive, fakeRoom } from '../../features/live/fake-live';
import { LIVE_USER } from '../../features/live/fake-live-app';
import { NO_ADS, renderApp, step, Where } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import UserIndex from '../user/index';
import VideoTab from '../video/index';
import LiveRooms from './index';

const live = fakeLive();
const api = setupServer(
  NO_ADS,
  ...live.handlers,
  http.post('*/index.php/api/video/lists', () => HttpResponse.json({ ret: [] })),
);

/**
 * What antd-mobile's lists read of a layout, which jsdom does not make: the infinite scroll loads more only for an
 * element with an offset parent; the pull to refresh measures its sizes with elements of class `adm-px-tester` (here
 * they measure what their `--size` says), and climbs from the finger to the window to see that nothing above is
 * scrolled, stopping at `instanceof Window`, which the test environment's window (the global object) is not.
 */
const offsetParent = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetParent');
beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
  Object.defineProperty(HTMLElement.prototype, 'offsetParent', {
    configurable: true,
    get(this: HTMLElement) {
      return this.parentElement;
    },
  });
  HTMLElement.prototype.getBoundingClientRect = function (this: HTMLElement) {
    // Elements' own measure, which this one on HTMLElement stands in front of.
    if (!this.classList.contains('adm-px-tester')) return Element.prototype.getBoundingClientRect.call(this);
    const size = Number(this.style.getPropertyValue('--size'));
    return { x: 0, y: 0, top: 0, left: 0, right: 0, bottom: size, width: 0, height: size, toJSON: () => ({}) };
  };
  Object.defineProperty(Window, Symbol.hasInstance, {
    configurable: true,
    value: (value: unknown) => value === window,
  });
});
beforeEach(() => {
  live.reset();
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(LIVE_USER));
});
afterEach(() => cleanup());
afterAll(() => {
  api.close();
  if (offsetParent) Object.defineProperty(HTMLElement.prototype, 'offsetParent', offsetParent);
  delete (HTMLElement.prototype as Partial<HTMLElement>).getBoundingClientRect;
  delete (Window as unknown as Record<symbol, unknown>)[Symbol.hasInstance];
});

function openList() {
  return renderApp(
    <>
      <Routes>
        <Route path="/live/index" element={<LiveRooms />} />
        <Route path="/pages/user/index" element={<UserIndex />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
    </>,
    { path: '/live/index' },
  );
}

const where = () => screen.getByTestId('where').textContent;
const cards = () => screen.queryAllByTestId('live-room');
const pages = () => live.calls('live/list').map((body) => body['page']);

/** Pulls the list down by `distance` px with one finger and lets go. */
async function pull(target: Element, distance: number) {
  const touch = (type: string, y: number) => {
    const point = { identifier: 1, target, clientX: 10, clientY: y, pageX: 10, pageY: y, screenX: 10, screenY: y };
    const event = new TouchEvent(type, { bubbles: true, cancelable: true });
    const list = type === 'touchend' ? [] : [point];
    Object.defineProperties(event, {
      touches: { value: list },
      targetTouches: { value: list },
      changedTouches: { value: [point] },
    });
    return step(() => target.dispatchEvent(event));
  };
  await touch('touchstart', 100);
  for (let y = 120; y <= 100 + distance; y += 20) await touch('touchmove', y);
  await touch('touchend', 100 + distance);
}

describe('live/index: the live rooms', () => {
  it('are routes of the app that need a signed-in member', () => {
    for (const path of ['live/index', 'live/view', 'live/a1', 'live/a2', 'live/shop-add']) {
      expect(ROUTES.find((route) => route.path === path)?.page).toBeDefined();
      expect(requiresLogin(path)).toBe(true);
    }
    expect(resolveTarget('live/view?id=r1', false)).toEqual({
      kind: 'login',
      path: `/user/login?redirect=${encodeURIComponent('/live/view?id=r1')}`,
    });
  });

  it('shows each room’s cover, title, anchor, Live or Not started, and viewers; a tap opens it', async () => {
    live.state.rooms = [
      fakeRoom('r1', { title: 'Tea tasting', status: 1, started_at: 1_700_000_500_000 }),
      fakeRoom('r2', { title: 'Pottery', anchor: { id: '9', username: 'Carol', img: '' } }),
    ];
    live.state.viewers = { r1: 12 };
    openList();
    await waitFor(() => expect(cards()).toHaveLength(2));
    const [first, second] = cards() as [HTMLElement, HTMLElement];
    expect(within(first).getByText('Tea tasting')).toBeTruthy();
    expect(within(first).getByText(BOB.username)).toBeTruthy();
    expect(within(first).getByText('Live')).toBeTruthy();
    expect(within(first).getByText('12 watching')).toBeTruthy();
    expect(first.querySelector('img')?.getAttribute('src')).toBe('https://files.test/r1.png');
    expect(within(second).getByText('Not started')).toBeTruthy();
    expect(within(second).getByText('Carol')).toBeTruthy();
    expect(within(second).getByText('0 watching')).toBeTruthy();
    await step(() => fireEvent.click(first));
    expect(where()).toBe('/live/view?id=r1');
  });

  it('loads the next page of twenty as the member scrolls, and no further after a short one', async () => {
    live.state.rooms = Array.from({ length: 25 }, (_, i) =>
      fakeRoom(`r${i + 1}`, { created_at: 1_700_000_000_000 - i }),
    );
    openList();
    await waitFor(() => expect(cards()).toHaveLength(25));
    expect(pages()).toEqual([1, 2]);
    expect(
      cards()
        .map((card) => card.textContent)
        .at(-1),
    ).toContain('Room r25');
    expect(live.calls('live/list')[0]).toMatchObject({ token: LIVE_USER.token, page: 1 });
  });

  it('says when no one is live, and refreshes when pulled down', async () => {
    const view = openList();
    await screen.findByText('No one is live right now');
    live.state.rooms = [fakeRoom('r1', { title: 'Just started', status: 1 })];
    await pull(view.container.querySelector('.adm-pull-to-refresh') as Element, 300);
    await screen.findByText('Just started');
    expect(pages()).toEqual([1, 1]);
  });

  it('shows a failure with Retry', async () => {
    live.state.refuse['live/list'] = { err: 'no network', code: 'network_down' };
    openList();
    const retry = await screen.findByRole('button', { name: 'Retry' });
    delete live.state.refuse['live/list'];
    live.state.rooms = [fakeRoom('r1')];
    await step(() => fireEvent.click(retry));
    await waitFor(() => expect(cards()).toHaveLength(1));
  });

  it('opens the anchor’s page from Go live', async () => {
    openList();
    await screen.findByText('No one is live right now');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Go live' })));
    expect(where()).toBe('/live/a1');
  });
});

describe('the way to live rooms', () => {
  it('is in the video tab’s bar', async () => {
    renderApp(
      <>
        <VideoTab />
        <Where />
      </>,
      { path: '/pages/video/index' },
    );
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Live' })));
    expect(where()).toBe('/live/index');
  });

  it('is on the user tab', async () => {
    renderApp(
      <>
        <UserIndex />
        <Where />
      </>,
      { path: '/pages/user/index' },
    );
    await step(() => fireEvent.click(screen.getByText('Live')));
    expect(where()).toBe('/live/index');
  });
});
