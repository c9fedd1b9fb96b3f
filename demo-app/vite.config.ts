import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The SDK comes from this repository's source, so the app needs no SDK build (same aliases in tsconfig paths). */
export const sdkAliases = {
  'parley-im/react': fileURLToPath(new URL('../src/react/index.ts', import.meta.url)),
  'parley-im': fileURLToPath(new URL('../src/index.ts', import.meta.url)),
};

// The Parley server serves the built app under /h5/ (product spec §2). In `vite` dev mode the API and the
// messaging socket go to a Parley server on port 3000.
export default defineConfig({
  base: '/h5/',
  plugins: [react()],
  resolve: { alias: sdkAliases },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 700 },
  server: {
    proxy: {
      '/index.php': 'http://127.0.0.1:3000',
      '/socket.io': { target: 'ws://127.0.0.1:3000', ws: true },
    },
  },
});
