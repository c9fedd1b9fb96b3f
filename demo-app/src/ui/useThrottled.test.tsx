// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Toast } from 'antd-mobile';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../i18n';
import { installAntdRender } from './antd-render';
import { THROTTLE_MS, useThrottled } from './useThrottled';

beforeAll(() => installAntdRender());
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  act(() => Toast.clear());
  cleanup();
  vi.useRealTimers();
});

function Likes({ onLike }: { onLike: () => Promise<void> }) {
  const like = useThrottled(onLike);
  return <button onClick={() => void like()}>Like</button>;
}

describe('useThrottled (spec §8, §9)', () => {
  it('runs once per 500 ms and never while a run is under way; a tap sooner says the operation is too fast', async () => {
    let finish = () => undefined as void;
    const onLike = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    render(
      <I18nextProvider i18n={createI18n('en')}>
        <Likes onLike={onLike} />
      </I18nextProvider>,
    );
    const tap = () => act(() => fireEvent.click(screen.getByRole('button', { name: 'Like' })));

    const shown = vi.spyOn(Toast, 'show');
    const tooFast = () =>
      shown.mock.calls.filter(([t]) => typeof t === 'object' && t.content === 'The operation is too fast');
    await tap();
    await tap();
    expect(onLike).toHaveBeenCalledTimes(1);
    expect(tooFast()).toHaveLength(1);
    // Still running after the 500 ms: refused all the same.
    await act(() => vi.advanceTimersByTimeAsync(THROTTLE_MS + 100));
    await tap();
    expect(onLike).toHaveBeenCalledTimes(1);
    await act(() => Promise.resolve(finish()));
    await tap();
    expect(onLike).toHaveBeenCalledTimes(2);
    await act(() => Promise.resolve(finish()));
    // Done, but within 500 ms of the last run.
    await act(() => vi.advanceTimersByTimeAsync(THROTTLE_MS - 100));
    await tap();
    expect(onLike).toHaveBeenCalledTimes(2);
    await act(() => vi.advanceTimersByTimeAsync(100));
    await tap();
    expect(onLike).toHaveBeenCalledTimes(3);
    expect(tooFast()).toHaveLength(3);
  });
});
