import { QueryClient } from '@tanstack/react-query';
import { act, render, screen, type RenderResult } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { expect, vi } from 'vitest';
import { AppProviders } from './app/App';
import { createI18n, type Language } from './i18n';
import { THROTTLE_MS } from './ui/useThrottled';

/** Renders `ui` inside the app's providers and a memory router at `path`, in `language`. */
export function renderApp(ui: ReactNode, { path = '/', language = 'en' }: { path?: string; language?: Language } = {}) {
  const i18n = createI18n(language);
  // No retries and no network: component tests never reach a server.
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, enabled: false } } });
  const result: RenderResult = render(
    <AppProviders i18n={i18n} queryClient={queryClient}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </AppProviders>,
  );
  return { ...result, i18n, queryClient };
}

/** Waits until the screen shows `text`. */
export async function shows(text: string | RegExp): Promise<void> {
  await vi.waitFor(() => expect(screen.getByText(text)).toBeTruthy());
}

/**
 * Moves the clock the app's buttons read past their 500 ms throttle (spec §9), so that a second tap counts: only
 * `Date` is faked, from now on, so that nothing else waits. Undo it with `vi.useRealTimers()` after the test.
 */
export function passThrottle(): void {
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
  vi.setSystemTime(Date.now() + THROTTLE_MS);
}

/** Runs `work` (a click, a change) inside `act`, so that what it sets off has rendered when it returns. */
export async function step(work: () => unknown = () => undefined): Promise<void> {
  await act(async () => {
    await work();
  });
}

/** Shows where the app went: the memory router's path and query, as `where`. */
export function Where() {
  const location = useLocation();
  return <div data-testid="where">{location.pathname + location.search}</div>;
}

/**
 * The fake server's answers an image upload needs: the app config naming `uploadUrl` as the storage (the server's
 * own, which resizes images), and the signed
 * form of `member/qiniu_token` for member 42 (msw handlers, to spread into `setupServer`).
 */
export function uploadHandlers(uploadUrl: string) {
  return [
    http.post('*/index.php/api/index/config', () =>
      HttpResponse.json({
        ret: {
          kefu_h5: '',
          emoji: {},
          aliyun: { upload_url: uploadUrl, image_resize: true },
          app_show: true,
          im: { appkey: '' },
        },
      }),
    ),
    http.post('*/index.php/api/member/qiniu_token', () =>
      HttpResponse.json({
        ret: 'appkey:signature:policy',
        upload_url: uploadUrl,
        fields: { token: 'appkey:signature:policy' },
        key_prefix: 'product/abc/42/parley_',
        url_prefix: `${uploadUrl}/`,
        expires_at: 0,
      }),
    ),
  ];
}

/** The banners' ads, none: every tab page asks for its banner (`ad/list`); spread first into `setupServer`. */
export const NO_ADS = http.post('*/index.php/api/ad/list', () => HttpResponse.json({ ret: [] }));
