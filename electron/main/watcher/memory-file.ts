import { z } from 'zod';
import { createJsonFile } from '../kernel/json-file';
import type { StateNotices } from '../kernel/state-recovery';
import type { WatcherMemory, WatcherMemoryStore } from './watcher';

/** What the watcher remembers, per profile and project; a bad entry is forgotten alone (state-recovery.ts). */
export const WatcherMemorySchema: z.ZodType<WatcherMemory> = z.record(
  z.string(),
  z.record(z.string(), z.object({ status: z.string(), signature: z.string() })),
);

/** The watcher's memory in a JSON file (atomic writes); a missing file is an empty memory. */
export function createWatcherMemoryFile(path: string, notices?: StateNotices): WatcherMemoryStore {
  const file = createJsonFile(path, WatcherMemorySchema, { label: "The watcher's memory file", notices });
  return {
    load: async () => (await file.load()) ?? {},
    save: (memory) => file.save(memory),
  };
}
