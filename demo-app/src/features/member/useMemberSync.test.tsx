// @vitest-environment jsdom
import { act, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanupShell, renderShell, testConfig } from '../../app/shell-test-utils';
import { installAntdRender } from '../../ui/antd-render';
import { NO_ADS } from '../../test-utils';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };

/** What `member/info` answers next, and the calls it got. */
let infoAnswer: () => Response;
const infoCalls: unknown[] = [];
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/index/config', () => HttpResponse.json({ ret: testConfig() })),
  http.post('*/index.php/api/member/info', async ({ request }) => {
    infoCalls.push(await request.json());
    return infoAnswer();
  }),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  infoCalls.length = 0;
});
afterEach(() => {
  cleanupShell();
  vi.useRealTimers();
});
afterAll(() => api.close());

const stored = (key: string) => JSON.parse(localStorage.getItem(key) ?? 'null') as unknown;

describe('session expiry: member/info (spec §4, §7)', () => {
  for (const refusal of [
    { err: 'account expired', code: 'token_invalid' },
    { err: 'user does not exist or is blocked', code: 'user_missing' },
    { err: 'something the app has no words for' },
  ]) {
    it(`shows "account expired" and clears the session on any err answer: ${JSON.stringify(refusal)}`, async () => {
      infoAnswer = () => HttpResponse.json(refusal);
      renderShell({ path: '/pages/user/index' });
      expect(await screen.findByText('Account expired', {}, { timeout: 5000 })).toBeTruthy();
      expect(screen.getByText('Your session has expired. Please sign in again.')).toBeTruthy();
      expect(stored('user')).toBeNull();
      expect(stored('user_out')).toEqual(USER);
      expect(infoCalls).toHaveLength(1);
      expect(infoCalls[0]).toMatchObject({ token: USER.token });
      // The user tab now offers sign-in.
      expect(await screen.findByText('Sign in / Sign up')).toBeTruthy();
    });
  }

  it('keeps the session when member/info cannot be reached, retrying twice', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    infoAnswer = () => new HttpResponse('bad gateway', { status: 502 });
    renderShell({ path: '/pages/user/index' });
    for (let i = 0; i < 20 && infoCalls.length < 3; i++) {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(500);
      });
    }
    expect(infoCalls).toHaveLength(3);
    expect(screen.queryByText('Account expired')).toBeNull();
    expect(stored('user')).toEqual(USER);
    expect(stored('user_out')).toBeNull();
  });

  it('merges fresh user info into the stored user', async () => {
    infoAnswer = () =>
      HttpResponse.json({ ret: { id: '42', username: 'Alice B', img: '', member_notify_badge: 3 }, otp: null });
    renderShell({ path: '/pages/user/index' });
    await waitFor(() => expect(stored('user')).toMatchObject({ username: 'Alice B', member_notify_badge: 3 }));
    expect(stored('user')).toMatchObject({ token: USER.token, id: '42' });
    expect(await screen.findByText('Alice B')).toBeTruthy();
  });
});
