/**
 * The app's embedded database: SQLite through `node:sqlite` (built into Node 24 and Electron 45's main process, so
 * nothing is compiled or downloaded), one file in the app data folder, WAL mode. Its schema moves forward by
 * numbered migrations recorded in `PRAGMA user_version`. A file that fails its startup `quick_check`, or that is not
 * a database at all, is copied aside (never deleted) and a fresh one is made; the caller is told what was reset.
 */
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { createRequire } from 'node:module';
import type * as Sqlite from 'node:sqlite';
import type { DatabaseSync as Database } from 'node:sqlite';

export type { Database };

/** One step of the schema: run once, in a transaction, when `user_version` is below its number. */
export interface Migration {
  version: number;
  up(db: Database): void;
}

export interface OpenedDatabase {
  db: Database;
  /** What was reset at this start, in plain words (the damaged file's copy named), or null. */
  reset: string | null;
  /** Where the damaged file was kept, when it was. */
  copy: string | null;
}

// `node:sqlite` through require: it is a builtin of Node 24 and Electron 45 (bundlers leave the require alone).
const { DatabaseSync } = createRequire(import.meta.url)('node:sqlite') as typeof Sqlite;

/**
 * Opens (or creates) the database at `path` and brings its schema to the last migration. Throws only when a fresh
 * database cannot be made either (the folder is not writable).
 */
export function openDatabase(
  path: string,
  migrations: readonly Migration[],
  now = () => new Date(),
): OpenedDatabase {
  mkdirSync(dirname(path), { recursive: true });
  let db: Database | null = null;
  try {
    db = openChecked(path);
    migrate(db, migrations);
    return { db, reset: null, copy: null };
  } catch (error) {
    db?.close();
    const copy = setAside(path, now());
    const fresh = openChecked(path);
    migrate(fresh, migrations);
    return {
      db: fresh,
      copy,
      reset: `The local database could not be used (${(error as Error).message}); it was kept as ${copy}, and a new one was started: decisions that were waiting in it are in that copy.`,
    };
  }
}

function openChecked(path: string): Database {
  const db = new DatabaseSync(path);
  try {
    db.exec('PRAGMA busy_timeout = 2000');
    const check = db.prepare('PRAGMA quick_check').get() as { quick_check?: string } | undefined;
    if (check?.quick_check !== 'ok') throw new Error(`quick_check: ${check?.quick_check ?? 'no answer'}`);
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = FULL');
    db.exec('PRAGMA foreign_keys = ON');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Moves the damaged file (and its WAL and shared-memory files) to `<path>.damaged-<time>`; returns that name. */
function setAside(path: string, at: Date): string {
  const stamp = at.toISOString().replace(/[:.]/g, '-');
  let copy = `${path}.damaged-${stamp}`;
  for (let n = 2; existsSync(copy); n++) copy = `${path}.damaged-${stamp}-${n}`;
  if (existsSync(path)) copyFileSync(path, copy);
  for (const suffix of ['-wal', '-shm']) {
    if (!existsSync(path + suffix)) continue;
    try {
      renameSync(path + suffix, copy + suffix);
    } catch {
      rmSync(path + suffix, { force: true });
    }
  }
  rmSync(path, { force: true });
  return copy;
}

function migrate(db: Database, migrations: readonly Migration[]): void {
  const current = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  const newest = Math.max(0, ...migrations.map((m) => m.version));
  if (current > newest) {
    throw new Error(
      `The local database was written by a newer Takedesk (schema ${current}, this one knows ${newest}).`,
    );
  }
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (migration.version <= current) continue;
    transaction(db, () => {
      migration.up(db);
      db.exec(`PRAGMA user_version = ${migration.version}`);
    });
  }
}

/** Runs `work` in one transaction: all of it is committed, or none. */
export function transaction<T>(db: Database, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
