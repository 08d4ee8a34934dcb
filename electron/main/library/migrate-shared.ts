/** The migration of a version-1 manifest, where two items could share one file, to a file of each item's own. */
import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import type { LibraryItem } from '../../../shared/ipc';
import { sameFile, sha256Of } from './file-facts';
import { ownerOf, pathKey, type LibraryPaths } from './paths';
import { placeNoReplace, type LinkFn } from './safe-fs';
import { withCollisionSuffix } from './sanitize';

/**
 * Migration of libraries written before every item had a path of its own (manifest version 1): two deliverables
 * with the same name shared one file, and the later download overwrote the earlier. Recorded paths are kept (no
 * file of the user is renamed). Of items that share one file, the newest whose sha256 matches the bytes keeps it;
 * one whose sha256 no longer matches (its bytes were overwritten) is dropped like a vanished file, so it shows as
 * not downloaded and can be downloaded again; one whose sha256 also matches gets a copy under a name of its own.
 */
export async function migrateShared(
  items: Map<string, LibraryItem>,
  paths: LibraryPaths,
  onDropped: (item: LibraryItem) => void,
  link?: LinkFn,
): Promise<boolean> {
  const byKey = new Map<string, LibraryItem[]>();
  for (const item of items.values()) {
    const key = pathKey(item.relativePath);
    byKey.set(key, [...(byKey.get(key) ?? []), item]);
  }
  let changed = false;
  for (const group of byKey.values()) {
    if (group.length < 2) continue;
    // One file per inode: on a case-sensitive disk 'A.wav' and 'a.wav' are two files.
    const byFile: Array<{ st: Stats; path: string; items: LibraryItem[] }> = [];
    for (const item of group) {
      let path: string;
      let st: Stats;
      try {
        path = await paths.resolveReal(item.relativePath);
        st = await lstat(path);
      } catch {
        continue; // missing or outside: reconcile drops it
      }
      const same = byFile.find((f) => sameFile(f.st, st));
      if (same) same.items.push(item);
      else byFile.push({ st, path, items: [item] });
    }
    for (const { st, path, items: sharing } of byFile) {
      if (sharing.length < 2 || !st.isFile()) continue;
      const actual = await sha256Of(path).catch(() => null);
      const matches = (i: LibraryItem) =>
        i.size === st.size && (i.sha256 === '' ? actual !== null : i.sha256 === actual);
      const newestFirst = [...sharing].sort((a, b) => b.downloadedAt.localeCompare(a.downloadedAt));
      const keeper = newestFirst.find(matches) ?? newestFirst[0]!;
      for (const other of newestFirst) {
        if (other === keeper) continue;
        changed = true;
        if (matches(other)) {
          const own = await placeCopy(path, other.relativePath, items, paths, link);
          if (own) {
            items.set(other.id, { ...other, relativePath: own, hasPeaks: false });
            continue;
          }
        }
        items.delete(other.id);
        onDropped(other);
      }
    }
  }
  return changed;
}

/** Gives the bytes at `path` a second, free name beside `relativePath` (a hard link, or a copy); null if it cannot. */
async function placeCopy(
  path: string,
  relativePath: string,
  items: Map<string, LibraryItem>,
  paths: LibraryPaths,
  link?: LinkFn,
): Promise<string | null> {
  for (let n = 2; n < 100; n++) {
    const candidate = withCollisionSuffix(relativePath, n);
    if (ownerOf(items, candidate)) continue;
    try {
      await placeNoReplace(path, await paths.resolveReal(candidate), { keepSource: true, link });
      return candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return null;
    }
  }
  return null;
}
