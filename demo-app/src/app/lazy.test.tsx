// @vitest-environment jsdom
import { act, cleanup, screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../test-utils';
import { DelayedLoading } from '../ui/DelayedLoading';
import { CHUNK_TIMEOUT_MS, PAGE_LOADING_DELAY_MS, PAGE_LOAD_TIMEOUT_MS, PageFrame, lazyPage } from './lazy';

const LOADING = 'Loading…';
const CHUNK_FAILED = 'Failed to load chunk. Check your network and try again.';
const PAGE_TIMEOUT = 'The page took too long to load. Check your network and try again.';

/** A page chunk that arrives when the test says, or fails. */
function chunk() {
  let arrive: (module: { default: ComponentType }) => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  const promise = new Promise<{ default: ComponentType }>((resolve, reject) => {
    arrive = resolve;
    fail = reject;
  });
  return {
    page: lazyPage(() => promise),
    arrive: () => arrive({ default: () => <p>the page</p> }),
    fail: () => fail(new TypeError('Failed to fetch dynamically imported module')),
  };
}

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

const shown = (text: string) => screen.queryByText(text) !== null;

/** React reports an error a boundary caught on the console; the tests that cause one expect it. */
const quietBoundaryReport = () => vi.spyOn(console, 'error').mockImplementation(() => undefined);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('page loading (spec §2, §9)', () => {
  it(`shows nothing for ${PAGE_LOADING_DELAY_MS} ms, then the loading indicator, then the page`, async () => {
    const { page, arrive } = chunk();
    renderApp(<PageFrame page={page} />);
    await advance(PAGE_LOADING_DELAY_MS - 1);
    expect(shown(LOADING)).toBe(false);
    await advance(1);
    expect(shown(LOADING)).toBe(true);
    arrive();
    await advance(0);
    expect(shown('the page')).toBe(true);
    expect(shown(LOADING)).toBe(false);
  });

  it('never shows the indicator for a page that arrives within the delay', async () => {
    const { page, arrive } = chunk();
    renderApp(<PageFrame page={page} />);
    await advance(PAGE_LOADING_DELAY_MS - 1);
    arrive();
    await advance(PAGE_LOADING_DELAY_MS);
    expect(shown('the page')).toBe(true);
    expect(shown(LOADING)).toBe(false);
  });

  it(`shows the page-load failure after ${PAGE_LOAD_TIMEOUT_MS / 1000} s, and the page if it still arrives`, async () => {
    const { page, arrive } = chunk();
    renderApp(<PageFrame page={page} />);
    await advance(PAGE_LOAD_TIMEOUT_MS - 1);
    expect(shown(LOADING)).toBe(true);
    expect(shown(PAGE_TIMEOUT)).toBe(false);
    await advance(1);
    expect(shown(PAGE_TIMEOUT)).toBe(true);
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    arrive();
    await advance(0);
    expect(shown('the page')).toBe(true);
  });

  it(`gives "failed to load chunk" when the chunk has not arrived after ${CHUNK_TIMEOUT_MS / 1000} s`, async () => {
    quietBoundaryReport();
    const { page, arrive } = chunk();
    renderApp(<PageFrame page={page} />);
    await advance(CHUNK_TIMEOUT_MS - 1);
    expect(shown(CHUNK_FAILED)).toBe(false);
    await advance(1);
    expect(shown(CHUNK_FAILED)).toBe(true);
    expect(shown(PAGE_TIMEOUT)).toBe(false);
    // Too late: the page stays failed until the user retries.
    arrive();
    await advance(0);
    expect(shown('the page')).toBe(false);
  });

  it('gives "failed to load chunk" when the chunk cannot be fetched', async () => {
    quietBoundaryReport();
    const { page, fail } = chunk();
    renderApp(<PageFrame page={page} />);
    fail();
    await advance(0);
    expect(shown(CHUNK_FAILED)).toBe(true);
  });

  it('gives "unknown error", not a chunk failure, when a loaded page throws', async () => {
    quietBoundaryReport();
    const Broken = () => {
      throw new Error('bug in the page');
    };
    renderApp(<PageFrame page={lazyPage(() => Promise.resolve({ default: Broken }))} />);
    await advance(0);
    expect(shown('Unknown error')).toBe(true);
    expect(shown(CHUNK_FAILED)).toBe(false);
  });
});

describe('the delayed loading indicator (spec §9)', () => {
  it('appears after 800 ms by default', async () => {
    renderApp(<DelayedLoading />);
    await advance(799);
    expect(screen.queryByRole('status')).toBeNull();
    await advance(1);
    expect(screen.getByRole('status').textContent).toBe(LOADING);
  });
});
