/** Error types a DownloadJob can carry (`job.error.type`). */
export type DownloadErrorType =
  | 'DISK_FULL'
  | 'PERMISSION_DENIED'
  | 'NOT_FOUND_LOCAL'
  | 'NETWORK'
  | 'HTTP'
  | 'SIZE_MISMATCH'
  | 'RESOLVE_FAILED'
  | 'NO_SUCH_FORMAT'
  | 'PATH_ESCAPE';

/** A failure with a type the UI can explain; `retryable` ones are retried with backoff. */
export class DownloadError extends Error {
  override name = 'DownloadError';
  constructor(
    readonly type: DownloadErrorType,
    message: string,
    readonly retryable = false,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const LOCAL: Record<string, [DownloadErrorType, string]> = {
  ENOSPC: ['DISK_FULL', 'The disk is full'],
  EDQUOT: ['DISK_FULL', 'The disk quota is exhausted'],
  EFBIG: ['DISK_FULL', 'The file is too large for this disk'],
  EACCES: ['PERMISSION_DENIED', 'Permission denied'],
  EPERM: ['PERMISSION_DENIED', 'Permission denied'],
  EROFS: ['PERMISSION_DENIED', 'The disk is read-only'],
  ENOENT: ['NOT_FOUND_LOCAL', 'The folder no longer exists'],
  ENOTDIR: ['NOT_FOUND_LOCAL', 'A folder on the path is not a folder'],
};

/** Maps a file-system failure at `path` to a clear DownloadError (unknown codes keep their message). */
export function fileSystemError(error: unknown, path: string): DownloadError {
  if (error instanceof DownloadError) return error;
  const code = (error as NodeJS.ErrnoException | null)?.code ?? '';
  const known = LOCAL[code];
  if (known) {
    // A full disk keeps the part so the download can go on; say so, and how to get the space back.
    const kept =
      known[0] === 'DISK_FULL'
        ? 'The partial file is kept so the download can continue: free some space, then choose Retry; or choose ' +
          'Remove partial file to delete it now.'
        : 'The partial file is kept.';
    return new DownloadError(known[0], `${known[1]} (${code}) while writing ${path}. ${kept}`, false, {
      cause: error,
    });
  }
  return new DownloadError(
    'NOT_FOUND_LOCAL',
    `Could not write ${path}: ${String((error as Error)?.message ?? error)}`,
    false,
    {
      cause: error,
    },
  );
}

/** Runs a file-system step and maps its failure with fileSystemError. */
export async function local<T>(path: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw fileSystemError(error, path);
  }
}
