import { act } from '@testing-library/react';
import { Dialog, Toast } from 'antd-mobile';
import type { Root } from 'react-dom/client';

/** What an open toast or dialog leaves in the document until its root unmounts. */
const OPEN_LAYER = '.adm-toast-mask, .adm-center-popup-wrap';

/**
 * Closes every toast and dialog, and waits (at most a second) until their roots have unmounted. A layer still there
 * then is unmounted at once: its closing animation runs on jsdom's animation frames, which a loaded machine can starve
 * for longer, and the next layer a test opens must be the only one shown.
 */
export async function closeLayers(): Promise<void> {
  Toast.clear();
  Dialog.clear();
  const until = Date.now() + 1000;
  while (document.querySelector(OPEN_LAYER) && Date.now() < until) {
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
  }
  for (const layer of document.querySelectorAll(OPEN_LAYER)) {
    // The container antd-mobile rendered the layer into, with the root `installAntdRender` gave it.
    let host: (Element & { _root?: Root }) | null = layer.parentElement;
    while (host && host.parentElement !== document.body) host = host.parentElement;
    if (!host) continue;
    const root = host._root;
    delete host._root;
    act(() => root?.unmount());
    host.remove();
  }
}
