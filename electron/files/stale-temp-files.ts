/**
 * The leftovers of killed atomic writes: an atomic write puts the new document in a temp file beside the state file
 * and renames it over; a kill between the two leaves the temp file there for ever (one was 14.9 MB). Main's state
 * files and the sandbox's state and certificate files are swept with this at start, before their first write.
 */
import { lstat, readdir, realpath, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Whether `name` is a temp file an atomic write of the state file `stateName` leaves when killed between its write
 * and its rename: write-file-atomic's `<file>.<uint32>` (lib/index.js getTmpname), atomically's (electron-store)
 * `<file>.tmp-<digits><hex>`, and library/safe-fs's `<file>.<hex>.tmp`.
 */
export function isStateTempFile(name: string, stateName: string): boolean {
  if (!name.startsWith(`${stateName}.`)) return false;
  const rest = name.slice(stateName.length + 1);
  return (
    /^\d{1,10}$/u.test(rest) || /^tmp-\d{10}[0-9a-f]{6}$/u.test(rest) || /^[0-9a-f]{12}\.tmp$/u.test(rest)
  );
}

/**
 * Removes the leftovers of killed atomic writes beside `file`, and beside the file a link at `file` leads to (the
 * writers replace the target, so their temp files stand there). Regular files of those names only: a folder or a
 * link with such a name is left alone. Answers the paths removed.
 */
export async function removeStaleTempFiles(file: string): Promise<string[]> {
  const places = new Set([file, await realpath(file).catch(() => file)]);
  const removed: string[] = [];
  for (const place of places) {
    const dir = dirname(place);
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (!isStateTempFile(name, basename(place))) continue;
      const path = join(dir, name);
      const info = await lstat(path).catch(() => undefined);
      if (!info?.isFile()) continue;
      await rm(path, { force: true });
      removed.push(path);
    }
  }
  return removed;
}
