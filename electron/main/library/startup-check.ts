/**
 * The start-up check of the library's entries: drops those whose files vanished or left the library, re-verifies
 * `unsynced` ones (size and sha256; a mismatch is dropped and its file deleted, a match is made durable), moves an
 * older version's sidecars into the sidecar folder and refreshes `hasPeaks`.
 */
import type { LibraryItem } from '../../../shared/ipc';
import { exists, verifyUnsynced } from './file-facts';
import type { FileOps } from './file-ops';
import type { LibraryPaths } from './paths';

export const withoutUnsynced = ({ unsynced: _unsynced, ...item }: LibraryItem): LibraryItem => item;

/**
 * Checks every entry of `items` (changed in place), adding what it drops to `dropped`; saves once when anything
 * changed, then deletes the files that failed their check. Returns `dropped`.
 */
export async function checkEntries(
  items: Map<string, LibraryItem>,
  dropped: LibraryItem[],
  {
    paths,
    ops,
    save,
  }: { paths: LibraryPaths; ops: FileOps; save: (items: Map<string, LibraryItem>) => Promise<void> },
): Promise<LibraryItem[]> {
  const doomed: string[] = [];
  let changed = false;
  for (const listed of [...items.values()]) {
    // A script's text an older version kept in the project folder moves to the sidecar folder first.
    const item = await ops.moveToSidecarFolder(items, listed);
    if (item !== listed) changed = true;
    let path: string;
    try {
      path = await paths.resolveReal(item.relativePath);
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
        doomed.push(item.relativePath);
        dropped.push(item);
        items.delete(item.id);
        continue;
      }
      if (verdict === 'good') next = withoutUnsynced(item);
    }
    // Peaks an older version wrote beside the file move into the sidecar folder (issue 26 item 8).
    await paths.movePeaksIn(path, item.relativePath);
    const hasPeaks = await paths.peaksExist(item.relativePath);
    if (hasPeaks !== next.hasPeaks) next = { ...next, hasPeaks };
    if (next !== item) {
      items.set(item.id, next);
      changed = true;
    }
  }
  if (dropped.length > 0 || changed) await save(items);
  // Files go after the manifest no longer lists them.
  for (const rel of doomed) await ops.deleteFiles(items, rel).catch(() => undefined);
  return dropped;
}
