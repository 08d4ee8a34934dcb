/**
 * One job of the download queue as the queue holds it (its record, the run in progress, its rate meter and the
 * reader following its part), the states that count as finished or active, where its part file is, and how a
 * run's failure becomes what the job tells the producer.
 */
import type { DownloadJob, DownloadState, MediaFormat } from '../../../shared/ipc';
import type { Library } from '../library';
import { LinkRefusedError } from '../library';
import { PathEscapeError, partPathFor } from '../library';
import { DownloadError } from './errors';
import type { Follow, PartReader } from './follow-threads';
import type { JobRecord } from './job';
import { createRateMeter, type RateMeter } from './rate-meter';

export interface Entry extends JobRecord {
  controller: AbortController | null;
  running: Promise<void> | null;
  meter: RateMeter;
  /** Why the current run was stopped by us. */
  stopReason: 'pause' | 'cancel' | 'close' | null;
  /** The reader following the current run's part, while one is open. */
  reader: PartReader | null;
}

export const FINISHED: ReadonlySet<DownloadState> = new Set(['done', 'canceled']);
export const ACTIVE: ReadonlySet<DownloadState> = new Set(['downloading', 'verifying']);

/** A job's entry, with nothing running yet. */
export function newEntry(record: JobRecord): Entry {
  return {
    ...record,
    controller: null,
    running: null,
    meter: createRateMeter(),
    stopReason: null,
    reader: null,
  };
}

/** The job's own part file, beside its final name. */
export const partPathOf = (library: Pick<Library, 'resolve'>, job: DownloadJob): string =>
  library.resolve(partPathFor(job.relativePath, job.id));

/** What a run's failure tells the producer: a path that leaves the library says so; anything else is the network's. */
export function failureOf(error: unknown): DownloadError {
  return error instanceof DownloadError
    ? error
    : error instanceof PathEscapeError || error instanceof LinkRefusedError
      ? new DownloadError('PATH_ESCAPE', error.message)
      : new DownloadError('NETWORK', String((error as Error)?.message ?? error));
}

/** The follower, with each reader it opens for a job kept on the job's entry until it is closed. */
export const followFor = (entry: Entry, follow: Follow): Follow =>
  Object.assign(
    (path: string, format: MediaFormat): PartReader => {
      const reader = follow(path, format);
      entry.reader = reader;
      return {
        ...reader,
        close() {
          if (entry.reader === reader) entry.reader = null;
          reader.close();
        },
      };
    },
    follow.readBuffers ? { readBuffers: follow.readBuffers } : {},
  );
