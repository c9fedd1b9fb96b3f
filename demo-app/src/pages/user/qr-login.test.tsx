// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanupShell, currentRoute, renderShell, testConfig } from '../../app/shell-test-utils';
import type { QrLoginStatus } from '../../features/member/qr-login';
import { installAntdRender } from '../../ui/antd-render';
import { NO_ADS } from '../../test-utils';

/** Long enough for a poll or two (every 2 s). */
const POLLS = { timeout: 7_000 };
const ALICE = { username: 'Alice', img: '' };

const ticketOf = (n: number) => `ticket${String(n).padStart(26, '0')}`;
/** What the fake server answers each poll of each code, in turn; the last answer repeats. */
let answers: Record<string, QrLoginStatus[]> = {};
let codes = 0;
const polls: Record<string, unknown>[] = [];
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/index/config', () => HttpResponse.json({ ret: testConfig() })),
  http.post('*/index.php/api/member/qr_login', () => {
    codes += 1;
    return HttpResponse.json({ ret: { ticket: ticketOf(codes), key: `key${'k'.repeat(29)}`, expires_at: 0 } });
  }),
  http.post('*/index.php/api/member/qr_login_status', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    polls.push(body);
    const queue = answers[body['ticket'] as string] ?? [];
    const state = queue.length > 1 ? queue.shift() : queue[0];
    return HttpResponse.json({ ret: state ?? { status: 'waiting', expires_at: 0 }, otp: 'otp-1' });
  }),
  http.post('*/index.php/api/member/info', () => HttpResponse.json({ ret: { id: '42' }, otp: null })),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  answers = {};
  codes = 0;
  polls.length = 0;
});
afterEach(() => {
  cleanupShell();
  api.resetHandlers();
});
afterAll(() => api.close());

const codeImage = () => screen.getByRole<HTMLImageElement>('img', { name: 'QR code to sign in' });
/** Ticks the user and privacy agreements, which a code needs as a code login does. */
const agree = () => fireEvent.click(screen.getByText('I have read and agree to the', { exact: false }));

