// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeServer } from '../../../test/support/fake-server';
import { fakeIm } from '../../../test/support/fake-im';
import { installAntdRender } from '../ui/antd-render';
import { cleanupShell, renderShell, testConfig } from './shell-test-utils';
import { NO_ADS } from '../test-utils';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };
const SLOW = { timeout: 5000 };

/** Calls the product API got, by path, and the otp member/info and member/login hand out next. */
const calls: Record<string, Record<string, unknown>[]> = {};
let nextOtp = 1;
/** Follow counts member/info answers besides the user. */
let infoCounts = {};
const record = async (path: string, request: Request) => {
  (calls[path] ??= []).push((await request.json()) as Record<string, unknown>);
};
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/article/list', () => HttpResponse.json({ ret: [] })),
  http.post('*/index.php/api/article/typeid', () => HttpResponse.json({ ret: { mine: [], more: [] } })),
  http.post('*/index.php/api/index/config', async ({ request }) => {
    await record('index/config', request);
    return HttpResponse.json({ ret: testConfig({ im: { appkey: 'product-app' } }) });
  }),
  http.post('*/index.php/api/member/info', async ({ request }) => {
    await record('member/info', request);
    return HttpResponse.json({
      ret: { id: USER.id, username: USER.username, img: '', ...infoCounts },
      otp: `otp-${nextOtp++}`,
    });
  }),
  http.post('*/index.php/api/member/login', async ({ request }) => {
    await record('member/login', request);
    return HttpResponse.json({ ret: USER, otp: `otp-${nextOtp++}` });
  }),
  http.post('*/index.php/api/member/logout', async ({ request }) => {
    await record('member/logout', request);
    return HttpResponse.json({ ret: true });
  }),
);

let messaging: FakeServer;
let pageHidden = false;

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
  Object.defineProperty(document, 'visibilityState', {
    configurable: true,
    get: () => (pageHidden ? 'hidden' : 'visible'),
  });
});
beforeEach(() => {
  localStorage.clear();
  for (const path of Object.keys(calls)) delete calls[path];
  nextOtp = 1;
  infoCounts = {};
  pageHidden = false;
  messaging = new FakeServer();
  fakeIm(messaging, USER.id);
});
afterEach(() => {
  cleanupShell();
});
afterAll(() => api.close());

const authorizations = () => messaging.requests('authorize').map((r) => r.params);
const stored = (key: string) => JSON.parse(localStorage.getItem(key) ?? 'null') as unknown;

