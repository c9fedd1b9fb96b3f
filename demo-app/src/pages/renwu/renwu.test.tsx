// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CoinLine, TaskOverview } from '../../features/tasks/api';
import { renderApp, shows, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import MyCoins from './jinbi';
import TaskCentre from './index';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };
const RULES = { daily: 10, streak_days: 7, streak_bonus: 50 };

/** The fake server's state. */
let overview: TaskOverview;
let ledger: CoinLine[] = [];
const signs: unknown[] = [];
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/renwu/index', () => HttpResponse.json({ ret: overview })),
  http.post('*/index.php/api/renwu/sign', () => {
    signs.push(true);
    if (overview.signed_today) return HttpResponse.json({ err: 'already signed in today', code: 'signed_already' });
    const streak = overview.streak + 1;
    const bonus = streak % 7 === 0 ? 50 : 0;
    overview = { ...overview, signed_today: true, streak, coins: overview.coins + 10 + bonus };
    return HttpResponse.json({ ret: { day: '2026-11-27', streak, coins: 10, bonus, balance: overview.coins } });
  }),
  http.post('*/index.php/api/renwu/jinbi_list', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    const before = body['before'];
    const from = typeof before === 'string' ? ledger.findIndex((l) => l.id === before) + 1 : 0;
    return HttpResponse.json({ ret: ledger.slice(from, from + 20) });
  }),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  overview = { signed_today: false, streak: 0, coins: 0, rules: RULES };
  ledger = [];
  signs.length = 0;
});
afterEach(() => cleanup());
afterAll(() => api.close());

const doneDays = () => [...document.querySelectorAll('.streak-day')].map((d) => d.getAttribute('data-done'));

function renderPages(path = '/renwu/index') {
  return renderApp(
    <Routes>
      <Route path="/renwu/index" element={<TaskCentre />} />
      <Route path="/renwu/jinbi" element={<MyCoins />} />
    </Routes>,
    { path },
  );
}

describe('renwu: the task centre', () => {
  it('signs in once a day: the coins, the streak and the button follow', async () => {
    renderPages();
    await shows('Sign in today');
    expect(screen.getByTestId('coins').textContent).toBe('0');
    expect(screen.getByText('0 days in a row')).toBeTruthy();
    expect(doneDays().filter((d) => d === 'true')).toHaveLength(0);
    // The seventh day pays the bonus on top.
    expect(screen.getByText('+60')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sign in today' }));
      await Promise.resolve();
    });
    await shows('Signed in: +10 coins');
    await vi.waitFor(() => expect(screen.getByTestId('coins').textContent).toBe('10'));
    expect(screen.getByText('1 day in a row')).toBeTruthy();
    expect(doneDays().slice(0, 2)).toEqual(['true', 'false']);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Signed in today' }).disabled).toBe(true);
    expect(signs).toHaveLength(1);
  });

  it('says so when the seventh day in a row pays the bonus', async () => {
    overview = { signed_today: false, streak: 6, coins: 60, rules: RULES };
    renderPages();
    await shows('6 days in a row');
    expect(doneDays().filter((d) => d === 'true')).toHaveLength(6);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sign in today' }));
      await Promise.resolve();
    });
    await shows('Signed in: +10 coins, and +50 for 7 days in a row');
    await vi.waitFor(() => expect(screen.getByTestId('coins').textContent).toBe('120'));
    expect(doneDays().filter((d) => d === 'true')).toHaveLength(7);
  });

  it('opens the ledger from the coins, newest first, in pages of twenty', async () => {
    overview = { signed_today: true, streak: 1, coins: 260, rules: RULES };
    ledger = Array.from({ length: 21 }, (_, i) => ({
      id: `c${i}`,
      amount: i === 0 ? 50 : 10,
      kind: i === 0 ? 'streak' : 'signin',
      created_at: 1_000 - i,
    }));
    ledger[1] = { id: 'c1', amount: -100, kind: 'withdraw', created_at: 999 };
    ledger[2] = { id: 'c2', amount: 100, kind: 'withdraw_return', created_at: 998 };
    renderPages();
    await shows('260');
    await act(async () => {
      fireEvent.click(screen.getByText('Gold coins'));
      await Promise.resolve();
    });
    await shows('Streak bonus');
    expect(screen.getAllByTestId('coin-line')).toHaveLength(20);
    expect(screen.getByText('+50')).toBeTruthy();
    // A withdrawal takes coins, a rejected one returns them.
    expect(screen.getByText('-100')).toBeTruthy();
    expect(screen.getByText('Withdrawal')).toBeTruthy();
    expect(screen.getByText('+100')).toBeTruthy();
    expect(screen.getByText('Withdrawal returned')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
      await Promise.resolve();
    });
    await vi.waitFor(() => expect(screen.getAllByTestId('coin-line')).toHaveLength(21));
  });

  it('says so when the member signed in elsewhere meanwhile, and shows it', async () => {
    renderPages();
    await shows('Sign in today');
    // Another device signs in first.
    overview = { ...overview, signed_today: true, streak: 1, coins: 10 };
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sign in today' }));
      await Promise.resolve();
    });
    await shows('You have signed in today');
    await vi.waitFor(() => expect(screen.getByTestId('coins').textContent).toBe('10'));
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Signed in today' }).disabled).toBe(true);
  });

  it('opens the withdrawal from the task centre', async () => {
    renderApp(
      <Routes>
        <Route path="/renwu/index" element={<TaskCentre />} />
        <Route path="/renwu/tixian" element={<p>withdrawal page</p>} />
      </Routes>,
      { path: '/renwu/index' },
    );
    await shows('Withdraw');
    await act(async () => {
      fireEvent.click(screen.getByText('Withdraw'));
      await Promise.resolve();
    });
    await shows('withdrawal page');
  });

  it('opens the invitations from the task centre', async () => {
    renderApp(
      <Routes>
        <Route path="/renwu/index" element={<TaskCentre />} />
        <Route path="/renwu/yaoqing" element={<p>invitation page</p>} />
      </Routes>,
      { path: '/renwu/index' },
    );
    await shows('Invite friends');
    await act(async () => {
      fireEvent.click(screen.getByText('Invite friends'));
      await Promise.resolve();
    });
    await shows('invitation page');
  });

  it('says when there are no coins yet', async () => {
    renderPages('/renwu/jinbi');
    await shows('No coins yet: sign in to earn some');
  });
});
