import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** Where a worker entry lives from source (a .ts file) and in the bundle (a .js file in out/main). */
export interface WorkerEntryNames {
  /** Path of the TypeScript entry relative to the caller's module, e.g. './worker.ts'. */
  source: string;
  /** File name of the bundled entry, e.g. 'audio-worker.js' (an input of electron.vite.config.ts). */
  bundled: string;
}

/**
 * Finds a file the bundle ships beside its entries (a worker entry, mpg123.wasm): from source (vitest, tsx) it is
 * `source` beside the caller; electron-vite emits it in out/main next to index.js, so a caller inside a shared
 * chunk looks one level up too.
 */
export function resolveBundledFile(names: WorkerEntryNames, from: string): URL | null {
  if (from.endsWith('.ts')) return new URL(names.source, from);
  for (const dir of ['./', '../']) {
    const url = new URL(dir + names.bundled, from);
    if (existsSync(fileURLToPath(url))) return url;
  }
  return null;
}

/** Finds a worker entry (see resolveBundledFile). */
export const resolveWorkerEntry = resolveBundledFile;

/** Starts a worker thread on a bundled .js entry, or on a .ts entry through tsx (source mode). */
export function startWorker(entry: URL): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry);
  const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href;
  const code = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(code, { eval: true });
}
