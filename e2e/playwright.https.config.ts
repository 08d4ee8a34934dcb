import { defineConfig } from '@playwright/test';
import base from './playwright.config';

// The same world with the sandbox on HTTPS (global-setup passes the environment to e2e/serve.ts): the Sandbox profile
// trusts the sandbox's certificate and nothing else does. The specs that cross main -> service the most run here.
process.env.TAKEDESK_E2E_HTTPS = '1';

export default defineConfig({
  ...base,
  testMatch: ['downloads-library.spec.ts', 'review.spec.ts'],
  outputDir: './artifacts/test-output-https',
});
