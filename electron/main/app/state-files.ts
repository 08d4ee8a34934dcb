/**
 * The state files main keeps in the app data folder, with the schema each is recovered against (state-recovery.ts)
 * and the start-up removal of what killed atomic writes left beside them.
 */
import { basename, join } from 'node:path';
import type { z } from 'zod';
import { recoverStateFileInPlace, removeStaleTempFiles, type StateNotices } from '../kernel/state-recovery';

// Each file's schema lives with the store that reads it (a feature's store may not import app/); the list of files
// stays here.
export { SettingsFileSchema } from '../profiles';
export { SecretsFileSchema } from '../secrets';
export { ElectronSecretsFileSchema } from '../secrets';

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
