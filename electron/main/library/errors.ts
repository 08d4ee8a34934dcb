/** The library's errors, in words for the producer, and file-system failures said plainly. */

/** Thrown for an id that is not in the manifest. */
export class LibraryItemNotFoundError extends Error {
  override name = 'LibraryItemNotFoundError';
  readonly type = 'NOT_FOUND';
}

/**
 * Why an item's file cannot be used or removed, in words for the producer: `LINK_REFUSED` (a link stands where the
 * file was: Takedesk reads nothing through it), `NOT_A_FILE` (a folder or another non-file stands there),
 * `LIBRARY_NOT_WRITABLE` (the manifest could not be saved: nothing changed, or a listed file could not be deleted).
 */
export class LibraryFileError extends Error {
  override name = 'LibraryFileError';
  readonly status = 0;
  constructor(
    readonly type: 'LINK_REFUSED' | 'NOT_A_FILE' | 'LIBRARY_NOT_WRITABLE',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A file-system failure in a few plain words, with its code (EACCES, EROFS, EISDIR...). */
export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const words: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EROFS: 'the disk is read-only',
    ENOSPC: 'the disk is full',
    EISDIR: 'a folder is in the way',
    ENOTDIR: 'a file is in the way of a folder',
  };
  return code
    ? `${words[code] ?? 'the file system refused'}, ${code}`
    : String((error as Error)?.message ?? error);
}
