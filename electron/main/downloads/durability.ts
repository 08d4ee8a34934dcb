/**
 * The background flush of finished files. The data fsync follows the rename, off the download's critical path: the
 * item stays `unsynced` (re-verified at the next start) until it has gone through, since only a power cut in the
 * writeback window could leave it short.
 */
import { dirname } from 'node:path';
import { syncFolder, type Library } from '../library';
import type { Finished } from './job';

export function createDurability(
  flush: (path: string) => Promise<void>,
  library: Pick<Library, 'markSynced'>,
) {
  let flushing: Promise<void> = Promise.resolve();
  /** Flushes a finished file in turn, then marks its item synced. */
  function confirm({ path, item }: Finished) {
    flushing = flushing.then(async () => {
      try {
        await flush(path);
        await syncFolder(dirname(path));
        await library.markSynced(item.id, item.downloadedAt);
      } catch {
        // Left unsynced (EIO, the file removed meanwhile, ...): the start-up check verifies it again.
      }
    });
  }

  /** Resolves once every flush asked for so far has gone through (or failed). */
  const settled = () => flushing;
  return { confirm, settled };
}
