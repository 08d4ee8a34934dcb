/**
 * The offline library: a manifest of complete files on disk, browsable with no network.
 *
 * A thin front over its units: where things are (`paths.ts`), the manifest and its one-at-a-time changes
 * (`manifest.ts`, with `relist.ts` and `migrate-shared.ts` for a damaged or older one), what is done to an item's
 * files (`file-ops.ts`), facts about one file (`file-facts.ts`) and the start-up check (`startup-check.ts`). What is
 * left here is each operation of the `Library` port, in one step of the manifest.
 */
import { realpath, rename } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';
import type { LibraryItem, MediaFormat } from '../../../shared/ipc';
import type { EventBus } from '../kernel/events';
import type { StateNotices } from '../kernel/state-recovery';
import { describeFsError, LibraryFileError, LibraryItemNotFoundError } from './errors';
import { checkItemFile } from './file-facts';
import { createFileOps } from './file-ops';
import { createManifest } from './manifest';
import { createPaths, itemId, ownerOf, pathKey } from './paths';
import type { KnownFile } from './relist';
import { placeNoReplace, type LinkFn } from './safe-fs';
import {
  libraryRelativePath,
  PathEscapeError,
  resolveInside,
  withCollisionSuffix,
  type LibraryPathParts,
} from './sanitize';
import { checkEntries, withoutUnsynced } from './startup-check';

export { LibraryFileError, LibraryItemNotFoundError } from './errors';
export { syncFile, syncFolder } from './file-facts';
export { META_DIR, peaksRelativePath, SIDECAR_DIR } from './paths';
export type { KnownFile } from './relist';

/** Collaborators of the library. */
export interface LibraryDeps {
  /** The library folder (a setting, so read it each time). */
  dir: () => string;
  /** Receives 'library.changed' after every change of the manifest. */
  emit?: EventBus['emit'];
  /** Hard-link call of the commit (tests inject one that fails, like a file system without hard links). */
  link?: LinkFn;
  /** Told when the manifest was damaged: what was reset and how many files were listed again. */
  notices?: StateNotices;
  /**
   * What other records say of a file, by relative path (the download queue's finished jobs): a file a damaged
   * manifest lost gets its full ids and profile back from there rather than the short ids of its name.
   */
  knownFiles?: () => Promise<Map<string, KnownFile>>;
}

/** What `commit` needs: a complete part file, the planned name, and the item to list under the name it gets. */
export interface CommitRequest {
  /** Absolute path of the complete part file (from `resolveReal`). */
  part: string;
  /** Absolute path of its `.peaks` sidecar, if one was written beside the part. */
  peaks?: string | null;
  /** The planned relative path; a suffix ` (n)` is added when it is taken. */
  planned: string;
  /** The entry; `relativePath` is set to the name the file gets. */
  item: LibraryItem;
}

/** The offline library: a manifest of complete files on disk, browsable with no network. */
export interface Library {
  /** Absolute library folder. */
  root(): string;
  /** Items, newest first; only one project's when `projectId` is given. */
  list(projectId?: string): Promise<LibraryItem[]>;
  get(id: string): Promise<LibraryItem | null>;
  /**
   * Adds or replaces (same id) an item whose file is already complete at its relativePath; refuses a path that
   * another item owns.
   */
  upsert(item: LibraryItem): Promise<LibraryItem>;
  /** Gives every entry without a profile this one, in one save (entries of versions before profiles); how many. */
  adoptUntagged(profileId: string): Promise<number>;
  /** Changes fields of an item if it is still the same download (`downloadedAt`); null when it is gone or replaced. */
  update(id: string, downloadedAt: string, patch: Partial<LibraryItem>): Promise<LibraryItem | null>;
  /**
   * The commit point of a download: gives the part its final name without ever replacing an existing file (the
   * planned name, else the next free `name (n).ext`), moves the peaks sidecar beside it and lists the item, in one
   * step no other library change interleaves with. A file already at the name with the same bytes and no other
   * owner (left by a crash after the rename) is taken over. An older file of the same item is deleted afterwards.
   */
  commit(request: CommitRequest): Promise<LibraryItem>;
  /**
   * Deletes the entry, then its file and `.peaks` sidecar, unless another item points at that file or the path
   * leads out of the library through a link; returns what is left.
   */
  remove(id: string): Promise<LibraryItem[]>;
  /**
   * Absolute path of an item's file, proven to be inside the library after links are resolved, and to be a
   * regular file itself when it exists (a LibraryFileError for a link or a folder).
   */
  pathOf(id: string): Promise<string>;
  /** Absolute path for a relative path, proven to be inside the library by its text (PathEscapeError otherwise). */
  resolve(relativePath: string): string;
  /**
   * Absolute path for a relative path whose folder, after links are resolved, is inside the library's real folder
   * (PathEscapeError otherwise); with `create`, missing folders are made first.
   */
  resolveReal(relativePath: string, create?: boolean): Promise<string>;
  /**
   * Absolute path of the peaks sidecar of a file at `relativePath` (in the hidden sidecar folder), proven inside the
   * library like `resolveReal`; with `create`, its folders are made first.
   */
  peaksPathOf(relativePath: string, create?: boolean): Promise<string>;
  /**
   * Moves a `<file>.peaks` just written beside a file of the library (the analyzer writes it there) into the sidecar
   * folder; true when the sidecar is in place. A link at that name is left alone and never read.
   */
  adoptPeaksBeside(path: string): Promise<boolean>;
  /** Where a deliverable's file goes, relative to the library (sanitised layout). */
  planPath(parts: LibraryPathParts): string;
  /** Stable id of the library item for one deliverable version in one format. */
  itemId(deliverableId: string, version: number, format: MediaFormat): string;
  /** Clears `unsynced` once the item's data is on disk; false when that download was replaced or removed since. */
  markSynced(id: string, downloadedAt: string): Promise<boolean>;
  /**
   * Drops entries whose files vanished, re-verifies `unsynced` ones (size and sha256; a mismatch is dropped and
   * its file deleted, a match is made durable) and refreshes hasPeaks; returns the dropped items, with those the
   * migration of an older manifest dropped (see `migrateShared`).
   */
  reconcile(): Promise<LibraryItem[]>;
}

