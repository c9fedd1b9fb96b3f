import { defineConfig } from 'vitest/config';

// End-to-end tests: a real browser against the built app (`npm run test:e2e` builds it first).
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
