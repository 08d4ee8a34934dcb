import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { BULK_FORMATS } from '../../../shared/ipc/project-downloads';
import { SettingsSchema, type Settings } from '../../../shared/ipc/settings';
import { localError } from '../kernel/local-error';
import { salvage } from '../kernel/state-recovery';
import type { SettingsStore } from './settings-store';

const KEY = 'preferences';

/** The preferences as kept in the settings store: any field may be missing (a default fills it in). */
export const StoredPreferences = SettingsSchema.partial();

export interface SettingsService {
  get(): Promise<Settings>;
  set(patch: Partial<Settings>): Promise<Settings>;
  /** Synchronous read for hot paths (download concurrency, library root). */
  current(): Settings;
}

/**
 * Where downloads go unless the producer picks another folder. An instance run on its own data folder
 * (TAKEDESK_DATA_DIR) keeps its library there too, so two instances never share one library by accident.
 */
export function defaultLibraryDir(home = homedir(), dataDir = process.env.TAKEDESK_DATA_DIR): string {
  return dataDir ? join(dataDir, 'Takedesk Library') : join(home, 'Takedesk Library');
}

/**
 * What is saved: every preference, except a library folder the producer never chose, so the default keeps
 * following where this instance runs (its data folder) instead of being frozen by an unrelated change.
 */
function withoutUnchosenLibrary(
  next: Settings,
  stored: unknown,
  changes: Partial<Settings>,
): Partial<Settings> {
  const chosen =
    'libraryDir' in changes || salvage(StoredPreferences, stored).value?.libraryDir !== undefined;
  if (chosen) return next;
  const saved: Partial<Settings> = { ...next };
  delete saved.libraryDir;
  return saved;
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
      deps.store.set(KEY, withoutUnchosenLibrary(next, deps.store.get(KEY), changes));
      deps.onChange?.(next);
      return next;
    },
  };
}