/** Creates the library service over the folder `deps.dir()`; the manifest is cached per folder. */
export function createLibrary(deps: LibraryDeps): Library {
  const paths = createPaths(deps.dir);
  const { root } = paths;
  const { manifestRel, serial, load, save, mutating, takeMigrationDropped } = createManifest(deps, paths);
  const ops = createFileOps(paths, deps.link);

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
      return mutating(async (items) => {
        resolveInside(root(), item.relativePath);
        const owner = ownerOf(items, item.relativePath, item.id);
        if (owner) {
          throw new PathEscapeError(
            `${JSON.stringify(item.relativePath)} already belongs to another library item (${owner.id}).`,
          );
        }
        items.set(item.id, { ...item });
        await save(items);
        return item;
      });
    },
    adoptUntagged(profileId) {
      return mutating(async (items) => {
        let adopted = 0;
        for (const [id, item] of items) {
          if (item.profileId) continue;
          items.set(id, { ...item, profileId });
          adopted++;
        }
        if (adopted > 0) await save(items);
        return adopted;
      });
    },
    update(id, downloadedAt, patch) {
      return mutating(async (items) => {
        const item = items.get(id);
        if (!item || item.downloadedAt !== downloadedAt) return null;
        const next = { ...item, ...patch, id, relativePath: item.relativePath };
        items.set(id, next);
        await save(items);
        return next;
      });
    },
    commit({ part, peaks, planned, item }) {
      return mutating(async (items) => {
        const previous = items.get(item.id) ?? null;
        let chosen: { rel: string; path: string } | null = null;
        for (let n = 1; n < 1000 && !chosen; n++) {
          const rel = withCollisionSuffix(planned, n);
          if (ownerOf(items, rel, item.id)) continue;
          const path = await paths.resolveReal(rel, true);
          try {
            await placeNoReplace(part, path, { link: deps.link });
            chosen = { rel, path };
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
            if (await ops.takeOver(path, part, item)) {
              chosen = { rel, path };
            }
          }
        }
        if (!chosen) throw new Error(`No free name for ${planned} in the library.`);
        let hasPeaks: boolean;
        if (peaks) {
          // A rename replaces whatever sits at the sidecar's name (a link included) and never writes through it.
          hasPeaks = await paths
            .peaksPath(chosen.rel, true)
            .then((sidecar) => rename(peaks, sidecar))
            .then(
              () => true,
              () => false,
            );
        } else {
          hasPeaks = await paths.peaksExist(chosen.rel);
        }
        const next: LibraryItem = { ...item, relativePath: chosen.rel, hasPeaks };
        items.set(item.id, next);
        await save(items);
        // The same deliverable version downloaded again, now under another name: its older file goes.
        if (previous && pathKey(previous.relativePath) !== pathKey(chosen.rel)) {
          await ops.deleteFiles(items, previous.relativePath).catch(() => undefined);
        }
        return next;
      });
    },
    remove(id) {
      return serial(async () => {
        const items = await load();
        const item = items.get(id);
        if (!item) throw new LibraryItemNotFoundError(`No library item ${id}.`);
        await ops.refuseFolder(item.relativePath);
        // The entry goes first: a crash before the files are deleted leaves an unlisted file, never a listed
        // item without its file. The list changes only once the manifest without it is saved.
        const rest = new Map(items);
        rest.delete(id);
        try {
          await save(rest);
        } catch (error) {
          throw new LibraryFileError(
            'LIBRARY_NOT_WRITABLE',
            `The library's list of files (${manifestRel}) could not be saved ` +
              `(${describeFsError(error instanceof LibraryFileError ? error.cause : error)}), so ` +
              `"${item.relativePath}" stays in the library. Check that the library folder can be written to.`,
            { cause: error },
          );
        }
        items.delete(id);
        await ops.deleteFiles(items, item.relativePath).catch((error: unknown) => {
          // The item is no longer listed; what is left on disk is an unlisted file, as after a crash.
          if (!(error instanceof PathEscapeError)) throw ops.fsFailure(error, item.relativePath);
        });
        return sorted(items.values());
      });
    },
    async pathOf(id) {
      const item = await library.get(id);
      if (!item) throw new LibraryItemNotFoundError(`No library item ${id}.`);
      const path = await paths.resolveReal(item.relativePath);
      await checkItemFile(path);
      return path;
    },
    markSynced(id, downloadedAt) {
      return mutating(async (items) => {
        const item = items.get(id);
        if (!item?.unsynced || item.downloadedAt !== downloadedAt) return false;
        items.set(id, withoutUnsynced(item));
        await save(items);
        return true;
      });
    },
    resolve: (relativePath) => resolveInside(root(), relativePath),
    resolveReal: (relativePath, create) => paths.resolveReal(relativePath, create),
    peaksPathOf: (relativePath, create) => paths.peaksPath(relativePath, create),
    async adoptPeaksBeside(path) {
      const rel = relative(await realpath(root()), path)
        .split(sep)
        .join('/');
      if (!rel || rel.startsWith('..') || isAbsolute(rel)) return false;
      return paths.movePeaksIn(path, rel);
    },
    planPath: libraryRelativePath,
    itemId,
    reconcile() {
      return mutating((items) => checkEntries(items, takeMigrationDropped(), { paths, ops, save }));
    },
  };

  return library;
}
