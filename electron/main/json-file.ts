import { readFile } from 'node:fs/promises';
import writeFileAtomic from 'write-file-atomic';

/** A value kept in a JSON file of the app data folder: what main remembers across restarts. */
export interface JsonFile<T> {
  /** The saved value, or null when the file is missing, unreadable or not of the expected shape. */
  load(): Promise<T | null>;
  /** Replaces the file atomically (a crash leaves the old or the new value, never half of one). */
  save(value: T): Promise<void>;
}

export function createJsonFile<T>(path: string, isValid: (value: unknown) => value is T): JsonFile<T> {
  return {
    async load() {
      try {
        const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
        return isValid(parsed) ? parsed : null;
      } catch {
        return null;
      }
    },
    async save(value) {
      await writeFileAtomic(path, JSON.stringify(value));
    },
  };
}
