// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Where, renderApp } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import { AdBanner } from './AdBanner';
import type { Ad } from './ads';

let ads: Record<string, Ad[]> = {};
const clicks: Record<string, unknown>[] = [];
const asked: unknown[] = [];
const api = setupServer(
  http.post('*/index.php/api/ad/list', async ({ request }) => {
    const { position } = (await request.json()) as { position: string };
    asked.push(position);
    return HttpResponse.json({ ret: ads[position] ?? [] });
  }),
  http.post('*/index.php/api/ad/click', async ({ request }) => {
    const { id, zhanshi } = (await request.json()) as Record<string, unknown>;
    clicks.push({ id, zhanshi });
    return HttpResponse.json({ ret: true });
  }),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  ads = {};
  clicks.length = 0;
  asked.length = 0;
});
afterEach(() => cleanup());
afterAll(() => api.close());

const ad = (id: string, url: string): Ad => ({ id, title: `Ad ${id}`, img: `https://cdn.test/${id}.png`, url });

const where = () => screen.getByTestId('where').textContent;

describe('the banner of a tab: the operator’s ads (spec §3 Ad, §7 ad/click)', () => {
  it('shows nothing when the tab has no ads', async () => {
    renderApp(
      <>
        <AdBanner position="video" />
        <Where />
      </>,
    );
    await vi.waitFor(() => expect(asked).toEqual(['video']));
    expect(screen.queryByRole('region', { name: 'Ads' })).toBeNull();
    expect(clicks).toEqual([]);
  });

  it('marks each ad as one, counts the first shown once, and a tap opens its page of the app and counts', async () => {
    ads['shop'] = [ad('a1', 'shop/view?id=p1'), ad('a2', 'https://brand.test/spring')];
    renderApp(
      <>
        <AdBanner position="shop" />
        <Where />
      </>,
      { path: '/pages/shop/index' },
    );
    const first = await screen.findByRole('img', { name: 'Ad a1' });
    expect(screen.getByRole('region', { name: 'Ads' })).toBeTruthy();
    expect(screen.getAllByText('Ad').length).toBeGreaterThanOrEqual(2);
    await vi.waitFor(() => expect(clicks).toEqual([{ id: 'a1', zhanshi: 1 }]));

    fireEvent.click(first);
    await vi.waitFor(() => expect(where()).toBe('/shop/view?id=p1'));
    await vi.waitFor(() => expect(clicks).toContainEqual({ id: 'a1', zhanshi: 0 }));
  });

  it('opens an outside page in the web view; a second banner does not count a shown ad again', async () => {
    ads['article'] = [ad('b1', 'https://brand.test/spring')];
    renderApp(
      <>
        <AdBanner position="article" />
        <Where />
      </>,
    );
    fireEvent.click(await screen.findByRole('img', { name: 'Ad b1' }));
    await vi.waitFor(() =>
      expect(where()).toBe(`/public/web-view?url=${encodeURIComponent('https://brand.test/spring')}&title=`),
    );
    cleanup();
    renderApp(<AdBanner position="article" />);
    await screen.findByRole('img', { name: 'Ad b1' });
    await vi.waitFor(() => expect(clicks.filter((c) => c['zhanshi'] === 0)).toHaveLength(1));
    // Shown once in this run of the app, whatever the pages: one showing counted.
    expect(clicks.filter((c) => c['id'] === 'b1' && c['zhanshi'] === 1)).toHaveLength(1);
  });
});
