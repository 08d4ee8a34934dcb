/**
 * The download queue: which jobs exist (persisted across restarts), how many run at once, pause, resume and
 * cancel, progress events, and the background flush of finished files. One job's run is job.ts.
 *
 * A thin front over its units: the records on disk (`queue-store.ts`), the scheduling (`scheduler.ts`), the
 * progress events (`progress.ts`), the flush of finished files (`durability.ts`) and the entry of one job
 * (`queue-entry.ts`). What is left here is the `Downloads` port: starting a job (or finding the one that already
 * stands for the request), pausing, resuming, cancelling, listing, and the app's quit.
 */
import { rm } from 'node:fs/promises';
import type { AudioAnalysis } from '../../../shared/audio';
import type { DownloadJob, ProjectDownloadSelection } from '../../../shared/ipc';
import type { EventBus } from '../kernel/events';
import { syncFile, type Library } from '../library';
import type { StateNotices } from '../kernel/state-recovery';
import { createDurability } from './durability';
import { DownloadError } from './errors';
import { followInline, type Follow, type FollowedEnvelope } from './follow-threads';
import { runJob, type DownloadRequest, type ResolvedDownload, type RetryPolicy } from './job';
import { leanHttpGet } from './lean-http';
import { createProgressTicker } from './progress';
import { ACTIVE, FINISHED, followFor, newEntry, partPathOf, type Entry } from './queue-entry';
import { createQueueStore } from './queue-store';
import { newJob, unfinishedJobFor } from './requests';
import { createScheduler } from './scheduler';
import { withRedirects, type HttpGet } from './transport';

export type { DownloadRequest, ResolvedDownload, RetryPolicy } from './job';
export { finishedFilesIn } from './queue-store';

/** Collaborators of the download manager. */
export interface DownloadsDeps {
  library: Pick<
    Library,
    | 'planPath'
    | 'resolve'
    | 'resolveReal'
    | 'root'
    | 'itemId'
    | 'commit'
    | 'update'
    | 'markSynced'
    | 'peaksPathOf'
  >;
  resolve: (request: DownloadRequest) => Promise<ResolvedDownload>;
  /** Every file of a project in the given formats (the deliverables that have them). */
  resolveProject?: (projectId: string, selection?: ProjectDownloadSelection) => Promise<DownloadRequest[]>;
  emit: EventBus['emit'];
  /** The profile that jobs saved before profiles kept their own downloads belong to (the one active at this start). */
  legacyProfileId?: () => Promise<string>;
  /** JSON file that keeps the queue across restarts (written atomically). */
  stateFile: string;
  concurrency: () => number;
  /**
   * Reads each part file behind the writer for its checksum (and, if it can, the audio analysis and peaks) while
   * the download streams. Default: checksum only, on this thread.
   */
  follow?: Follow;
  /**
   * Analyses a finished audio file (and may write its `.peaks` sidecar) when following gave no analysis;
   * failures are ignored.
   */
  analyze?: (path: string, format: 'wav' | 'mp3') => Promise<AudioAnalysis | null>;
  /** How long that analysis may take before the job finishes without it (default `lateAnalysisDeadlineMs`). */
  lateAnalysisDeadline?: (size: number) => number;
  /** The transport (default: the lean reader on this thread, following redirects). */
  fetchImpl?: HttpGet;
  /**
   * Jobs run only once this settles: the library's start-up check, so that no download renames a file over one it
   * is verifying.
   */
  startAfter?: Promise<unknown>;
  /** Flushes a finished file's data to the disk, after it is listed (default: open, fsync, close). */
  syncFile?: (path: string) => Promise<void>;
  retry?: Partial<RetryPolicy>;
  /** Minimum time between 'downloads.progress' events (all jobs together). Default 250 ms. */
  progressIntervalMs?: number;
  now?: () => Date;
  /** Told what was reset when the state file was damaged. */
  notices?: StateNotices;
}

