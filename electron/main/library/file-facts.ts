/**
 * Facts about one file of the library, each read without changing anything but the disk's cache: is it a regular
 * file (not a link), does it exist, its checksum, whether an item written before its data was flushed is intact,
 * and the fsyncs that make it durable.
 */
import { createHash } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { lstat, open, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, sep } from 'node:path';
import type { LibraryItem } from '../../../shared/ipc';
import { LibraryFileError } from './errors';

/**
 * Proves that `path` is a regular file itself, not a link to one. Its folder is already the real one inside the
 * library (`resolveReal` compared real paths); its own entry is read without following a link. (Comparing the
 * file's real path too would add nothing, and on a disk that ignores case it would refuse a file whose name
 * differs from the recorded one only in case.)
 */
export async function checkItemFile(path: string): Promise<void> {
  let st: Stats;
  try {
    st = await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // gone: each caller says "not found" its way
    throw error;
  }
  if (st.isSymbolicLink()) {
    throw new LibraryFileError(
      'LINK_REFUSED',
      `${path} is a link, not the file Takedesk downloaded; Takedesk does not read or serve files through links ` +
        'in the library. Remove the link, then download the file again.',
    );
  }
  if (!st.isFile()) {
    throw new LibraryFileError(
      'NOT_A_FILE',
      `${path} is a folder (or another kind of entry), not the file Takedesk downloaded. Move it out of the ` +
        'library, then download the file again.',
    );
  }
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

export async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Whether an item written before its data was flushed is intact: 'bad' when its size or checksum differ (a power
 * cut in the writeback window), 'unknown' when the file could not be read or flushed (ask again next time).
 */
export async function verifyUnsynced(path: string, item: LibraryItem): Promise<'good' | 'bad' | 'unknown'> {
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

export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

export const sameFile = (a: Stats, b: Stats) => a.dev === b.dev && a.ino === b.ino;

/** Whether `child` is `parent` or inside it (both absolute, resolved). */
export function within(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}
