import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';

// Unit and integration tests run under Node 24; integration tests start the sandbox on 127.0.0.1.
export default defineConfig({
  plugins: [vue()],
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'electron/**/*.test.ts',
            'shared/**/*.test.ts',
            'renderer/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
        },
      },
      // The download integration tests again, against the sandbox's HTTPS mode (its certificate as the one CA).
      {
        extends: true,
        test: {
          name: 'https',
          include: ['electron/main/downloads/downloads.test.ts'],
          env: { TAKEDESK_TEST_HTTPS: '1' },
        },
      },
    ],
  },
});