/** The download queue. */
export interface Downloads {
  /** Resolves once the persisted queue is loaded (other methods wait for it too). */
  ready(): Promise<void>;
  start(request: DownloadRequest): Promise<DownloadJob>;
  startProject(projectId: string, selection?: ProjectDownloadSelection): Promise<DownloadJob[]>;
  list(): Promise<DownloadJob[]>;
  pause(id: string): Promise<DownloadJob>;
  resume(id: string): Promise<DownloadJob>;
  /** Stops the job and deletes its `.part` (for a failed job, the "Remove partial file" action). */
  cancel(id: string): Promise<DownloadJob>;
  /**
   * The waveform decoded so far of a job streaming in, from bucket `from` on (its follow thread's own peaks: the
   * part is not read again); null when no follower with analysis runs for it.
   */
  envelope(id: string, from: number): Promise<FollowedEnvelope | null>;
  /** Resolves when no job is running or queued (paused and failed jobs do not count). */
  idle(): Promise<void>;
  /**
   * App quit: stops transfers without changing their persisted state, so the next start resumes them, and waits
   * for the data of finished files to be flushed to the disk.
   */
  close(): Promise<void>;
}

/** Thrown for an unknown job id. */
export class DownloadNotFoundError extends Error {
  override name = 'DownloadNotFoundError';
  readonly type = 'NOT_FOUND';
}

