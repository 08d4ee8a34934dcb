import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import vue from '@vitejs/plugin-vue';

const root = import.meta.dirname;

/** Ships the MP3 decoder (libmpg123 built to WebAssembly) and its LGPL-2.1 terms in out/main beside the entries. */
function mpg123Wasm(): Plugin {
  const dir = resolve(root, 'electron/main/audio/mpg123');
  return {
    name: 'takedesk-mpg123-wasm',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'mpg123.wasm',
        source: readFileSync(resolve(dir, 'mpg123.wasm')),
      });
      this.emitFile({
        type: 'asset',
        fileName: 'mpg123-COPYING.txt',
        source: readFileSync(resolve(dir, 'COPYING')),
      });
    },
  };
}

// One build tool for all three targets: main (Node 24 in Electron 45), preload (sandboxed, CommonJS), renderer.
export default defineConfig({
  main: {
    plugins: [mpg123Wasm()],
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(root, 'electron/main/app/index.ts'),
          'audio-worker': resolve(root, 'electron/main/audio/worker.ts'),
          'follow-thread.worker': resolve(root, 'electron/main/downloads/follow-thread.worker.ts'),
          'transfer-thread.worker': resolve(root, 'electron/main/downloads/transfer-thread.worker.ts'),
          // The embedded sandbox's process (Electron utilityProcess), the same program as `npm run sandbox`.
          sandbox: resolve(root, 'electron/sandbox/cli.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(root, 'electron/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'renderer'),
    plugins: [vue()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      emptyOutDir: true,
      // electron-vite leaves the renderer unminified unless asked; the page's first load is what the producer waits
      // for (the initial-JS budget is asserted in e2e/specs/z-budgets.spec.ts).
      minify: true,
      rollupOptions: {
        input: resolve(root, 'renderer/index.html'),
        // zod and its jitless switch in one chunk: every chunk that builds schemas imports it, so the switch is set
        // before any schema exists (inlined in the entry, it would run after the chunks the entry imports).
        output: {
          manualChunks: (id) =>
            /[\\/]node_modules[\\/]zod[\\/]|zod-config\.ts$/u.test(id) ? 'zod' : undefined,
        },
      },
    },
  },
});
