import { lstat, readFile, readdir, realpath, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { createInitialState, isSandboxState, repairState, type SandboxState } from './state';

/** Keeps the sandbox state durable: in memory only, or one JSON file replaced atomically. */
export interface StatePersistence {
  load(): Promise<SandboxState>;
  /** Resolves once a write that includes every change made before the call is on disk. */
  commit(state: SandboxState): Promise<void>;
  /** Waits for writes in flight. */
  flush(): Promise<void>;
}

/** In-memory state: commits are no-ops and every instance starts with new tokens. */
export function createMemoryPersistence(): StatePersistence {
  return {
    load: async () => createInitialState(),
    commit: async () => {},
    flush: async () => {},
  };
}

/**
 * Whether `name` is a temp file write-file-atomic 8 made for the state file `stateName`: it writes
 * `<file>.<uint32 in decimal>` beside the file (lib/index.js getTmpname) and renames it over the file.
 */
export function isStateTempFile(name: string, stateName: string): boolean {
  return name.startsWith(`${stateName}.`) && /^\d{1,10}$/.test(name.slice(stateName.length + 1));
}

/**
 * Removes the temp files a killed write left beside `file` (a kill -9 between write-file-atomic's
 * write and rename leaves one, up to the size of the state, for ever). Only files named
 * `<state file>.<digits>` are touched. Run before the first write of this process.
 */
export async function removeStaleTempFiles(file: string): Promise<string[]> {
  const places = new Set([file, await realpath(file).catch(() => file)]);
  const removed: string[] = [];
  for (const place of places) {
    const dir = dirname(place);
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (!isStateTempFile(name, basename(place))) continue;
      const path = join(dir, name);
      const info = await lstat(path).catch(() => undefined);
      if (!info?.isFile()) continue;
      await rm(path, { force: true });
      removed.push(path);
    }
  }
  return removed;
}

/**
 * State in `file`, written with write-file-atomic (temp file, fsync, rename) so a kill at any moment leaves
 * either the old or the new document, never a partial one. Bursts coalesce: while one write runs, every
 * commit made meanwhile shares the next write, which serialises the state only when it starts.
 */
export function createFilePersistence(file: string): StatePersistence {
  let writing: Promise<void> = Promise.resolve();
  let next: Promise<void> | null = null;

  return {
    async load() {
      await removeStaleTempFiles(file);
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return createInitialState();
        throw error;
      }
      const parsed: unknown = JSON.parse(text);
      if (!isSandboxState(parsed)) throw new Error(`${file} is not a sandbox state file (version 1)`);
      const dropped = repairState(parsed);
      if (dropped > 0) console.error(`[sandbox] ${file}: dropped ${dropped} malformed work item(s)`);
      return parsed;
    },
    commit(state) {
      if (next) return next;
      const previous = writing;
      next = (async () => {
        await previous.catch(() => {});
        next = null;
        const run = writeFileAtomic(file, JSON.stringify(state), { fsync: true });
        writing = run;
        await run;
      })();
      return next;
    },
    async flush() {
      await (next ?? writing).catch(() => {});
      await writing.catch(() => {});
    },
  };
}
