import { defineConfig } from 'vite';

// The Parley server serves the built app under /h5/ (product spec §2).
export default defineConfig({
  base: '/h5/',
  build: { outDir: 'dist', emptyOutDir: true },
});
