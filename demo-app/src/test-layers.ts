import { act } from '@testing-library/react';
import { Dialog, Toast } from 'antd-mobile';

/** What an open toast or dialog leaves in the document until its root unmounts. */
const OPEN_LAYER = '.adm-toast-mask, .adm-center-popup-wrap';

/** Closes every toast and dialog, and waits (at most a second) until their roots have unmounted. */
export async function closeLayers(): Promise<void> {
  Toast.clear();
  Dialog.clear();
  const until = Date.now() + 1000;
  while (document.querySelector(OPEN_LAYER) && Date.now() < until) {
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
  }
}
