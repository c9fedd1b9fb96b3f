// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAnnouncement } from '../../features/shop/fake-announcements';
import { fakeShop, openShop } from '../../features/shop/fake-shop';
import { renderApp, shows, step, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import BusinessIndex from './business-index';
import AnnouncementsPage from './business-gonggao';
import AnnouncementPage from './business-gonggao-view';

const USER = { token: 'seller-token', id: '7', username: 'Bob', img: '' };
const DAY = 86_400_000;
const T0 = 1_700_000_000_000;
const shop = fakeShop();
const api = setupServer(NO_ADS, ...shop.handlers);
const OPEN_SHOP = openShop({ icon: 'https://files.test/icon.png' });

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  shop.reset();
  shop.state.myShop = OPEN_SHOP;
  shop.state.announcements = [
    fakeAnnouncement('a1', { title: 'Shipping before the holiday', created_at: T0 + DAY }),
    fakeAnnouncement('a2', { title: 'Fees from May', pinned: true, created_at: T0 }),
    fakeAnnouncement('a3', { title: 'Store rules', read: true, created_at: T0 + 2 * DAY }),
  ];
});
afterEach(() => {
  cleanup();
  window.history.replaceState(null, '');
});
afterAll(() => api.close());

function renderPages(path: string) {
  return renderApp(
    <div data-testid="page">
      <Routes>
        <Route path="/shop/business-index" element={<BusinessIndex />} />
        <Route path="/shop/business-gonggao" element={<AnnouncementsPage />} />
        <Route path="/shop/business-gonggao-view" element={<AnnouncementPage />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
    </div>,
    { path },
  );
}

const where = () => screen.getByTestId('where').textContent;
const lines = () => screen.queryAllByTestId('announcement');
const line = (n: number) => within(lines()[n] as HTMLElement);
const calls = (path: string) => shop.sent.filter((call) => call.path === path).map((call) => call.body);

describe('shop/business-gonggao: the seller reads the announcements', () => {
  it('My shop shows how many are unread and opens them', async () => {
    renderPages('/shop/business-index');
    await shows('Announcements');
    await vi.waitFor(() => expect(screen.getByTestId('announcements-unread').textContent).toBe('2'));
    expect(screen.getByLabelText('2 unread')).toBeTruthy();
    await step(() => fireEvent.click(screen.getByText('Announcements')));
    expect(where()).toBe('/shop/business-gonggao');
  });

  it('lists them pinned first, then the newest, unread ones with a dot, and marks one read once opened', async () => {
    renderPages('/shop/business-gonggao');
    await shows('Fees from May');
    expect(lines().map((item) => item.querySelector('.announcement-title-text')?.textContent)).toEqual([
      'Fees from May',
      'Store rules',
      'Shipping before the holiday',
    ]);
    expect(line(0).getByText('Pinned')).toBeTruthy();
    expect(line(1).queryByText('Pinned')).toBeNull();
    expect(line(0).getByRole('img', { name: 'Unread' })).toBeTruthy();
    expect(line(1).queryByRole('img', { name: 'Unread' })).toBeNull();
    expect(line(2).getByRole('img', { name: 'Unread' })).toBeTruthy();
    expect(line(0).getByText('First paragraph of a2. Second paragraph.')).toBeTruthy();
    expect(line(0).getByText(new Date(T0).toLocaleDateString('en'))).toBeTruthy();
    expect(calls('shop/gonggao_list')[0]).toMatchObject({ token: USER.token });

    await step(() => fireEvent.click(line(2).getByText('Shipping before the holiday')));
    expect(where()).toBe('/shop/business-gonggao-view?id=a1');
    await shows('First paragraph of a1.');
    expect(calls('shop/gonggao_view')).toEqual([expect.objectContaining({ id: 'a1', token: USER.token })]);
    // The app's hash router numbers its entries in the window's history, which the memory router leaves alone.
    window.history.replaceState({ idx: 1 }, '');
    await step(() => fireEvent.click(screen.getByText('Back')));
    expect(where()).toBe('/shop/business-gonggao');
    await vi.waitFor(() => expect(line(2).queryByRole('img', { name: 'Unread' })).toBeNull());
    expect(line(0).getByRole('img', { name: 'Unread' })).toBeTruthy();
  });

  it('reads twenty at a time', async () => {
    shop.state.announcements = Array.from({ length: 23 }, (_, i) =>
      fakeAnnouncement(`n${String(i).padStart(2, '0')}`, { title: `Notice ${i}`, created_at: T0 + i * DAY }),
    );
    renderPages('/shop/business-gonggao');
    await shows('Notice 22');
    expect(lines()).toHaveLength(20);
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Load more' })));
    await vi.waitFor(() => expect(lines()).toHaveLength(23));
    expect(calls('shop/gonggao_list').at(-1)).toMatchObject({ before: 'n03' });
    expect(screen.getByText('Notice 0')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('shows an announcement as text, a paragraph a line, never as markup', async () => {
    shop.state.announcements = [
      fakeAnnouncement('x1', {
        title: '<b>Holiday</b>',
        content: 'Orders ship on the 8th.\n\n<img src=x onerror="alert(1)"> is not a picture.\nThird line.',
        pinned: true,
        created_at: T0,
        updated_at: T0 + 3 * DAY,
      }),
    ];
    renderPages('/shop/business-gonggao-view?id=x1');
    await shows('<b>Holiday</b>');
    const article = screen.getByRole('article');
    expect([...article.querySelectorAll('p')].map((p) => p.textContent)).toEqual([
      'Orders ship on the 8th.',
      '<img src=x onerror="alert(1)"> is not a picture.',
      'Third line.',
    ]);
    expect(article.querySelector('img')).toBeNull();
    expect(article.querySelector('b')).toBeNull();
    expect(within(article).getByText('Pinned')).toBeTruthy();
    expect(
      within(article).getByText(new RegExp(`Updated ${new Date(T0 + 3 * DAY).toLocaleDateString('en')}`)),
    ).toBeTruthy();
  });

  it('says when an announcement is gone, and when the member has no open shop', async () => {
    renderPages('/shop/business-gonggao-view?id=gone');
    await shows('The announcement does not exist or has been removed');
    cleanup();

    shop.state.myShop = { ...OPEN_SHOP, status: 'pending' };
    renderPages('/shop/business-gonggao');
    await shows('Please open a shop first');
    expect(lines()).toHaveLength(0);
  });

  it('says when there are none', async () => {
    shop.state.announcements = [];
    renderPages('/shop/business-gonggao');
    await shows('No announcements yet');
  });
});