/** Hides or shows the page as the browser does when the app goes to the background and back. */
function setPageHidden(hidden: boolean) {
  act(() => {
    pageHidden = hidden;
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

describe('app start (spec §4)', () => {
  it('connects to messaging as the stored user, with the otp member/info issued', async () => {
    localStorage.setItem('user', JSON.stringify(USER));
    renderShell({ path: '/pages/user/index', transport: messaging.transport });
    await waitFor(() => expect(messaging.openSockets).toHaveLength(1), SLOW);
    // One member/info issued (the user tab reads it too; the newest by then goes).
    expect(authorizations()).toEqual([
      expect.objectContaining({
        userId: USER.id,
        otp: expect.stringMatching(/^otp-\d+$/) as unknown,
        appkey: 'product-app',
      }),
    ]);
    expect(calls['member/info']?.[0]).toMatchObject({ token: USER.token });
  });

  it('does not connect without a stored user', async () => {
    renderShell({ path: '/pages/user/index', transport: messaging.transport });
    await screen.findByText('Sign in / Sign up', {}, SLOW);
    await waitFor(() => expect(calls['index/config']).toHaveLength(1));
    expect(messaging.attempts).toHaveLength(0);
  });
});

describe('login (spec §4)', () => {
  it('stores the user and connects with the otp the login answered', async () => {
    renderShell({ path: '/user/login', transport: messaging.transport });
    fireEvent.change(await screen.findByRole('textbox', { name: 'Mobile number' }, SLOW), {
      target: { value: '13800138000' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: 'Verification code' }), { target: { value: '123456' } });
    fireEvent.click(screen.getByText('I have read and agree to the', { exact: false }));
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(messaging.openSockets).toHaveLength(1), SLOW);
    expect(stored('user')).toEqual(USER);
    expect(authorizations()[0]).toMatchObject({ userId: USER.id, otp: 'otp-1' });
  });
});

describe('hide and show (spec §4)', () => {
  it('closes the messaging connection on hide, and on show reloads the config and connects again', async () => {
    localStorage.setItem('user', JSON.stringify(USER));
    renderShell({ path: '/pages/user/index', transport: messaging.transport });
    await waitFor(() => expect(messaging.openSockets).toHaveLength(1), SLOW);
    const configLoads = calls['index/config']?.length ?? 0;

    setPageHidden(true);
    await waitFor(() => expect(messaging.openSockets).toHaveLength(0), SLOW);
    expect(messaging.sockets[0]?.closedByClient).toBe(true);

    setPageHidden(false);
    await waitFor(() => expect(calls['index/config']?.length).toBe(configLoads + 1), SLOW);
    await waitFor(() => expect(messaging.openSockets).toHaveLength(1), SLOW);
    expect(authorizations()).toHaveLength(2);
    expect(authorizations()[1]).toMatchObject({ userId: USER.id });
  });
});

describe('logout (spec §3, §4)', () => {
  it('keeps the user as user_out, clears the session and closes the messaging connection', async () => {
    localStorage.setItem('user', JSON.stringify(USER));
    renderShell({ path: '/pages/user/index', transport: messaging.transport });
    await waitFor(() => expect(messaging.openSockets).toHaveLength(1), SLOW);
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    fireEvent.click(await screen.findByText('OK'));
    expect(await screen.findByText('Sign in / Sign up', {}, SLOW)).toBeTruthy();
    expect(stored('user')).toBeNull();
    expect(stored('user_out')).toMatchObject({ id: USER.id, token: USER.token });
    expect(calls['member/logout']).toEqual([expect.objectContaining({ token: USER.token })]);
    await waitFor(() => expect(messaging.openSockets).toHaveLength(0), SLOW);
  });
});

describe('the user tab', () => {
  it("shows the member's signature, and their background behind the header", async () => {
    const background = 'https://files.test/uploads/bg.png';
    localStorage.setItem('user', JSON.stringify({ ...USER, qianming: 'Coffee, code', background }));
    renderShell({ path: '/pages/user/index', transport: messaging.transport });
    await screen.findByText('Coffee, code', undefined, SLOW);
    const header = document.querySelector<HTMLElement>('.mine-header');
    expect(header?.style.backgroundImage).toBe(`url("${background}")`);
  });

  it('shows how many the member follows, how many follow them, their likes and the unread notifications, as member/info tells', async () => {
    localStorage.setItem('user', JSON.stringify(USER));
    infoCounts = { follows: 4, fans: 9, likes: 15, member_notify_badge: 3 };
    renderShell({ path: '/pages/user/index', transport: messaging.transport });
    await waitFor(() => {
      const counts = [...document.querySelectorAll('.mine-header .follow-count')].map((c) => c.textContent);
      expect(counts).toEqual(['4Following', '9Followers', '15Likes']);
    }, SLOW);
    // The unread notifications beside their entry.
    const entry = screen.getByText('Notifications').closest('.adm-list-item');
    expect(entry?.querySelector('.adm-badge')?.textContent).toBe('3');
  });

  it('reads member/info again each time it opens, so that the counts are those of now', async () => {
    localStorage.setItem('user', JSON.stringify(USER));
    renderShell({ path: '/pages/article/index', transport: messaging.transport });
    await waitFor(() => expect(messaging.openSockets).toHaveLength(1), SLOW);
    // Once the app has settled, nothing reads member/info until the tab opens.
    const before = calls['member/info']?.length ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calls['member/info']).toHaveLength(before);
    infoCounts = { follows: 1, fans: 2, likes: 3 };
    await act(async () => {
      fireEvent.click(await screen.findByText('Me', undefined, SLOW));
      await Promise.resolve();
    });
    await waitFor(() => {
      const counts = [...document.querySelectorAll('.mine-header .follow-count')].map((c) => c.textContent);
      expect(counts).toEqual(['1Following', '2Followers', '3Likes']);
    }, SLOW);
    expect(calls['member/info']).toHaveLength(before + 1);
  });
});
