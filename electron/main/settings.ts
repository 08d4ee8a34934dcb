import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { BULK_FORMATS } from '../../shared/ipc/project-downloads';
import { SettingsSchema, type Settings } from '../../shared/ipc/settings';
import { localError } from './local-error';
import { salvage } from './state-recovery';
import type { SettingsStore } from './profiles/settings-store';

const KEY = 'preferences';

/** The preferences as kept in the settings store: any field may be missing (a default fills it in). */
export const StoredPreferences = SettingsSchema.partial();

export interface SettingsService {
  get(): Promise<Settings>;
  set(patch: Partial<Settings>): Promise<Settings>;
  /** Synchronous read for hot paths (download concurrency, library root). */
  current(): Settings;
}

/** Where downloads go unless the producer picks another folder. */
export function defaultLibraryDir(home = homedir()): string {
  return join(home, 'Takedesk Library');
}

/** Preferences in the settings store, defaults filled in, unknown or broken values ignored. */
export function createSettings(deps: {
  store: SettingsStore;
  defaults?: Partial<Settings>;
  onChange?: (settings: Settings) => void;
}): SettingsService {
  const defaults: Settings = {
    libraryDir: defaultLibraryDir(),
    concurrency: 3,
    deliveryTarget: 'ebu-r128',
    theme: 'system',
    notifications: true,
    downloadFormats: [...BULK_FORMATS],
    // Producers review on trains and planes: every delivery is fetched as it arrives unless they turn it off.
    backgroundFetch: true,
    // Off until the producer asks: a decision's answer stays on screen where it was taken.
    advanceAfterDecision: false,
    ...deps.defaults,
  };
  const current = (): Settings => {
    // Field by field: one bad value (a hand edit, an older version's range) falls back to its default alone,
    // so the next change does not save every other preference as its default.
    const kept = salvage(StoredPreferences, deps.store.get(KEY)).value;
    return { ...defaults, ...kept };
  };
  return {
    current,
    get: async () => current(),
    async set(patch) {
      if (patch.libraryDir !== undefined && !isAbsolute(patch.libraryDir)) {
        throw localError('VALIDATION_ERROR', 'The library folder must be an absolute path.');
      }
      // A field sent as `undefined` (structured clone keeps it; Electron IPC) changes nothing, rather than
      // spreading over the current value and unsetting the library folder.
      const changes = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
      const next: Settings = { ...current(), ...changes };
      deps.store.set(KEY, next);
      deps.onChange?.(next);
      return next;
    },
  };
}
