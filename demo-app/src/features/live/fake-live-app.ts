/**
 * The whole app as the live pages' tests run it: the product API of {@link fakeLive} (with the config naming a
 * messaging app, `member/info` handing out an otp, and the front page's calls for where a closed page goes) over msw,
 * and the messaging server of {@link fakeChannels} (with the SDK tests' IM server) behind the app's real messaging
 * client. `holdOtp` keeps `member/info` from answering, so that messaging does not connect, until its release is
 * called. Call it at a test file's top level and `listen` in `beforeAll`.
 */
import { act, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { expect } from 'vitest';
import { fakeIm } from '../../../../test/support/fake-im';
import { FakeServer } from '../../../../test/support/fake-server';
import { renderShell, testConfig } from '../../app/shell-test-utils';
import { NO_ADS } from '../../test-utils';
import { fakeChannels, type FakeChannels } from './fake-channels';
import { ALICE, fakeLive } from './fake-live';

/** The signed-in member of the live pages' tests: Alice, 42. */
export const LIVE_USER = { token: 'alice-token', id: ALICE.id, username: ALICE.username, img: ALICE.img };

export function fakeLiveApp() {
  let channels: FakeChannels = fakeChannels();
  const live = fakeLive((channel, event) => channels.publish(channel, event));
  let otpHeld: Promise<void> | undefined;
  let configured = false;
  const api = setupServer(
    NO_ADS,
    ...live.handlers,
    http.post('*/index.php/api/index/config', () => {
      configured = true;
      return HttpResponse.json({ ret: testConfig({ im: { appkey: 'product-app' } }) });
    }),
    http.post('*/index.php/api/member/info', async () => {
      await otpHeld;
      return HttpResponse.json({ ret: { id: ALICE.id, username: ALICE.username, img: ALICE.img }, otp: 'otp-1' });
    }),
    http.post('*/index.php/api/article/list', () => HttpResponse.json({ ret: [] })),
    http.post('*/index.php/api/article/typeid', () => HttpResponse.json({ ret: { mine: [], more: [] } })),
  );
  return {
    api,
    live,
    get channels() {
      return channels;
    },
    /** A new messaging server and no rooms; Alice signed in. */
    reset() {
      live.reset();
      channels = fakeChannels(new FakeServer());
      fakeIm(channels.server, ALICE.id);
      otpHeld = undefined;
      configured = false;
      localStorage.clear();
      localStorage.setItem('user', JSON.stringify(LIVE_USER));
    },
    /** Keeps `member/info` (and so messaging) waiting; returns the release. */
    holdOtp(): () => void {
      let release = () => undefined as void;
      otpHeld = new Promise<void>((resolve) => (release = resolve));
      return release;
    },
    /**
     * Opens the app at `path`, and waits until the config has named the messaging app: the app then puts the
     * messaging provider around its pages, which mounts them anew.
     */
    async open(path: string) {
      const view = renderShell({ path, transport: channels.server.transport });
      await waitFor(() => expect(configured).toBe(true));
      await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
      return view;
    },
  };
}
