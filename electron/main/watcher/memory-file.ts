import { createJsonFile } from '../json-file';
import type { WatcherMemory, WatcherMemoryStore } from './watcher';

/** The watcher's memory in a JSON file (atomic writes); a missing or unreadable file is an empty memory. */
export function createWatcherMemoryFile(path: string): WatcherMemoryStore {
  const file = createJsonFile(path, isMemory);
  return {
    load: async () => (await file.load()) ?? {},
    save: (memory) => file.save(memory),
  };
}

function isMemory(value: unknown): value is WatcherMemory {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  return Object.values(value).every(
    (profile) =>
      !!profile &&
      typeof profile === 'object' &&
      Object.values(profile as object).every(
        (seen: unknown) =>
          !!seen &&
          typeof (seen as { status?: unknown }).status === 'string' &&
          typeof (seen as { signature?: unknown }).signature === 'string',
      ),
  );
}
