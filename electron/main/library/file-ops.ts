/**
 * What the library does to the files of its items: deleting an item's file and sidecar (never another item's,
 * never a folder, never through a link out), taking over a file a crash left at the final name, and moving a
 * script's text an older version kept in its project folder to the sidecar folder.
 */
import { lstat, rename, rm } from 'node:fs/promises';
import type { LibraryItem } from '../../../shared/ipc';
import { describeFsError, LibraryFileError } from './errors';
import { sameFile, sha256Of } from './file-facts';
import { ownerOf, pathKey, SIDECAR_DIR, type LibraryPaths } from './paths';
import { placeNoReplace, type LinkFn } from './safe-fs';
import { SIDECAR_FORMATS } from './sanitize';

/** The file operations of one library. */
export type FileOps = ReturnType<typeof createFileOps>;

export function createFileOps(paths: LibraryPaths, link?: LinkFn) {
  /**
   * An item of a sidecar format (`.txt`) still in its project folder, moved to the same place under the sidecar
   * folder and its entry pointed there (the caller saves the manifest). Only the item's own regular file moves, and
   * never over another file; a file another entry shares stays where it is. One found already moved (a crash
   * between the move and the save) is taken up. Best effort: on any failure the item stays as it was.
   */
  async function moveToSidecarFolder(
    items: Map<string, LibraryItem>,
    item: LibraryItem,
  ): Promise<LibraryItem> {
    if (!SIDECAR_FORMATS.has(item.format) || item.relativePath.startsWith(`${SIDECAR_DIR}/`)) return item;
    const key = pathKey(item.relativePath);
    if ([...items.values()].some((other) => other.id !== item.id && pathKey(other.relativePath) === key))
      return item;
    const targetRel = `${SIDECAR_DIR}/${item.relativePath}`;
    if (ownerOf(items, targetRel, item.id)) return item;
    try {
      const from = await paths.resolveReal(item.relativePath);
      const fromSt = await lstat(from).catch(() => null);
      const to = await paths.resolveReal(targetRel, true);
      const toSt = await lstat(to).catch(() => null);
      if (fromSt?.isFile() && !toSt) await rename(from, to);
      else if (!(fromSt === null && toSt?.isFile())) return item;
    } catch {
      return item;
    }
    const next = { ...item, relativePath: targetRel };
    items.set(item.id, next);
    return next;
  }

  /** A folder where an item's file should be is not Takedesk's to delete: say so before anything changes. */
  async function refuseFolder(relativePath: string): Promise<void> {
    let path: string;
    try {
      path = await paths.resolveReal(relativePath);
    } catch {
      return; // outside the library after links: deleteFiles leaves it alone
    }
    const st = await lstat(path).catch(() => null);
    if (st?.isDirectory()) {
      throw new LibraryFileError(
        'NOT_A_FILE',
        `${path} is a folder, not the file Takedesk downloaded; Takedesk does not delete folders. Move or delete ` +
          'it yourself, then remove the item again.',
      );
    }
  }

  const fsFailure = (error: unknown, relativePath: string) =>
    new LibraryFileError(
      'LIBRARY_NOT_WRITABLE',
      `"${relativePath}" is no longer listed, but its file could not be deleted (${describeFsError(error)}).`,
      { cause: error },
    );

  /** Deletes a file and its sidecar unless another item points at that same file; never through a link out. */
  async function deleteFiles(items: Map<string, LibraryItem>, relativePath: string): Promise<void> {
    let path: string;
    try {
      path = await paths.resolveReal(relativePath);
    } catch {
      return; // outside the library after links: nothing there is ours to delete
    }
    const st = await lstat(path).catch(() => null);
    if (st) {
      const key = pathKey(relativePath);
      for (const other of items.values()) {
        if (pathKey(other.relativePath) !== key) continue;
        const theirs = await lstat(await paths.resolveReal(other.relativePath)).catch(() => null);
        if (theirs && sameFile(theirs, st)) return;
      }
    }
    // rm removes a link itself, never what it points to.
    await rm(path, { force: true });
    await rm(`${path}.peaks`, { force: true }); // written by an older version beside the file
    const sidecar = await paths.peaksPath(relativePath).catch(() => null);
    if (sidecar) await rm(sidecar, { force: true });
  }

  /**
   * Whether a file already at the final name (that no other item owns) may stand for this download: only a regular
   * file that holds the same bytes (the same inode as the part, or the same size and sha256: a crash
   * after the rename, before the listing). An empty one is the reservation of a commit without hard links that a
   * crash interrupted: it is replaced. Otherwise the caller tries the next name.
   */
  async function takeOver(path: string, part: string, item: LibraryItem): Promise<boolean> {
    const st = await lstat(path).catch(() => null);
    if (!st?.isFile()) return false;
    const partSt = await lstat(part).catch(() => null);
    if (partSt && sameFile(st, partSt)) {
      await rm(part, { force: true });
      return true;
    }
    if (st.size === 0 && item.size > 0) {
      await rm(path, { force: true });
      await placeNoReplace(part, path, { link });
      return true;
    }
    if (st.size !== item.size || item.sha256 === '') return false;
    if ((await sha256Of(path).catch(() => null)) !== item.sha256) return false;
    await rm(part, { force: true });
    return true;
  }

  return { moveToSidecarFolder, refuseFolder, fsFailure, deleteFiles, takeOver };
}
