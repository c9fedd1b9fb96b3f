// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import UserIndex from '../../pages/user/index';
import { NO_ADS, Where, renderApp, shows } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import { scanTarget } from './scan';
import { setupServer } from 'msw/node';
import { http, HttpResponse } from 'msw';

const HERE = { origin: 'https://app.test', pathname: '/h5/' };
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/member/info', () => HttpResponse.json({ ret: { id: '42' }, otp: null })),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('scanTarget: where a scanned code leads', () => {
  it('opens this app’s links as its pages, other links in the web view, and shows anything else', () => {
    expect(scanTarget('https://app.test/h5/#/user/scan-login?ticket=abc', HERE)).toEqual({
      kind: 'app',
      path: '/user/scan-login?ticket=abc',
    });
    expect(scanTarget('  https://app.test/h5/#/shop/view?id=1 \n', HERE)).toEqual({
      kind: 'app',
      path: '/shop/view?id=1',
    });
    // Another site, or this host under another path, is not this app.
    expect(scanTarget('https://evil.test/h5/#/user/scan-login?ticket=abc', HERE)).toEqual({
      kind: 'web',
      url: 'https://evil.test/h5/#/user/scan-login?ticket=abc',
    });
    expect(scanTarget('https://app.test/other/#/x', HERE)).toMatchObject({ kind: 'web' });
    expect(scanTarget('WIFI:S:home;T:WPA;P:secret;;', HERE)).toEqual({
      kind: 'text',
      text: 'WIFI:S:home;T:WPA;P:secret;;',
    });
    expect(scanTarget('javascript:alert(1)', HERE)).toMatchObject({ kind: 'text' });
  });
});

const openMine = () =>
  renderApp(
    <Routes>
      <Route path="/pages/user/index" element={<UserIndex />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { path: '/pages/user/index' },
  );

describe('the user tab’s Scan', () => {
  it('says QR is not supported where the browser cannot scan', async () => {
    openMine();
    fireEvent.click(screen.getByRole('button', { name: 'Scan' }));
    await shows('QR not supported, operate in the app');
    expect(screen.queryByRole('dialog', { name: 'Scan a QR code' })).toBeNull();
  });

  it('reads a sign-in code with the camera, opens its page and stops the camera', async () => {
    const stop = vi.fn();
    const getUserMedia = vi.fn(() => Promise.resolve({ getTracks: () => [{ stop }] }));
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia } });
    const code = `${window.location.origin}${window.location.pathname}#/user/scan-login?ticket=${'t'.repeat(32)}`;
    const detect = vi
      .fn<() => Promise<{ rawValue: string }[]>>()
      .mockResolvedValueOnce([])
      .mockResolvedValue([{ rawValue: code }]);
    vi.stubGlobal(
      'BarcodeDetector',
      class {
        detect = detect;
      },
    );
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    vi.spyOn(HTMLMediaElement.prototype, 'readyState', 'get').mockReturnValue(4);
    localStorage.setItem('user', JSON.stringify({ token: 'member-token', id: '42', username: 'Alice', img: '' }));
    openMine();
    fireEvent.click(screen.getByRole('button', { name: 'Scan' }));
    expect(screen.getByRole('dialog', { name: 'Scan a QR code' })).toBeTruthy();
    await vi.waitFor(() =>
      expect(screen.getByTestId('where').textContent).toBe(`/user/scan-login?ticket=${'t'.repeat(32)}`),
    );
    expect(getUserMedia).toHaveBeenCalledWith({ video: { facingMode: 'environment' }, audio: false });
    expect(detect).toHaveBeenCalledTimes(2);
    expect(stop).toHaveBeenCalled();
  });

  it('says so and closes when the camera is refused', async () => {
    vi.stubGlobal('navigator', {
      ...navigator,
      mediaDevices: { getUserMedia: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) },
    });
    vi.stubGlobal(
      'BarcodeDetector',
      class {
        detect = () => Promise.resolve([]);
      },
    );
    openMine();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Scan' }));
      await Promise.resolve();
    });
    await shows('The camera cannot be used: check the permission');
    expect(screen.queryByRole('dialog', { name: 'Scan a QR code' })).toBeNull();
  });
});
