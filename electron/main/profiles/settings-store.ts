/** A small persistent key -> JSON value map: electron-store in Electron, a JSON file in browser mode. */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';

/** The part of electron-store the profiles use; `createJsonSettingsStore` is the browser-mode twin. */
export interface SettingsStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
}

/** A settings store kept in one JSON file, replaced atomically on every change. */
export function createJsonSettingsStore({ path }: { path: string }): SettingsStore {
  let data: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      data = parsed as Record<string, unknown>;
  } catch {
    // Missing or unreadable: start empty; the next write replaces it whole.
  }
  return {
    get: (key) => (Object.hasOwn(data, key) ? structuredClone(data[key]) : undefined),
    set(key, value) {
      data = { ...data, [key]: structuredClone(value) };
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      writeFileAtomic.sync(path, JSON.stringify(data, null, 2), { mode: 0o600 });
    },
  };
}

/** A settings store in memory, for tests. */
export function createMemorySettingsStore(initial: Record<string, unknown> = {}): SettingsStore {
  const data = new Map(Object.entries(structuredClone(initial)));
  return {
    get: (key) => structuredClone(data.get(key)),
    set: (key, value) => void data.set(key, structuredClone(value)),
  };
}
