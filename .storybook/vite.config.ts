// Vite settings for Storybook only (the library builds use the root vite.config.ts).
import { defineConfig } from 'vite';

export default defineConfig({
  build: { target: 'es2022', chunkSizeWarningLimit: 4000 },
  esbuild: { target: 'es2022' },
});
