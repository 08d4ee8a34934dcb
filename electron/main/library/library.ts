import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve as resolvePath } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import type { LibraryItem, MediaFormat } from '../../../shared/ipc';
import type { EventBus } from '../events';
import { libraryRelativePath, resolveInside, type LibraryPathParts } from './sanitize';

/** Folder (inside the library) that holds our bookkeeping; never shown as a project. */
export const META_DIR = '.takedesk';
const MANIFEST = 'library.json';
const MANIFEST_VERSION = 1;

/** Collaborators of the library. */
export interface LibraryDeps {
  /** The library folder (a setting, so read it each time). */
  dir: () => string;
  /** Receives 'library.changed' after every change of the manifest. */
  emit?: EventBus['emit'];
}

/** Thrown for an id that is not in the manifest. */
export class LibraryItemNotFoundError extends Error {
  override name = 'LibraryItemNotFoundError';
  readonly type = 'NOT_FOUND';
}

/** The offline library: a manifest of complete files on disk, browsable with no network. */
export interface Library {
  /** Absolute library folder. */
  root(): string;
  /** Items, newest first; only one project's when `projectId` is given. */
  list(projectId?: string): Promise<LibraryItem[]>;
  get(id: string): Promise<LibraryItem | null>;
  /** Adds or replaces (same id) an item whose file is already complete at its relativePath. */
  upsert(item: LibraryItem): Promise<LibraryItem>;
  /** Deletes the file, its `.peaks` sidecar and the entry; returns what is left. */
  remove(id: string): Promise<LibraryItem[]>;
  /** Absolute path of an item's file, proven to be inside the library. */
  pathOf(id: string): Promise<string>;
  /** Absolute path for a relative path, proven to be inside the library (PathEscapeError otherwise). */
  resolve(relativePath: string): string;
  /** Where a deliverable's file goes, relative to the library (sanitised layout). */
  planPath(parts: LibraryPathParts): string;
  /** Stable id of the library item for one deliverable version in one format. */
  itemId(deliverableId: string, version: number, format: MediaFormat): string;
  /** Clears `unsynced` once the item's data is on disk; false when that download was replaced or removed since. */
  markSynced(id: string, downloadedAt: string): Promise<boolean>;
  /**
   * Drops entries whose files vanished, re-verifies `unsynced` ones (size and sha256; a mismatch is dropped and
   * its file deleted, a match is made durable) and refreshes hasPeaks; returns the dropped items.
   */
  reconcile(): Promise<LibraryItem[]>;
}

/** Flushes a file's data to the disk (open, fsync, close); throws what the file system reports. */
export async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  await handle.sync().finally(() => handle.close());
}

