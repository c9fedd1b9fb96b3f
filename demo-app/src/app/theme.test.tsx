// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import Settings from '../pages/member/sz';
import { renderApp } from '../test-utils';

/** A matchMedia double whose dark preference the test sets. */
function fakeColorScheme(dark: boolean) {
  window.matchMedia = vi.fn().mockImplementation((query: string) => ({
    matches: query.includes('dark') ? dark : false,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

const isDark = () => document.documentElement.classList.contains('dark');

beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe('dark mode (spec §4)', () => {
  it('follows prefers-color-scheme by default', () => {
    fakeColorScheme(true);
    renderApp(<Settings />);
    expect(isDark()).toBe(true);
    expect(document.documentElement.getAttribute('data-prefers-color-scheme')).toBe('dark');
    cleanup();
    fakeColorScheme(false);
    renderApp(<Settings />);
    expect(isDark()).toBe(false);
  });

  it('is switched in settings and the choice is persisted', () => {
    fakeColorScheme(false);
    renderApp(<Settings />);
    act(() => {
      fireEvent.click(screen.getByText('On'));
    });
    expect(isDark()).toBe(true);
    expect(localStorage.getItem('dark_mode')).toBe('dark');
    act(() => {
      fireEvent.click(screen.getByText('Off'));
    });
    expect(isDark()).toBe(false);
    cleanup();
    fakeColorScheme(true);
    renderApp(<Settings />);
    expect(isDark()).toBe(false);
  });
});
