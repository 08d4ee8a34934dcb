import { defineConfig } from '@playwright/test';

/** Debian's Chromium, never a downloaded browser (no network here); one worker on a 2-core machine. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--autoplay-policy=no-user-gesture-required',
];

export default defineConfig({
  testDir: './specs',
  outputDir: './artifacts/test-output',
  globalSetup: './global-setup.ts',
  workers: 1,
  fullyParallel: false,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    viewport: { width: 1366, height: 860 },
    colorScheme: 'dark',
    // Colours and opacities then change at once (base.css): axe never samples a button or a theme half-way
    // through its transition, which made color-contrast fail at random.
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