/** Flushes a folder's entries (a rename inside it) to the disk; best effort. */
export async function syncFolder(path: string): Promise<void> {
  try {
    await syncFile(path);
  } catch {
    // Directories cannot be opened for fsync on Windows; the rename is still atomic there.
  }
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Whether an item written before its data was flushed is intact: 'bad' when its size or checksum differ (a power
 * cut in the writeback window), 'unknown' when the file could not be read or flushed (ask again next time).
 */
async function verifyUnsynced(path: string, item: LibraryItem): Promise<'good' | 'bad' | 'unknown'> {
  try {
    if ((await stat(path)).size !== item.size) return 'bad';
    if (item.sha256 !== '' && (await sha256Of(path)) !== item.sha256) return 'bad';
    await syncFile(path);
  } catch {
    return 'unknown';
  }
  await syncFolder(dirname(path));
  return 'good';
}

const withoutUnsynced = ({ unsynced: _unsynced, ...item }: LibraryItem): LibraryItem => item;

interface ManifestFile {
  version: number;
  items: LibraryItem[];
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

function isItem(value: unknown): value is LibraryItem {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === 'string' &&
    typeof v.relativePath === 'string' &&
    typeof v.projectId === 'string' &&
    typeof v.deliverableId === 'string' &&
    typeof v.size === 'number' &&
    typeof v.sha256 === 'string'
  );
}

/** Creates the library service over the folder `deps.dir()`; the manifest is cached per folder. */
export function createLibrary(deps: LibraryDeps): Library {
  let cache: { root: string; items: Map<string, LibraryItem> } | null = null;
  // One queue for every read-modify-write so concurrent downloads never lose each other's entries.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };

  const root = () => resolveRoot(deps.dir());
  const manifestPath = (dir: string) => join(dir, META_DIR, MANIFEST);

  async function load(): Promise<Map<string, LibraryItem>> {
    const dir = root();
    if (cache?.root === dir) return cache.items;
    const items = new Map<string, LibraryItem>();
    const file = manifestPath(dir);
    let text: string | null = null;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (text !== null) {
      try {
        const parsed = JSON.parse(text) as Partial<ManifestFile>;
        for (const item of Array.isArray(parsed.items) ? parsed.items : []) {
          if (isItem(item)) items.set(item.id, item);
        }
      } catch {
        // A damaged manifest must not brick the library: keep it aside for inspection and start afresh.
        await rename(file, `${file}.corrupt-${Date.now()}`).catch(() => undefined);
      }
    }
    cache = { root: dir, items };
    return items;
  }

  async function save(items: Map<string, LibraryItem>): Promise<void> {
    const dir = root();
    await mkdir(join(dir, META_DIR), { recursive: true });
    const body: ManifestFile = { version: MANIFEST_VERSION, items: [...items.values()] };
    await writeFileAtomic(manifestPath(dir), `${JSON.stringify(body, null, 1)}\n`, { fsync: true });
    deps.emit?.('library.changed', { count: items.size });
  }

  const sorted = (items: Iterable<LibraryItem>) =>
    [...items].sort(
      (a, b) => b.downloadedAt.localeCompare(a.downloadedAt) || a.relativePath.localeCompare(b.relativePath),
    );

  const library: Library = {
    root,
    async list(projectId) {
      const items = await serial(load);
      return sorted(items.values()).filter((item) => projectId === undefined || item.projectId === projectId);
    },
    async get(id) {
      const items = await serial(load);
      return items.get(id) ?? null;
    },
    upsert(item) {
      return serial(async () => {
        resolveInside(root(), item.relativePath);
        const items = await load();
        items.set(item.id, { ...item });
        await save(items);
        return item;
      });
    },
    remove(id) {
      return serial(async () => {
        const items = await load();
        const item = items.get(id);
        if (!item) throw new LibraryItemNotFoundError(`No library item ${id}.`);
        const path = resolveInside(root(), item.relativePath);
        await rm(path, { force: true });
        await rm(`${path}.peaks`, { force: true });
        items.delete(id);
        await save(items);
        return sorted(items.values());
      });
    },
    async pathOf(id) {
      const item = await library.get(id);
      if (!item) throw new LibraryItemNotFoundError(`No library item ${id}.`);
      return resolveInside(root(), item.relativePath);
    },
    markSynced(id, downloadedAt) {
      return serial(async () => {
        const items = await load();
        const item = items.get(id);
        if (!item?.unsynced || item.downloadedAt !== downloadedAt) return false;
        items.set(id, withoutUnsynced(item));
        await save(items);
        return true;
      });
    },
    resolve: (relativePath) => resolveInside(root(), relativePath),
    planPath: libraryRelativePath,
    itemId: (deliverableId, version, format) =>
      createHash('sha256').update(`${deliverableId}\0${version}\0${format}`).digest('hex').slice(0, 24),
    reconcile() {
      return serial(async () => {
        const items = await load();
        const dropped: LibraryItem[] = [];
        let changed = false;
        for (const item of [...items.values()]) {
          let path: string;
          try {
            path = resolveInside(root(), item.relativePath);
          } catch {
            dropped.push(item);
            items.delete(item.id);
            continue;
          }
          if (!(await exists(path))) {
            dropped.push(item);
            items.delete(item.id);
            continue;
          }
          let next = item;
          if (item.unsynced) {
            const verdict = await verifyUnsynced(path, item);
            if (verdict === 'bad') {
              // A final name on a short or damaged file breaks the library's promise: the user downloads it again.
              await rm(path, { force: true }).catch(() => undefined);
              await rm(`${path}.peaks`, { force: true }).catch(() => undefined);
              dropped.push(item);
              items.delete(item.id);
              continue;
            }
            if (verdict === 'good') next = withoutUnsynced(item);
          }
          const hasPeaks = await exists(`${path}.peaks`);
          if (hasPeaks !== next.hasPeaks) next = { ...next, hasPeaks };
          if (next !== item) {
            items.set(item.id, next);
            changed = true;
          }
        }
        if (dropped.length > 0 || changed) await save(items);
        return dropped;
      });
    },
  };
  return library;
}

function resolveRoot(dir: string): string {
  if (!dir) throw new Error('The library folder is not set.');
  return resolvePath(dir);
}
