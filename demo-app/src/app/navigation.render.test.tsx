// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { installAntdRender } from '../ui/antd-render';
import { HOME_PATH } from './navigation';
import { cleanupShell, currentRoute, renderShell, testConfig } from './shell-test-utils';
import { NO_ADS } from '../test-utils';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };
const SLOW = { timeout: 5000 };

const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/index/config', () => HttpResponse.json({ ret: testConfig({ kefu_h5: '' }) })),
  http.post('*/index.php/api/member/info', () => HttpResponse.json({ ret: USER, otp: null })),
  http.post('*/index.php/api/article/list', () => HttpResponse.json({ ret: [] })),
  http.post('*/index.php/api/article/typeid', () => HttpResponse.json({ ret: { mine: [], more: [] } })),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanupShell();
});
afterAll(() => api.close());

const signedIn = () => localStorage.setItem('user', JSON.stringify(USER));
const loginRedirect = (path: string) => `/user/login?${new URLSearchParams({ redirect: path }).toString()}`;

describe('the auth gate (spec §2, §6)', () => {
  for (const path of ['/im/index', '/member/sz', '/member/language', '/renwu/index', '/shop/cart']) {
    it(`sends a visitor who opens ${path} to the login page, keeping where they were going`, async () => {
      renderShell({ path });
      expect(await screen.findByText('Sign in with your phone', {}, SLOW)).toBeTruthy();
      expect(currentRoute()).toBe(loginRedirect(path));
    });
  }

  it('lets a member open a protected page', async () => {
    signedIn();
    renderShell({ path: '/member/sz' });
    expect(await screen.findByText('Dark mode', {}, SLOW)).toBeTruthy();
    expect(currentRoute()).toBe('/member/sz');
  });

  it('asks a visitor to sign in when they open a protected entry from a page', async () => {
    renderShell({ path: '/pages/user/index' });
    fireEvent.click(await screen.findByText('Messages', {}, SLOW));
    expect(await screen.findByText('Please sign in first')).toBeTruthy();
    expect(await screen.findByText('Sign in with your phone', {}, SLOW)).toBeTruthy();
    expect(currentRoute()).toBe(loginRedirect('/im/index'));
  });
});

describe('closing a page (spec §2)', () => {
  it('goes back to the page it was opened from', async () => {
    renderShell({ path: '/pages/user/index' });
    fireEvent.click(await screen.findByText('Sign in / Sign up', {}, SLOW));
    await screen.findByText('Sign in with your phone', {}, SLOW);
    expect(currentRoute()).toBe('/user/login');
    fireEvent.click(screen.getByText('Back'));
    await waitFor(() => expect(currentRoute()).toBe('/pages/user/index'));
    expect(await screen.findByText('Sign in / Sign up')).toBeTruthy();
  });

  it('goes home when it is the only page', async () => {
    renderShell({ path: '/public/agreement' });
    fireEvent.click(await screen.findByText('Back', {}, SLOW));
    await waitFor(() => expect(currentRoute()).toBe(HOME_PATH));
    expect(await screen.findByText('No articles yet: be the first to write one', {}, SLOW)).toBeTruthy();
  });
});

describe('an empty target (spec §2, §8)', () => {
  it('shows "link does not exist" and stays on the page', async () => {
    renderShell({ path: '/pages/user/index' });
    fireEvent.click(await screen.findByText('Contact customer service', {}, SLOW));
    expect(await screen.findByText('Link does not exist')).toBeTruthy();
    expect(currentRoute()).toBe('/pages/user/index');
  });
});
