import writeFileAtomic from 'write-file-atomic';
import type { z } from 'zod';
import { recoverStateFile, type StateNotices } from './state-recovery';

/** A value kept in a JSON file of the app data folder: what main remembers across restarts. */
export interface JsonFile<T> {
  /**
   * The saved value, or null when the file is missing or nothing of it could be kept. A damaged file is recovered
   * under the state-file rule (state-recovery.ts: a copy, only the bad values dropped, the user told) and what was
   * kept is written back.
   */
  load(): Promise<T | null>;
  /** Replaces the file atomically (a crash leaves the old or the new value, never half of one). */
  save(value: T): Promise<void>;
}

export function createJsonFile<T>(
  path: string,
  schema: z.ZodType<T>,
  recovery: { label: string; notices?: StateNotices } = { label: path },
): JsonFile<T> {
  const save = (value: T) => writeFileAtomic(path, JSON.stringify(value));
  return {
    async load() {
      const recovered = recoverStateFile(path, schema, recovery);
      if (recovered.damaged && recovered.value !== undefined)
        await save(recovered.value).catch(() => undefined);
      return recovered.value ?? null;
    },
    save,
  };
}
