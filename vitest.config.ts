import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';

// Unit and integration tests run under Node 24; integration tests start the sandbox on 127.0.0.1.
export default defineConfig({
  plugins: [vue()],
  test: {
    include: [
      'electron/**/*.test.ts',
      'shared/**/*.test.ts',
      'renderer/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
