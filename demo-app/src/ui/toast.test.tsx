// @vitest-environment jsdom
import { act, waitFor } from '@testing-library/react';
import { Toast } from 'antd-mobile';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { installAntdRender } from './antd-render';
import { TOAST_Z_INDEX, toast, toastError } from './toast';

beforeAll(() => installAntdRender());
afterEach(() => act(() => Toast.clear()));

/** The toast's mask on screen, once antd-mobile has rendered it. */
const mask = () => document.querySelector<HTMLElement>('.adm-toast-mask');

describe('toasts (spec §9)', () => {
  it.each([
    ['toast', toast],
    ['toastError', toastError],
  ])('%s shows its text on a layer at z-index 10090, above dialogs and popups', async (_name, show) => {
    act(() => show('Saved'));
    await waitFor(() => expect(mask()?.textContent).toContain('Saved'));
    expect(TOAST_Z_INDEX).toBe(10090);
    expect(mask()?.style.getPropertyValue('--z-index')).toBe('10090');
  });
});