/** Creates the download manager and restores the queue persisted in `stateFile`. */
export function createDownloads(deps: DownloadsDeps): Downloads {
  const http = deps.fetchImpl ?? withRedirects(leanHttpGet);
  const follow = deps.follow ?? followInline;
  const now = deps.now ?? (() => new Date());
  const retry: RetryPolicy = { attempts: 6, baseDelayMs: 250, maxDelayMs: 10_000, ...deps.retry };
  const entries = new Map<string, Entry>();

  const store = createQueueStore(deps, entries);
  const progress = createProgressTicker(entries, deps.emit, deps.progressIntervalMs ?? 250);
  const durability = createDurability(deps.syncFile ?? syncFile, deps.library);
  /** What the job's row shows changed: an event, nothing worth saving. */
  const shown = (entry: Entry) => deps.emit('downloads.changed', { ...entry.job });
  const changed = (entry: Entry) => {
    shown(entry);
    void store.persist();
  };
  const jobContext = (entry: Entry) => ({
    library: deps.library,
    resolve: deps.resolve,
    http,
    follow: followFor(entry, follow),
    ...(deps.analyze ? { analyze: deps.analyze } : {}),
    ...(deps.lateAnalysisDeadline ? { lateAnalysisDeadline: deps.lateAnalysisDeadline } : {}),
    retry,
    now,
    changed: () => changed(entry),
    shown: () => shown(entry),
    persist: () => void store.persist(),
  });
  const scheduler = createScheduler({
    entries,
    concurrency: deps.concurrency,
    gated: deps.startAfter !== undefined,
    run: (entry, signal) => runJob(entry, jobContext(entry), signal),
    changed,
    started: () => progress.start(),
    finished: (finished) => durability.confirm(finished),
  });

  const readyPromise = store.restore().then(() => scheduler.pump());
  if (deps.startAfter) {
    void Promise.all([readyPromise, deps.startAfter.catch(() => undefined)]).then(() => scheduler.open());
  }

  const get = (id: string) => {
    const entry = entries.get(id);
    if (!entry) throw new DownloadNotFoundError(`No download ${id}.`);
    return entry;
  };

  const downloads: Downloads = {
    ready: () => readyPromise,

    async start(request) {
      await readyPromise;
      const unfinished = (version: number | undefined) => unfinishedJobFor(entries, request, version);
      const again = (entry: Entry) =>
        entry.job.state === 'paused' || entry.job.state === 'failed'
          ? downloads.resume(entry.job.id)
          : Promise.resolve({ ...entry.job });
      // A request that names its version is a duplicate of that version's job only.
      if (request.version !== undefined) {
        const same = unfinished(request.version);
        if (same) return again(same);
      }
      let resolved: ResolvedDownload;
      try {
        resolved = await deps.resolve(request);
      } catch (error) {
        // Which version is the latest cannot be told now: a job of this file that waits is resumed as before.
        const waiting = request.version === undefined ? unfinished(undefined) : undefined;
        if (waiting) return again(waiting);
        // The service said the file is not there (no WAV, say): that answer goes back as it is, so the caller can
        // ask for another format (the background fetch falls back to MP3).
        if ((error as { type?: unknown } | null)?.type === 'FORMAT_NOT_AVAILABLE') throw error;
        throw new DownloadError('RESOLVE_FAILED', `Could not look up the file: ${(error as Error).message}`);
      }
      // "The latest" is the version the service names now: a paused job of version 1 does not stand in for a
      // version 2 delivered since (the background fetch asks for the latest of each delivery it is told of).
      if (request.version === undefined) {
        const same = unfinished(resolved.version);
        if (same) return again(same);
      }
      const relativePath = deps.library.planPath({
        ...resolved,
        deliverableId: request.deliverableId,
        format: request.format,
      });
      const job = newJob(request, resolved, relativePath, now());
      const entry = newEntry({
        job,
        request: { ...request },
        etag: null,
        orderedSeconds: resolved.orderedSeconds,
        resolved,
      });
      entries.set(job.id, entry);
      changed(entry);
      // The job is on disk before its part can be: a crash never leaves a part that no job knows.
      await store.persist();
      scheduler.pump();
      return { ...job };
    },

    async startProject(projectId, selection) {
      await readyPromise;
      if (!deps.resolveProject) throw new Error('Downloading a whole project is not available.');
      const requests = await deps.resolveProject(projectId, selection);
      const jobs: DownloadJob[] = [];
      for (const request of requests) jobs.push(await downloads.start(request));
      return jobs;
    },

    async list() {
      await readyPromise;
      return [...entries.values()].map((e) => ({ ...e.job }));
    },

    async pause(id) {
      await readyPromise;
      const entry = get(id);
      if (entry.job.state === 'queued' || ACTIVE.has(entry.job.state)) {
        await scheduler.stop(entry, 'pause');
        if (entry.job.state !== 'done') entry.job.state = 'paused';
        changed(entry);
      }
      return { ...entry.job };
    },

    async resume(id) {
      await readyPromise;
      const entry = get(id);
      if (entry.job.state === 'paused' || entry.job.state === 'failed') {
        // The link of the last run may be gone by now (the sandbox restarted on another port, a signed URL
        // expired): a resumed job asks the service again.
        entry.resolved = null;
        entry.job.state = 'queued';
        entry.job.error = null;
        changed(entry);
        scheduler.pump();
      }
      return { ...entry.job };
    },

    async cancel(id) {
      await readyPromise;
      const entry = get(id);
      if (FINISHED.has(entry.job.state)) return { ...entry.job };
      await scheduler.stop(entry, 'cancel');
      if (entry.job.state === 'done') {
        changed(entry);
        return { ...entry.job }; // it finished while we were stopping it: keep the complete file
      }
      await rm(partPathOf(deps.library, entry.job), { force: true }).catch(() => undefined);
      await rm(`${partPathOf(deps.library, entry.job)}.peaks`, { force: true }).catch(() => undefined);
      entry.job.state = 'canceled';
      entry.job.bytes = 0;
      changed(entry);
      return { ...entry.job };
    },

    async envelope(id, from) {
      const reader = entries.get(id)?.reader;
      return (await reader?.envelope?.(from)) ?? null;
    },

    async idle() {
      await readyPromise;
      await scheduler.whenIdle();
    },

    async close() {
      await readyPromise;
      progress.close();
      await scheduler.close();
      await store.persist();
      await store.saving()?.catch(() => undefined);
      await durability.settled();
    },
  };
  return downloads;
  return downloads;
}
