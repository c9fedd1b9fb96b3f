/**
 * Setup of every test file (vitest.config.ts `setupFiles`). In the app's component tests, antd-mobile's toasts and
 * dialogs live in roots of their own, outside what `cleanup` unmounts, and close on timers: one still open when a
 * file ends would render after its document is gone. After each test they are closed while the document exists.
 */
import { afterEach } from 'vitest';

afterEach(async () => {
  if (typeof document === 'undefined') return;
  const { closeLayers } = await import('./test-layers');
  await closeLayers();
});
