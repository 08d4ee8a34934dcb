/**
 * The manifest `<library>/.takedesk/library.json`: read once per library folder (a damaged one recovered, lost
 * files listed again, a version-1 one migrated), saved atomically, and changed only in one read-modify-write at a
 * time, put back when it cannot be saved.
 */
import { z } from 'zod';
import type { LibraryItem } from '../../../shared/ipc';
import { createStateNotices, recoverStateFile, removeStaleTempFiles } from '../kernel/state-recovery';
import { describeFsError, LibraryFileError } from './errors';
import type { LibraryDeps } from './library';
import { migrateShared } from './migrate-shared';
import { META_DIR, type LibraryPaths } from './paths';
import { relistFromDisk } from './relist';
import { writeFileReplacing } from './safe-fs';
import { PathEscapeError } from './sanitize';

const MANIFEST = 'library.json';
// 2: every item has a file of its own (paths carry the deliverable's short id; no two items share a file).
const MANIFEST_VERSION = 2;

interface ManifestFile {
  version: number;
  items: LibraryItem[];
}

/** The manifest; an entry that is not an item is dropped alone. */
const ManifestSchema = z.object({
  version: z.number().optional(),
  items: z.array(z.custom<LibraryItem>(isItem)),
});

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

/** The manifest of one library, cached per folder. */
export type Manifest = ReturnType<typeof createManifest>;

export function createManifest(deps: LibraryDeps, paths: LibraryPaths) {
  let cache: { root: string; items: Map<string, LibraryItem> } | null = null;
  /** Items the migration of an older manifest dropped, reported by the next reconcile. */
  let migrationDropped: LibraryItem[] = [];
  // One queue for every read-modify-write so concurrent downloads never lose each other's entries.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };

  const manifestRel = `${META_DIR}/${MANIFEST}`;

  async function load(): Promise<Map<string, LibraryItem>> {
    const dir = paths.root();
    if (cache?.root === dir) return cache.items;
    const items = new Map<string, LibraryItem>();
    const file = await paths.resolveReal(manifestRel);
    await removeStaleTempFiles(file);
    // A damaged manifest must not cost the library: its copy is kept, its good entries stay (state-recovery.ts),
    // and the files on disk it no longer lists are listed again from their names; the user is told once.
    const found = createStateNotices();
    const recovered = recoverStateFile(file, ManifestSchema, {
      label: 'The library list file',
      notices: found,
    });
    for (const item of recovered.value?.items ?? []) items.set(item.id, item);
    const version = recovered.value ? (recovered.value.version ?? 1) : MANIFEST_VERSION;
    cache = { root: dir, items };
    let rebuilt = 0;
    if (recovered.damaged) rebuilt = await relistFromDisk(dir, items, paths, deps.knownFiles);
    for (const notice of found.take())
      deps.notices?.report({
        ...notice,
        message: `${notice.message} ${rebuilt} file${rebuilt === 1 ? '' : 's'} in the library folder ${rebuilt === 1 ? 'was' : 'were'} listed again from ${rebuilt === 1 ? 'its name' : 'their names'}.`,
      });
    const changed = await migrateShared(items, paths, (item) => migrationDropped.push(item), deps.link);
    if (changed || recovered.damaged || (recovered.value && version < MANIFEST_VERSION)) await save(items);
    return items;
  }

  async function save(items: Map<string, LibraryItem>): Promise<void> {
    const body: ManifestFile = { version: MANIFEST_VERSION, items: [...items.values()] };
    try {
      const file = await paths.resolveReal(manifestRel, true);
      await writeFileReplacing(file, `${JSON.stringify(body, null, 1)}\n`, { fsync: true });
    } catch (error) {
      if (error instanceof PathEscapeError) throw error;
      throw new LibraryFileError(
        'LIBRARY_NOT_WRITABLE',
        `The library's list of files (${manifestRel}) could not be saved (${describeFsError(error)}); nothing ` +
          'was changed. Check that the library folder can be written to.',
        { cause: error },
      );
    }
    deps.emit?.('library.changed', { count: items.size });
  }

  /**
   * A read-modify-write of the manifest. When it fails (the manifest could not be saved), the cached list is put
   * back as it was: what the app lists is what the manifest on disk says.
   */
  const mutating = <T>(task: (items: Map<string, LibraryItem>) => Promise<T>): Promise<T> =>
    serial(async () => {
      const items = await load();
      const before = new Map(items);
      try {
        return await task(items);
      } catch (error) {
        items.clear();
        for (const [id, item] of before) items.set(id, item);
        throw error;
      }
    });

  /** Items the migration of an older manifest dropped since the last call: the start-up check reports them. */
  const takeMigrationDropped = (): LibraryItem[] => {
    const dropped = migrationDropped;
    migrationDropped = [];
    return dropped;
  };

  return { manifestRel, serial, load, save, mutating, takeMigrationDropped };
}
