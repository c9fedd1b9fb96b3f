// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALICE, fakeLive, fakeRoom } from '../../features/live/fake-live';
import { LIVE_USER } from '../../features/live/fake-live-app';
import { fakeProduct } from '../../features/shop/fake-shop';
import { renderApp, shows, step, Where } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import ChooseLiveGoods from './shop-add';

const live = fakeLive();
const api = setupServer(...live.handlers);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  live.reset();
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(LIVE_USER));
  live.state.rooms = [fakeRoom('r5', { anchor: ALICE, status: 1 })];
});
afterEach(() => cleanup());
afterAll(() => api.close());

function openPage() {
  return renderApp(
    <>
      <Routes>
        <Route path="/live/shop-add" element={<ChooseLiveGoods />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
    </>,
    { path: '/live/shop-add?id=r5' },
  );
}

const box = (title: string) => screen.getByRole<HTMLInputElement>('checkbox', { name: title });
const tick = (title: string) => step(() => fireEvent.click(box(title)));
const save = () => step(() => fireEvent.click(screen.getByRole('button', { name: /^Save/ })));

describe('live/shop-add: the goods of a live', () => {
  it('keeps the room’s goods ticked, offers the other products on sale, and saves them in order', async () => {
    live.state.products = [
      fakeProduct('p1', { title: 'Green tea' }),
      fakeProduct('p2', { title: 'Tea cup', status: 'off_shelf' }),
      fakeProduct('p3', { title: 'Teapot', price: 88 }),
      fakeProduct('p4', { title: 'Oolong' }),
    ];
    live.state.rooms[0]!.goods = ['p4'];
    openPage();
    await shows('In the room');
    await shows('Teapot');
    expect(box('Oolong').checked).toBe(true);
    expect(box('Green tea').checked).toBe(false);
    expect(screen.queryByText('Tea cup')).toBeNull();
    expect(screen.getByText('¥88.00')).toBeTruthy();
    expect(live.calls('shop/business_list')[0]).toMatchObject({ status: 'on_sale', token: LIVE_USER.token });

    await tick('Teapot');
    await tick('Green tea');
    expect(screen.getByRole('button', { name: 'Save (3/20)' })).toBeTruthy();
    await save();
    await waitFor(() =>
      expect(live.calls('live/goods')).toEqual([expect.objectContaining({ id: 'r5', goods: ['p4', 'p3', 'p1'] })]),
    );
    await shows('Saved');
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/pages/article/index'));
  });

  it('takes goods out of the room when unticked', async () => {
    live.state.products = [fakeProduct('p1', { title: 'Green tea' }), fakeProduct('p2', { title: 'Teapot' })];
    live.state.rooms[0]!.goods = ['p1', 'p2'];
    openPage();
    await shows('Green tea');
    await tick('Green tea');
    await save();
    await waitFor(() => expect(live.calls('live/goods')).toEqual([expect.objectContaining({ goods: ['p2'] })]));
  });

  it('lets no more than twenty be ticked, across pages', async () => {
    live.state.products = Array.from({ length: 25 }, (_, i) => fakeProduct(`p${i + 1}`, { title: `Item ${i + 1}` }));
    openPage();
    await shows('Item 20');
    expect(screen.queryByText('Item 21')).toBeNull();
    for (let i = 1; i <= 20; i++) await tick(`Item ${i}`);
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Load more' })));
    await shows('Item 21');
    await tick('Item 21');
    await shows('Choose at most 20 products');
    expect(box('Item 21').checked).toBe(false);
    expect(screen.getByRole('button', { name: 'Save (20/20)' })).toBeTruthy();
    await tick('Item 3');
    await tick('Item 21');
    expect(box('Item 21').checked).toBe(true);
  });

  it('shows a refusal in the app’s words and stays', async () => {
    live.state.products = [fakeProduct('p1', { title: 'Green tea' })];
    live.state.refuse['live/goods'] = { err: 'x', code: 'live_goods_invalid' };
    openPage();
    await shows('Green tea');
    await tick('Green tea');
    await save();
    await shows("Only your own shop's products on sale can be chosen, at most 20");
    expect(screen.getByTestId('where').textContent).toBe('/live/shop-add?id=r5');
  });
});
