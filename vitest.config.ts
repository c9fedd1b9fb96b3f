import { defineConfig } from 'vitest/config';
import { sdkAliases } from './demo-app/vite.config.js';

export default defineConfig({
  // The app's component tests (demo-app/src/**/*.test.tsx) need JSX and the app's `parley-im` aliases.
  esbuild: { jsx: 'automatic' },
  resolve: { alias: sdkAliases },
  test: {
    include: ['test/**/*.test.ts', 'server/test/**/*.test.ts', 'demo-app/src/**/*.test.tsx'],
    // Closes the app's toasts and dialogs after each component test (a no-op without a document).
    setupFiles: ['./demo-app/src/test-setup.ts'],
    // antd-mobile's modules import their CSS; inlined, vite handles those imports instead of Node.
    server: { deps: { inline: ['antd-mobile'] } },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    typecheck: {
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
  },
});
