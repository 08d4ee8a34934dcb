import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, link, lstat, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

// File operations of the library that never follow a link and never replace a file they did not make.

/** O_NOFOLLOW where the OS has it (POSIX); 0 on Windows, where callers lstat first. */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** Thrown when a file the library would write is a link (a planted one could lead anywhere). */
export class LinkRefusedError extends Error {
  override name = 'LinkRefusedError';
  readonly code = 'ELOOP';
}

/**
 * Opens `path` for reading and writing, creating it if missing (and emptying it when `truncate`), without following
 * a link at `path`: a link there fails with LinkRefusedError instead of writing wherever it leads.
 */
export async function openNoFollow(path: string, truncate = false): Promise<FileHandle> {
  if (NOFOLLOW === 0) {
    const st = await lstat(path).catch(() => null);
    if (st?.isSymbolicLink()) throw refused(path);
  }
  const flags = constants.O_RDWR | constants.O_CREAT | NOFOLLOW | (truncate ? constants.O_TRUNC : 0);
  try {
    return await open(path, flags, 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw refused(path, error);
    throw error;
  }
}

function refused(path: string, cause?: unknown): LinkRefusedError {
  return new LinkRefusedError(
    `${path} is a link; Takedesk does not write through links in the library.`,
    cause ? { cause } : undefined,
  );
}

/**
 * Writes `data` to `path` atomically (a new temporary file beside it, then a rename). Unlike write-file-atomic it
 * does not resolve a link at `path`: the rename replaces the link itself, so nothing is written where it pointed.
 */
export async function writeFileReplacing(
  path: string,
  data: string | Uint8Array,
  options: { fsync?: boolean } = {},
): Promise<void> {
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o644);
  try {
    await handle.writeFile(data);
    if (options.fsync) await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(tmp, { force: true }).catch(() => undefined);
    throw error;
  }
  await handle.close();
  try {
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw error;
  }
  if (options.fsync) await syncDir(dirname(path));
}

async function syncDir(path: string): Promise<void> {
  try {
    const handle = await open(path, 'r');
    await handle.sync().finally(() => handle.close());
  } catch {
    // Folders cannot be opened for fsync on Windows; the rename is still atomic there.
  }
}

/** Hard-link error codes that mean "this file system has no hard links" rather than a real failure. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EMLINK', 'EINVAL']);

/** How `placeNoReplace` gives a file its name; tests inject one without hard links. */
export type LinkFn = (existing: string, newPath: string) => Promise<void>;

/**
 * Gives the complete file `src` the name `dst` only if nothing (file, folder or link) has that name yet, atomically:
 * fails with EEXIST otherwise, so a file of another item is never replaced. With hard links (POSIX, NTFS) it links
 * and then drops `src`: `dst` appears complete or not at all. Where the file system has none (FAT, exFAT, some
 * shares) it reserves `dst` with an exclusive create and renames `src` over that reservation: a crash in between
 * leaves an empty file, never a partial one (an empty unlisted file is taken over by the next commit).
 * With `keepSource`, `src` stays (a second name for the same bytes, or a copy where there are no hard links).
 */
export async function placeNoReplace(
  src: string,
  dst: string,
  options: { keepSource?: boolean; link?: LinkFn } = {},
): Promise<void> {
  const linkFn = options.link ?? link;
  try {
    await linkFn(src, dst);
    if (!options.keepSource) await rm(src, { force: true });
    return;
  } catch (error) {
    if (!NO_HARD_LINKS.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
  }
  let source = src;
  if (options.keepSource) {
    source = `${dst}.${randomBytes(6).toString('hex')}.tmp`;
    await copyFile(src, source, constants.COPYFILE_EXCL);
  }
  const reservation = await open(
    dst,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW,
    0o644,
  );
  await reservation.close();
  try {
    await rename(source, dst);
  } catch (error) {
    await rm(dst, { force: true }).catch(() => undefined);
    if (source !== src) await rm(source, { force: true }).catch(() => undefined);
    throw error;
  }
}