describe('login: sign-in by QR code (user/scan-login)', () => {
  it('shows a code linking to the scan page, who scanned it, and signs in once the phone confirms', async () => {
    answers[ticketOf(1)] = [
      { status: 'waiting', expires_at: 0 },
      { status: 'scanned', expires_at: 0, user: ALICE },
      { status: 'confirmed', user: { token: 'device-token', id: '42', username: 'Alice', img: '' } },
    ];
    renderShell({ path: `/user/login?redirect=${encodeURIComponent('/member/feedback')}` });
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in with QR code' }, POLLS));
    expect(screen.getByText('Scan to sign in')).toBeTruthy();
    agree();
    // The phone form is gone while the code shows.
    expect(screen.queryByRole('textbox', { name: 'Mobile number' })).toBeNull();
    await waitFor(() => expect(codeImage().src).toMatch(/^data:image\/svg\+xml/), POLLS);
    expect(codeImage().dataset['link']).toBe(`${window.location.origin}/#/user/scan-login?ticket=${ticketOf(1)}`);

    await screen.findByText('Alice scanned the code. Confirm on the phone.', {}, POLLS);
    await waitFor(() => expect(currentRoute()).toBe('/member/feedback'), POLLS);
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ token: 'device-token', id: '42' });
    // Every poll carried the key the device was given, which the code does not show.
    expect(polls.every((p) => p['key'] === `key${'k'.repeat(29)}` && p['ticket'] === ticketOf(1))).toBe(true);
    const settled = polls.length;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(polls).toHaveLength(settled);
  }, 20_000);

  it('asks for no code until the user and privacy agreements are ticked, then asks with agree: true (spec §5)', async () => {
    const asked: unknown[] = [];
    api.use(
      http.post('*/index.php/api/member/qr_login', async ({ request }) => {
        asked.push(await request.json());
        codes += 1;
        return HttpResponse.json({ ret: { ticket: ticketOf(codes), key: `key${'k'.repeat(29)}`, expires_at: 0 } });
      }),
    );
    renderShell({ path: '/user/login' });
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in with QR code' }, POLLS));
    await screen.findByText('Agree to the user agreement and privacy policy first, and the code shows here.');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(asked).toEqual([]);
    expect(screen.queryByRole('img', { name: 'QR code to sign in' })).toBeNull();
    expect(screen.getByTestId('qr-login').dataset['status']).toBe('unagreed');

    agree();
    await waitFor(() => expect(codeImage().dataset['link']).toContain(ticketOf(1)), POLLS);
    expect(asked).toEqual([expect.objectContaining({ agree: true })]);
    expect(
      screen.queryByText('Agree to the user agreement and privacy policy first, and the code shows here.'),
    ).toBeNull();
  }, 20_000);

  it('a cancelled or expired code is replaced by a new one with Refresh; back to the phone form', async () => {
    answers[ticketOf(1)] = [{ status: 'cancelled' }];
    answers[ticketOf(2)] = [{ status: 'expired' }];
    renderShell({ path: '/user/login' });
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in with QR code' }, POLLS));
    agree();
    await screen.findByText('Sign-in was cancelled on the phone', {}, POLLS);
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(codeImage().dataset['link']).toContain(ticketOf(2)), POLLS);
    await screen.findByText('The QR code has expired', {}, POLLS);
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(codeImage().dataset['link']).toContain(ticketOf(3)), POLLS);
    expect(codes).toBe(3);

    fireEvent.click(screen.getByRole('button', { name: 'Sign in with phone number' }));
    expect(screen.getByRole('textbox', { name: 'Mobile number' })).toBeTruthy();
    expect(screen.queryByRole('img', { name: 'QR code to sign in' })).toBeNull();
  }, 20_000);

  it('shows the phone form and the code side by side on a wide screen, without the switch', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(min-width: 768px)',
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    try {
      renderShell({ path: '/user/login' });
      // One box for both: the form's agreement lets the code beside it show.
      await screen.findByText(
        'Agree to the user agreement and privacy policy first, and the code shows here.',
        {},
        POLLS,
      );
      agree();
      await waitFor(() => expect(codeImage().dataset['link']).toContain(ticketOf(1)), POLLS);
      expect(screen.getByRole('textbox', { name: 'Mobile number' })).toBeTruthy();
      expect(screen.getByText('Scan to sign in')).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Sign in with QR code' })).toBeNull();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('follows the window across 768 px: narrowed, the code goes behind the switch; widened, it comes back', async () => {
    // A matchMedia double over a width the test changes, telling its listeners as a browser does.
    let width = 1024;
    const listeners = new Set<() => void>();
    vi.stubGlobal('matchMedia', (query: string) => ({
      get matches() {
        return query === '(min-width: 768px)' && width >= 768;
      },
      media: query,
      addEventListener: (_: string, listener: () => void) => listeners.add(listener),
      removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
    }));
    const resize = (to: number) =>
      act(() => {
        width = to;
        for (const listener of [...listeners]) listener();
      });
    try {
      renderShell({ path: '/user/login' });
      await screen.findByText('I have read and agree to the', { exact: false }, POLLS);
      agree();
      await waitFor(() => expect(codeImage().dataset['link']).toContain(ticketOf(1)), POLLS);
      expect(screen.queryByRole('button', { name: 'Sign in with QR code' })).toBeNull();

      resize(390);
      expect(screen.queryByRole('img', { name: 'QR code to sign in' })).toBeNull();
      expect(screen.getByRole('button', { name: 'Sign in with QR code' })).toBeTruthy();
      expect(screen.getByRole('textbox', { name: 'Mobile number' })).toBeTruthy();

      resize(1280);
      await waitFor(() => expect(screen.getByRole('img', { name: 'QR code to sign in' })).toBeTruthy(), POLLS);
      expect(screen.queryByRole('button', { name: 'Sign in with QR code' })).toBeNull();
      expect(screen.getByRole('textbox', { name: 'Mobile number' })).toBeTruthy();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
