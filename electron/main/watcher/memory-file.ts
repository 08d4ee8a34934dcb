import { readFile } from 'node:fs/promises';
import writeFileAtomic from 'write-file-atomic';
import type { WatcherMemory, WatcherMemoryStore } from './watcher';

/** The watcher's memory in a JSON file (atomic writes); a missing or unreadable file is an empty memory. */
export function createWatcherMemoryFile(path: string): WatcherMemoryStore {
  return {
    async load() {
      try {
        const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
        return isMemory(parsed) ? parsed : {};
      } catch {
        return {};
      }
    },
    async save(memory) {
      await writeFileAtomic(path, JSON.stringify(memory));
    },
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
