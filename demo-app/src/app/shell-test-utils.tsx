import { QueryClient } from '@tanstack/react-query';
import { act, cleanup, render } from '@testing-library/react';
import { Dialog, Toast } from 'antd-mobile';
import type { Transport } from 'parley-im';
import type { Root } from 'react-dom/client';
import { HashRouter } from 'react-router';
import type { AppConfig } from '../features/api/config';
import { createI18n, type Language } from '../i18n';
import { AppProviders, Shell } from './App';

/** An `index/config` answer for tests; `im.appkey` empty keeps messaging off. */
export function testConfig(changes: Partial<AppConfig> = {}): AppConfig {
  return { kefu_h5: '', emoji: {}, aliyun: { upload_url: '' }, app_show: true, im: { appkey: '' }, ...changes };
}

// jsdom follows a click on an <a> without href to the document's URL, which drops the hash route; browsers do
// nothing. antd-mobile's clickable List.Item and its action sheet's buttons are such anchors. Capturing, because
// antd-mobile's popups stop the click from bubbling.
document.addEventListener(
  'click',
  (event) => {
    if (event.target instanceof Element && event.target.closest('a:not([href])')) event.preventDefault();
  },
  { capture: true },
);

/**
 * The whole app opened at the hash route `path`, as the browser runs it (hash history, the real route table and
 * lazy pages), with a fresh query cache that does not retry unless a query says so.
 */
export function renderShell({
  path,
  language = 'en',
  transport,
}: {
  path: string;
  language?: Language;
  transport?: Transport;
}) {
  // A fresh history entry without React Router's index: the app was opened on this page.
  window.history.replaceState(null, '', `#${path}`);
  const i18n = createI18n(language);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const result = render(
    <AppProviders i18n={i18n} queryClient={queryClient} {...(transport ? { transport } : {})}>
      <HashRouter>
        <Shell />
      </HashRouter>
    </AppProviders>,
  );
  return { ...result, i18n, queryClient };
}

/** The hash route the app shows now, e.g. `/user/login?redirect=...`. */
export const currentRoute = () => window.location.hash.replace(/^#/, '');

/**
 * Unmounts the app and removes the dialogs and toasts it left: antd-mobile renders those outside the app and takes
 * them away only after their closing animation, which must not leak into the next test.
 */
export function cleanupShell(): void {
  cleanup();
  act(() => {
    Dialog.clear();
    Toast.clear();
  });
  // Layers antd-mobile shows by themselves (an action sheet still closing, a dialog leaving) are React roots of their
  // own, whose popups portal into the body: unmounted now, while their nodes are still there to remove, so that none
  // throws later removing them from a body already emptied.
  for (const host of [...document.body.children] as Array<Element & { _root?: Root }>) {
    const root = host._root;
    delete host._root;
    act(() => root?.unmount());
  }
  document.body.replaceChildren();
}
