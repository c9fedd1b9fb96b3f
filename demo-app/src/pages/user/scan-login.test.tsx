// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderApp, shows, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import ScanLogin from './scan-login';

const USER = { token: 'phone-token', id: '42', username: 'Alice', img: '' };
const TICKET = 't'.repeat(32);

const calls: { path: string; body: Record<string, unknown> }[] = [];
/** What the fake server answers the scan: the asking device, or a refusal. */
let scan: Record<string, unknown> = {};
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/member/:path', async ({ request, params }) => {
    const path = params['path'] as string;
    const body = (await request.json()) as Record<string, unknown>;
    calls.push({ path, body });
    if (path === 'qr_login_scan') return HttpResponse.json(scan);
    return HttpResponse.json({ ret: true });
  }),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  calls.length = 0;
  scan = {
    ret: { device: 'Chrome on Windows', address: '203.0.113.7', created_at: Date.now() - 10_000, expires_at: 0 },
  };
});
afterEach(() => cleanup());
afterAll(() => api.close());

const open = (ticket = TICKET) =>
  renderApp(
    <Routes>
      <Route path="/user/scan-login" element={<ScanLogin />} />
      <Route path="*" element={<div>elsewhere</div>} />
    </Routes>,
    { path: `/user/scan-login?ticket=${ticket}` },
  );

describe('user/scan-login: confirming a sign-in by QR code on the phone', () => {
  it('says which device asks, from where and when, and signs it in only on Sign in', async () => {
    open();
    await shows('Sign in to your account on the device below?');
    expect(screen.getByText('Signed in here as Alice')).toBeTruthy();
    expect(screen.getByText('Chrome on Windows')).toBeTruthy();
    expect(screen.getByText('203.0.113.7')).toBeTruthy();
    expect(screen.getByText('just now')).toBeTruthy();
    expect(calls.map((c) => [c.path, c.body['ticket'], c.body['token']])).toEqual([
      ['qr_login_scan', TICKET, 'phone-token'],
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await shows('Signed in on Chrome on Windows');
    expect(calls.map((c) => [c.path, c.body['ticket'], c.body['token']])[1]).toEqual([
      'qr_login_confirm',
      TICKET,
      'phone-token',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    await shows('elsewhere');
  });

  it('Cancel turns the sign-in down', async () => {
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await shows('Sign-in cancelled');
    expect(calls.map((c) => c.path)).toEqual(['qr_login_scan', 'qr_login_cancel']);
  });

  it('shows why a code cannot be used: scanned by someone else, or expired', async () => {
    scan = { err: 'someone else scanned this QR code', code: 'qr_taken' };
    open();
    await shows('Someone else scanned this QR code');
    expect(screen.getByText('Cannot sign in with this code')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
    cleanup();

    scan = { err: 'the QR code has expired: refresh it on the other device', code: 'qr_invalid' };
    open();
    await shows('The QR code has expired: refresh it on the other device');
  });

  it('a link without a ticket as codes carry them asks nothing of the server', async () => {
    open('not-a-ticket');
    await shows('Link does not exist');
    expect(calls).toEqual([]);
  });
});
