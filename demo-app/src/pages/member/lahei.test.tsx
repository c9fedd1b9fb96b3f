// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BlockedMember } from '../../features/member/blocks';
import { renderApp, shows, step, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import BlockList from './lahei';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };

/** The fake server's block list, newest first. */
let blocked: BlockedMember[] = [];
const lists: Array<Record<string, unknown>> = [];
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/member/lahei_list', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    lists.push(body);
    const before = body['before'];
    const from = typeof before === 'string' ? blocked.findIndex((b) => b.id === before) + 1 : 0;
    return HttpResponse.json({ ret: blocked.slice(from, from + 20) });
  }),
  http.post('*/index.php/api/member/lahei/uid_s/:id', async ({ request, params }) => {
    const body = (await request.json()) as Record<string, unknown>;
    if (body['block'] === false) blocked = blocked.filter((b) => b.id !== params['id']);
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
  blocked = [];
  lists.length = 0;
});
afterEach(() => cleanup());
afterAll(() => api.close());

/** Does `work` and lets what it started (calls, renders) settle. */

const member = (n: number): BlockedMember => ({ id: `m${n}`, username: `User ${n}`, img: '', created_at: 1_000 - n });

describe('member/lahei: the block list', () => {
  it('says when no one is blocked, and where to block someone', async () => {
    renderApp(<BlockList />);
    await shows('No one is blocked');
    expect(screen.getByText('Block someone from the menu at the top right of your private chat')).toBeTruthy();
  });

  it('lists the blocked members twenty at a time and unblocks one', async () => {
    blocked = Array.from({ length: 22 }, (_, n) => member(n));
    // A member who cancelled their account shows by id.
    blocked[1] = { id: 'm1', username: '', img: '', created_at: 999 };
    renderApp(<BlockList />);
    await shows('User 0');
    expect(screen.getAllByTestId('blocked-member')).toHaveLength(20);
    expect(screen.getByText('User m1')).toBeTruthy();
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Load more' })));
    await shows('User 21');
    expect(lists.map((body) => body['before'])).toEqual([undefined, 'm19']);

    const first = screen.getAllByTestId('blocked-member')[0] as HTMLElement;
    await step(() => fireEvent.click(within(first).getByRole('button', { name: 'Unblock' })));
    await shows('Unblocked');
    await vi.waitFor(() => expect(screen.queryByText('User 0')).toBeNull());
    expect(blocked.map((b) => b.id)).not.toContain('m0');
  });
});
