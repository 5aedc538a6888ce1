/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// One config for the app build and the test runner. The app is served under any
// /{issuer}/{locale}/account/ path, so assets are referenced from the root.
export default defineConfig({
  plugins: [react()],
  base: '/',
  resolve: {
    // RJSF's Markdown parser is never used by our forms (docs/decisions/0006): plain text instead.
    alias: [{ find: /^markdown-to-jsx\/react$/, replacement: fileURLToPath(new URL('./widgets/form-engine/plain-text-markdown.tsx', import.meta.url)) }],
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    target: 'es2022',
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/gateway/api': 'http://127.0.0.1:8080',
      '/offers': 'http://127.0.0.1:8080',
      '/offersdata': 'http://127.0.0.1:8080',
    },
  },
  test: {
    reporters: ['default', './tests/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/**/*.test.{ts,tsx}'],
          exclude: ['tests/e2e/**', 'node_modules/**'],
          environment: 'node',
          setupFiles: ['tests/support/testing-library-setup.ts'],
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
