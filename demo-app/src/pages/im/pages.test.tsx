// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { ReactNode } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONFIG_KEY } from '../../features/api/config';
import { renderApp, NO_ADS } from '../../test-utils';
import ImConsole from './console';
import ImIndex from './index';
import ImView from './view';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '', cs_teams: [{ id: 'service', name: '' }] };

// The config names no messaging app, so that no connection is attempted.
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/index/config', () =>
    HttpResponse.json({
      ret: { kefu_h5: '', emoji: {}, aliyun: { upload_url: '' }, app_show: true, im: { appkey: '' } },
    }),
  ),
);

beforeAll(() => api.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
});
afterEach(cleanup);
afterAll(() => api.close());

describe('im/view', () => {
  it('says "cannot message yourself" for a chat with oneself, with no composer', () => {
    renderApp(<ImView />, { path: '/im/view?uid=42' });
    expect(screen.getByText('You cannot message yourself')).toBeTruthy();
    expect(screen.queryByPlaceholderText('Say something…')).toBeNull();
    cleanup();
    renderApp(<ImView />, { path: '/im/view?uid=42', language: 'zh-CN' });
    expect(screen.getByText('不能给自己发消息')).toBeTruthy();
  });
});

const PAGES: Array<[string, string, ReactNode]> = [
  ['im/index', '/im/index', <ImIndex key="index" />],
  ['im/view', '/im/view?uid=7', <ImView key="view" />],
  ['im/console', '/im/console', <ImConsole key="console" />],
];

describe.each(PAGES)('%s without a messaging client', (_name, path, page) => {
  it('says the server could not be reached when the config failed, and retries; then that messaging is off', async () => {
    const { queryClient } = renderApp(page, { path });
    await act(async () => {
      await queryClient.prefetchQuery({ queryKey: CONFIG_KEY, queryFn: () => Promise.reject(new Error('offline')) });
    });
    expect(await screen.findByText('Could not reach the server')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Messaging is not available')).toBeTruthy();
    expect(screen.queryByText('Could not reach the server')).toBeNull();
  });
});
