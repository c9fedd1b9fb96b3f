// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import UserHome from './home';

const USER = {
  token: 'member-token',
  id: '42',
  username: 'Alice',
  img: '',
  gender: 'female',
  region: 'Hangzhou',
  qianming: 'Coffee, code',
  background: '',
};
const BOB = {
  id: '7',
  username: 'Bob',
  img: '',
  gender: 'male',
  region: '',
  qianming: '',
  background: 'https://files.test/uploads/bg.png',
  blocked: false,
};

const blockCalls: unknown[] = [];
const api = setupServer(
  http.post('*/index.php/api/member/profile', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    if (body['id'] !== BOB.id)
      return HttpResponse.json({ err: 'user does not exist or is blocked', code: 'user_missing' });
    return HttpResponse.json({ ret: BOB });
  }),
  http.post('*/index.php/api/member/lahei/uid_s/:id', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    blockCalls.push(body['block']);
    return HttpResponse.json({ ret: { blocked: body['block'] === true } });
  }),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  blockCalls.length = 0;
});
afterEach(() => cleanup());
afterAll(() => api.close());

async function shows(text: string) {
  await vi.waitFor(() => expect(screen.getByText(text)).toBeTruthy());
}

describe('user/home', () => {
  it("shows the member's own profile without an id, with a way to edit it", () => {
    renderApp(<UserHome />, { path: '/user/home' });
    expect(screen.getByText('My profile')).toBeTruthy();
    expect(screen.getByText('Alice')).toBeTruthy();
    expect(screen.getByText('Female · Hangzhou')).toBeTruthy();
    expect(screen.getByText('Coffee, code')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Edit profile' })).toBeTruthy();
  });

  it("shows another member's profile over their background, and blocks and unblocks them", async () => {
    renderApp(<UserHome />, { path: '/user/home?id=7' });
    await shows('Bob');
    expect(screen.getByText('Male')).toBeTruthy();
    expect(screen.getByText('No signature yet')).toBeTruthy();
    expect(screen.getByTestId('home-head').style.backgroundImage).toBe(`url("${BOB.background}")`);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Message' }).disabled).toBe(false);

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Block' }));
      await Promise.resolve();
    });
    await vi.waitFor(() => expect(screen.getByRole('status').textContent).toContain('You blocked this user'));
    await vi.waitFor(() =>
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Message' }).disabled).toBe(true),
    );
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Unblock' }));
      await Promise.resolve();
    });
    await vi.waitFor(() =>
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Message' }).disabled).toBe(false),
    );
    expect(blockCalls).toEqual([true, false]);
  });

  it('says when the member does not exist', async () => {
    renderApp(<UserHome />, { path: '/user/home?id=999' });
    await shows('The user does not exist or is blocked');
  });

  it('asks a visitor to sign in', () => {
    localStorage.clear();
    renderApp(<UserHome />, { path: '/user/home?id=7' });
    expect(screen.getByText('Sign in to see profiles')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in / Sign up' })).toBeTruthy();
  });
});
