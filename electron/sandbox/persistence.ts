import { readFile } from 'node:fs/promises';
import writeFileAtomic from 'write-file-atomic';
import { removeStaleTempFiles } from '../files/stale-temp-files';
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

// The sweep of killed atomic writes' temp files is shared with main (its state files); tls.ts runs it too.
export { removeStaleTempFiles } from '../files/stale-temp-files';

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
