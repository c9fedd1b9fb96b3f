// @vitest-environment jsdom
import { act } from '@testing-library/react';
import { Toast } from 'antd-mobile';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { installAntdRender } from '../../ui/antd-render';
import { ApiError, LOADING_DELAY_MS, REQUEST_TIMEOUT_MS, apiPost, isRefusal } from './request';

/** A fetch whose answer the test gives, when it chooses; it fails like the browser's when aborted. */
function stubFetch() {
  const calls: { url: string; body: Record<string, unknown> }[] = [];
  let answer: ((response: Response) => void) | undefined;
  vi.stubGlobal(
    'fetch',
    vi.fn(
      (url: string, init: RequestInit) =>
        new Promise<Response>((resolve, reject) => {
          calls.push({ url, body: JSON.parse(init.body as string) as Record<string, unknown> });
          answer = resolve;
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    ),
  );
  return {
    calls,
    respond(body: unknown, status = 200) {
      answer?.(new Response(typeof body === 'string' ? body : JSON.stringify(body), { status }));
    },
  };
}

/** The loading toast, when it is on screen (antd-mobile hides a closed mask with display none). */
const loadingToast = () =>
  [...document.querySelectorAll<HTMLElement>('.adm-toast-mask')].find(
    (mask) => mask.style.display !== 'none' && mask.querySelector('.adm-toast-loading') !== null,
  ) ?? null;

/** Whether the helper has asked for a loading toast (the toast fades in over a few frames after that). */
const loadingToastAsked = () =>
  vi.mocked(Toast.show).mock.calls.some(([props]) => typeof props === 'object' && props.icon === 'loading');

/** Long enough for antd-mobile to render or remove a toast (it animates over a few frames). */
const RENDER_MS = 500;

/** Moves the fake clock and lets React render what the timers started. */
async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

/** How a call settled, without awaiting it. */
function track<T>(promise: Promise<T>) {
  const state: { value?: T; error?: unknown; settled: boolean } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { value, settled: true }),
    (error: unknown) => Object.assign(state, { error, settled: true }),
  );
  return state;
}

// One fake clock for the file: antd-mobile's animation loop keeps the requestAnimationFrame it first saw.
beforeAll(() => {
  installAntdRender();
  vi.useFakeTimers();
});
beforeEach(() => {
  vi.spyOn(Toast, 'show');
});
afterEach(async () => {
  await advance(RENDER_MS);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
afterAll(() => {
  vi.useRealTimers();
});

describe('the API helper (spec §7)', () => {
  it('POSTs to index.php/api/ with app, i18n and the token', async () => {
    const fetch = stubFetch();
    const call = track(apiPost('member/info', { a: 1 }, { token: 'tok', locale: 'en' }));
    fetch.respond({ ret: { id: '7' } });
    await advance(0);
    expect(call.value).toEqual({ ret: { id: '7' } });
    expect(fetch.calls[0]?.url).toBe('/index.php/api/member/info');
    expect(fetch.calls[0]?.body).toMatchObject({
      a: 1,
      token: 'tok',
      app: { platform: 'h5', versionCode: 108 },
      i18n: { locale: 'en', appLanguage: 'en' },
    });
  });

  it(`shows the loading toast only once a call has taken ${LOADING_DELAY_MS} ms, and clears it with the answer`, async () => {
    const fetch = stubFetch();
    const call = track(apiPost('member/send_code', {}, { locale: 'en' }, { loading: true }));
    await advance(LOADING_DELAY_MS - 1);
    expect(loadingToastAsked()).toBe(false);
    await advance(1);
    expect(loadingToastAsked()).toBe(true);
    await advance(RENDER_MS);
    expect(loadingToast()).not.toBeNull();
    fetch.respond({ ret: true });
    await advance(0);
    expect(call.value).toEqual({ ret: true });
    await advance(RENDER_MS);
    expect(loadingToast()).toBeNull();
  });

  it('shows no loading toast for a call that does not ask for one, or that answers in time', async () => {
    const fetch = stubFetch();
    track(apiPost('member/info', {}, { locale: 'en' }));
    await advance(LOADING_DELAY_MS * 2);
    expect(loadingToastAsked()).toBe(false);
    fetch.respond({ ret: true });

    const quick = stubFetch();
    track(apiPost('member/send_code', {}, { locale: 'en' }, { loading: true }));
    await advance(LOADING_DELAY_MS - 1);
    quick.respond({ ret: true });
    await advance(LOADING_DELAY_MS);
    expect(loadingToastAsked()).toBe(false);
  });

  it(`gives up after ${REQUEST_TIMEOUT_MS / 1000} s with a network error`, async () => {
    stubFetch();
    const call = track(apiPost('index/config', {}, { locale: 'en' }, { loading: true }));
    await advance(REQUEST_TIMEOUT_MS - 1 - RENDER_MS);
    await advance(RENDER_MS);
    expect(call.settled).toBe(false);
    expect(loadingToast()).not.toBeNull();
    await advance(1);
    expect(call.error).toBeInstanceOf(ApiError);
    expect(call.error).toMatchObject({ code: 'network', message: 'timeout', refused: false });
    await advance(RENDER_MS);
    expect(loadingToast()).toBeNull();
  });

  it('rejects an err answer as the server refusal, with its code', async () => {
    const fetch = stubFetch();
    const call = track(apiPost('member/info', {}, { locale: 'en' }));
    fetch.respond({ err: 'account expired', code: 'token_invalid' });
    await advance(0);
    expect(call.error).toMatchObject({ code: 'token_invalid', message: 'account expired', refused: true });
    expect(isRefusal(call.error)).toBe(true);

    const other = stubFetch();
    const uncoded = track(apiPost('member/info', {}, { locale: 'en' }));
    other.respond({ err: { reason: 'gone' } });
    await advance(0);
    expect(uncoded.error).toMatchObject({ code: 'unknown', message: '{"reason":"gone"}', refused: true });
  });

  it('counts only status 200 with a JSON object as an answer', async () => {
    for (const [body, status] of [
      [{ ret: true }, 500],
      ['<html>proxy error</html>', 200],
      ['null', 200],
    ] as const) {
      const fetch = stubFetch();
      const call = track(apiPost('index/config', {}, { locale: 'en' }));
      fetch.respond(body, status);
      await advance(0);
      expect(call.error).toMatchObject({ code: 'network', refused: false });
      expect(isRefusal(call.error)).toBe(false);
    }
  });
});
