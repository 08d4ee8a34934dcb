/**
 * A value main keeps across restarts, in the embedded database instead of a JSON file of its own (the same
 * `JsonFile` port, so its owner does not change). The JSON file of an earlier version moves in once: it is read under
 * the state-file rule (state-recovery.ts: a damaged one leaves a copy of its bytes and a notice), what could be read
 * is saved here, and the file is renamed `<name>.migrated` (never deleted).
 */
import { existsSync, renameSync } from 'node:fs';
import type { z } from 'zod';
import { createJsonFile, type JsonFile } from '../kernel/json-file';
import type { StateNotices } from '../kernel/state-recovery';
import type { Database, Migration } from './database';

/** Values kept across restarts (schema 3 of the review database): the review index, the watcher's memory. */
export const STATE_VALUES_MIGRATIONS: Migration[] = [
  {
    version: 3,
    up(db) {
      db.exec(`
        CREATE TABLE state_values (
          name TEXT PRIMARY KEY,
          value TEXT NOT NULL,
          saved_at TEXT NOT NULL
        );
      `);
    },
  },
];

export interface LegacyFile {
  path: string;
  /** How the producer knows the file, for the notice when it was damaged. */
  label: string;
  notices?: StateNotices;
}

export function createDatabaseValue<T>(
  db: Database,
  name: string,
  schema: z.ZodType<T>,
  legacy?: LegacyFile,
  now: () => Date = () => new Date(),
): JsonFile<T> {
  const select = db.prepare('SELECT value FROM state_values WHERE name = ?');
  const upsert = db.prepare(
    `INSERT INTO state_values (name, value, saved_at) VALUES (?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET value = excluded.value, saved_at = excluded.saved_at`,
  );
  const save = async (value: T) => {
    upsert.run(name, JSON.stringify(value), now().toISOString());
  };

  /** The earlier version's file, read under the rule, moved in, renamed. */
  async function moveIn(file: LegacyFile): Promise<T | null> {
    const value = await createJsonFile(file.path, schema, {
      label: file.label,
      ...(file.notices ? { notices: file.notices } : {}),
    }).load();
    if (value !== null) await save(value);
    // What could not be read at all was already moved aside, as the damaged file's copy.
    if (existsSync(file.path)) renameSync(file.path, `${file.path}.migrated`);
    return value;
  }

  return {
    async load() {
      const row = select.get(name) as { value: string } | undefined;
      if (row) {
        const parsed = schema.safeParse(JSON.parse(row.value));
        return parsed.success ? parsed.data : null;
      }
      return legacy && existsSync(legacy.path) ? moveIn(legacy) : null;
    },
    save,
  };
}
