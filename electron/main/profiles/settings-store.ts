/** A small persistent key -> JSON value map: electron-store in Electron, a JSON file in browser mode. */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { recoverStateFile, type StateNotices } from '../kernel/state-recovery';
import { StoredQaTargets } from '../library';
import { StoredProfiles } from './profiles';
import { StoredPreferences } from './settings';

/** The settings store's file (browser mode's JSON file, Electron's `settings.json`): every key on its own. */
export const SettingsFileSchema = z
  .object({
    preferences: StoredPreferences.optional(),
    profiles: StoredProfiles.partial().optional(),
    qaTargets: StoredQaTargets.optional(),
  })
  .catchall(z.unknown());

/** The part of electron-store the profiles use; `createJsonSettingsStore` is the browser-mode twin. */
export interface SettingsStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
}

/** A settings store kept in one JSON file, replaced atomically on every change. */
export function createJsonSettingsStore({
  path,
  notices,
}: {
  path: string;
  /** Told what was reset when the file was damaged. */
  notices?: StateNotices;
}): SettingsStore {
  // A damaged file keeps a copy and costs only its bad values (state-recovery.ts); what is left is written back
  // at once, after the copy, so the next start reads a sound file and the user is told once.
  const recovered = recoverStateFile(path, SettingsFileSchema, { notices, label: 'The settings file' });
  let data: Record<string, unknown> = recovered.value ?? {};
  if (recovered.damaged) {
    try {
      write();
    } catch {
      // A folder we cannot write: the recovered values are used in memory; the copy is kept either way.
    }
  }
  function write(): void {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileAtomic.sync(path, JSON.stringify(data, null, 2), { mode: 0o600 });
  }
  return {
    get: (key) => (Object.hasOwn(data, key) ? structuredClone(data[key]) : undefined),
    set(key, value) {
      data = { ...data, [key]: structuredClone(value) };
      write();
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
