/**
 * The state files main keeps in the app data folder, with the schema each is recovered against (state-recovery.ts)
 * and the start-up removal of what killed atomic writes left beside them.
 */
import { basename, join } from 'node:path';
import { z } from 'zod';
import { StoredProfiles } from '../profiles/profiles';
import { StoredQaTargets } from '../library/qa-targets';
import { StoredPreferences } from '../profiles/settings';
import { recoverStateFileInPlace, removeStaleTempFiles, type StateNotices } from '../kernel/state-recovery';

/** The settings store's file (browser mode's JSON file, Electron's `settings.json`): every key on its own. */
export const SettingsFileSchema = z
  .object({
    preferences: StoredPreferences.optional(),
    profiles: StoredProfiles.partial().optional(),
    qaTargets: StoredQaTargets.optional(),
  })
  .catchall(z.unknown());

/** Browser mode's token file: key -> token. */
export const SecretsFileSchema = z.record(z.string(), z.string());

/** Electron's `secrets.json`: the encrypted tokens under one key. */
export const ElectronSecretsFileSchema = z
  .object({ encryptedSecrets: z.record(z.string(), z.string()).optional() })
  .catchall(z.unknown());

/** Every state file main writes into the app data folder (the library's manifest lives in the library). */
export const DATA_DIR_STATE_FILES = [
  'browser-mode-settings.json',
  'browser-mode-secrets.json',
  'settings.json',
  'secrets.json',
  'downloads.json',
  'outbox.json',
  'review-index.json',
  'watcher.json',
] as const;

/** Removes the temp files killed atomic writes left beside every state file of `dataDir`; run before any write. */
export async function removeStateTempFiles(dataDir: string): Promise<string[]> {
  const removed = await Promise.all(
    DATA_DIR_STATE_FILES.map((name) => removeStaleTempFiles(join(dataDir, name))),
  );
  return removed.flat();
}

/**
 * Opens an electron-store file under the rule: recovered in place first (so electron-store, which throws on a file
 * it cannot parse and would wipe it with `clearInvalidConfig`, reads a sound file); if it still cannot be opened,
 * `fallback` (a store in memory) keeps the app going and the user is told their changes are not saved.
 */
export function openRecoveredStore<S>(options: {
  path: string;
  schema: z.ZodType;
  label: string;
  notices?: StateNotices;
  open: () => S;
  fallback: () => S;
}): S {
  recoverStateFileInPlace(options.path, options.schema, { notices: options.notices, label: options.label });
  try {
    return options.open();
  } catch (error) {
    options.notices?.report({
      file: basename(options.path),
      label: options.label,
      reset: ['(everything)'],
      copy: null,
      message:
        `${options.label} could not be opened (${(error as Error).message}); ` +
        `Takedesk uses defaults until it restarts, and changes are not saved. The file is still at ${options.path}.`,
    });
    return options.fallback();
  }
}
