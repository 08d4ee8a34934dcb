import { defineConfig } from '@playwright/test';

/** The Electron smoke test (e2e/electron): Playwright's Electron launcher on the built app; no browser, no global setup. */
export default defineConfig({
  testDir: './electron',
  outputDir: './artifacts/electron-output',
  workers: 1,
  timeout: 180_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: { trace: 'retain-on-failure', screenshot: 'only-on-failure' },
});
