import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import type { AudioAnalysis } from '../../../shared/audio';
import type {
  DownloadJob,
  DownloadProgress,
  DownloadState,
  MediaFormat,
  ProjectDownloadSelection,
} from '../../../shared/ipc';
import { createCoalescedTask } from '../coalesced-task';
import { recoverStateFile, salvage, type StateNotices } from '../state-recovery';
import type { EventBus } from '../events';
import { syncFile, syncFolder, type KnownFile, type Library } from '../library/library';
import { LinkRefusedError } from '../library/safe-fs';
import { PathEscapeError, partPathFor } from '../library/sanitize';
import { DownloadError } from './errors';
import { followInline, type Follow, type FollowedEnvelope, type PartReader } from './follow-threads';
import {
  runJob,
  type DownloadRequest,
  type Finished,
  type JobRecord,
  type ResolvedDownload,
  type RetryPolicy,
} from './job';
import { leanHttpGet } from './lean-http';
import { createRateMeter, type RateMeter } from './rate-meter';
import { withRedirects, type HttpGet } from './transport';

export type { DownloadRequest, ResolvedDownload, RetryPolicy } from './job';

// The download queue: which jobs exist (persisted across restarts), how many run at once, pause, resume and
// cancel, progress events, and the background flush of finished files. One job's run is job.ts.

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

type PersistedJob = Pick<JobRecord, 'job' | 'request' | 'etag' | 'orderedSeconds'>;

interface StateFile {
  version: 1;
  jobs: PersistedJob[];
}

/** The queue's file; a job without its id or deliverable is dropped alone. */
const StateFileSchema = z.object({
  version: z.number().optional(),
  jobs: z.array(
    z.custom<PersistedJob>((s) => {
      const v = s as Partial<PersistedJob> | null;
      return typeof v?.job?.id === 'string' && typeof v.request?.deliverableId === 'string';
    }),
  ),
});

interface Entry extends JobRecord {
  controller: AbortController | null;
  running: Promise<void> | null;
  meter: RateMeter;
  /** Why the current run was stopped by us. */
  stopReason: 'pause' | 'cancel' | 'close' | null;
  /** The reader following the current run's part, while one is open. */
  reader: PartReader | null;
}

const FINISHED: ReadonlySet<DownloadState> = new Set(['done', 'canceled']);
const ACTIVE: ReadonlySet<DownloadState> = new Set(['downloading', 'verifying']);

const isFile = (path: string) =>
  stat(path).then(
    (st) => st.isFile(),
    () => false,
  );

/**
 * The files finished downloads put in the library, by relative path, as the queue's file keeps them (read only;
 * nothing if it cannot be read): the library lists a file its damaged manifest lost under its full ids again.
 */
export async function finishedFilesIn(stateFile: string): Promise<Map<string, KnownFile>> {
  const files = new Map<string, KnownFile>();
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(stateFile, 'utf8'));
  } catch {
    return files;
  }
  for (const { job, orderedSeconds } of salvage(StateFileSchema, parsed).value?.jobs ?? []) {
    if (job.state !== 'done' || !job.libraryId) continue;
    files.set(job.relativePath, {
      id: job.libraryId,
      projectId: job.projectId,
      projectTitle: job.projectTitle,
      deliverableId: job.deliverableId,
      deliverableName: job.deliverableName,
      serviceSubCategory: job.serviceSubCategory,
      version: job.version,
      format: job.format,
      orderedSeconds: orderedSeconds ?? null,
      ...(job.profileId ? { profileId: job.profileId } : {}),
    });
  }
  return files;
}

/** Creates the download manager and restores the queue persisted in `stateFile`. */
export function createDownloads(deps: DownloadsDeps): Downloads {
  const http = deps.fetchImpl ?? withRedirects(leanHttpGet);
  const flush = deps.syncFile ?? syncFile;
  const follow = deps.follow ?? followInline;
  const now = deps.now ?? (() => new Date());
  const retry: RetryPolicy = { attempts: 6, baseDelayMs: 250, maxDelayMs: 10_000, ...deps.retry };
  const interval = deps.progressIntervalMs ?? 250;
  const entries = new Map<string, Entry>();
  let closed = false;
  let idleWaiters: Array<() => void> = [];

  // ---- persistence -------------------------------------------------------------------------------------------
  const snapshot = (): StateFile => ({
    version: 1,
    jobs: [...entries.values()].map(({ job, request, etag, orderedSeconds }) => ({
      job,
      request,
      etag,
      orderedSeconds,
    })),
  });
  const saving = createCoalescedTask(async () => {
    await mkdir(dirname(deps.stateFile), { recursive: true });
    // Atomic but not fsynced: an fsync mid-transfer stalls the download's own writes (README.md). After a
    // power cut the worst case is an older queue; a job's byte count is always re-read from its .part.
    await writeFileAtomic(deps.stateFile, JSON.stringify(snapshot()), { fsync: false });
  });
  function persist(): Promise<void> {
    // The queue still works in memory; the next change tries again.
    return saving.run().catch(() => undefined);
  }

  async function restore(): Promise<void> {
    // A damaged file keeps a copy and costs only its bad jobs (state-recovery.ts); what is left is saved below.
    const recovered = recoverStateFile(deps.stateFile, StateFileSchema, {
      label: 'The download queue file',
      notices: deps.notices,
    });
    if (!recovered.value) {
      if (recovered.damaged) await persist();
      return;
    }
    const saved = recovered.value.jobs;
    // Versions before job-keyed parts wrote `<final name>.part`; two jobs with one final name shared it.
    const legacyUsers = new Map<string, number>();
    for (const { job } of saved) {
      if (!FINISHED.has(job.state))
        legacyUsers.set(job.relativePath, (legacyUsers.get(job.relativePath) ?? 0) + 1);
    }
    const untagged = saved.some((s) => !s.job.profileId);
    const legacyProfileId =
      untagged && deps.legacyProfileId ? await deps.legacyProfileId().catch(() => undefined) : undefined;
    for (const saved1 of saved) {
      const job: DownloadJob = { ...saved1.job, rate: 0, etaSeconds: null };
      if (!job.profileId && legacyProfileId) {
        job.profileId = legacyProfileId;
        saved1.request.profileId = legacyProfileId;
      }
      // An app that quit mid-transfer picks up where it was; paused and failed jobs wait for the user.
      if (job.state === 'downloading' || job.state === 'verifying') job.state = 'queued';
      if (job.state === 'canceled') await rm(partPath(job), { force: true }).catch(() => undefined);
      if (!FINISHED.has(job.state)) {
        await adoptLegacyPart(job, legacyUsers.get(job.relativePath) === 1);
        try {
          job.bytes = (await stat(partPath(job))).size;
        } catch {
          job.bytes = 0; // no .part yet, or a path that fails the library check (the run will report it)
        }
      }
      entries.set(job.id, {
        job,
        // Versions before requests named their project: the job knows it.
        request: { ...saved1.request, projectId: saved1.request.projectId ?? job.projectId },
        etag: saved1.etag ?? null,
        orderedSeconds: saved1.orderedSeconds ?? null,
        resolved: null,
        controller: null,
        running: null,
        meter: createRateMeter(),
        stopReason: null,
        reader: null,
      });
    }
    if (legacyProfileId || recovered.damaged) void persist();
  }

  /**
   * A job persisted by an older version: its path is planned again in the current layout (with the deliverable's
   * short id), and its `<old final name>.part` becomes the job's own part when no other job shared it (a shared
   * part may hold two files' bytes: it is deleted and the job starts over).
   */
  async function adoptLegacyPart(job: DownloadJob, sole: boolean): Promise<void> {
    let planned: string;
    try {
      planned = deps.library.planPath(job);
    } catch {
      return;
    }
    const legacyRel = job.relativePath;
    job.relativePath = planned;
    try {
      const legacy = `${deps.library.resolve(legacyRel)}.part`;
      if (!(await isFile(legacy))) return;
      const own = await deps.library.resolveReal(partPathFor(planned, job.id), true);
      if (sole && !(await isFile(own))) await rename(legacy, own);
      else await rm(legacy, { force: true });
    } catch {
      // Left as it is; the job downloads from the start.
    }
  }

  let gated = deps.startAfter !== undefined;
  const readyPromise = restore().then(() => pump());
  if (deps.startAfter) {
    void Promise.all([readyPromise, deps.startAfter.catch(() => undefined)]).then(() => {
      gated = false;
      pump();
    });
  }

  // ---- events ------------------------------------------------------------------------------------------------
  const changed = (entry: Entry) => {
    deps.emit('downloads.changed', { ...entry.job });
    void persist();
  };
  let ticker: NodeJS.Timeout | null = null;
  const lastSent = new Map<string, number>();
  function tick() {
    const progress: DownloadProgress[] = [];
    const t = Date.now();
    for (const { job, meter } of entries.values()) {
      if (job.state !== 'downloading') continue;
      meter.sample(t, job.bytes);
      job.rate = meter.rate();
      job.etaSeconds =
        job.total !== null && job.rate > 0 ? Math.max(0, (job.total - job.bytes) / job.rate) : null;
      if (lastSent.get(job.id) === job.bytes) continue;
      lastSent.set(job.id, job.bytes);
      progress.push({
        id: job.id,
        bytes: job.bytes,
        total: job.total,
        rate: job.rate,
        etaSeconds: job.etaSeconds,
      });
    }
    if (progress.length > 0) deps.emit('downloads.progress', progress);
    if (![...entries.values()].some((e) => e.job.state === 'downloading') && ticker) {
      clearInterval(ticker);
      ticker = null;
    }
  }
  const startTicker = () => {
    if (!ticker && !closed) {
      ticker = setInterval(tick, interval);
      ticker.unref();
    }
  };

  // ---- queue -------------------------------------------------------------------------------------------------
  const partPath = (job: DownloadJob) => deps.library.resolve(partPathFor(job.relativePath, job.id));
  const running = () => [...entries.values()].filter((e) => e.running !== null).length;

  function pump() {
    if (closed || gated) return;
    const limit = Math.max(1, Math.floor(deps.concurrency()) || 1);
    for (const entry of entries.values()) {
      if (running() >= limit) break;
      if (entry.job.state === 'queued' && !entry.running) launch(entry);
    }
    if (running() === 0 && ![...entries.values()].some((e) => e.job.state === 'queued')) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  function launch(entry: Entry) {
    let finished: Finished | null = null;
    const controller = new AbortController();
    entry.controller = controller;
    entry.stopReason = null;
    entry.job.state = 'downloading';
    entry.job.error = null;
    entry.meter = createRateMeter();
    changed(entry);
    startTicker();
    entry.running = runJob(entry, jobContext(entry), controller.signal)
      .then((result) => {
        entry.job.state = 'done';
        finished = result;
      })
      .catch((error: unknown) => {
        if (entry.stopReason) return; // pause/cancel/close already set the state they want
        const failure =
          error instanceof DownloadError
            ? error
            : error instanceof PathEscapeError || error instanceof LinkRefusedError
              ? new DownloadError('PATH_ESCAPE', error.message)
              : new DownloadError('NETWORK', String((error as Error)?.message ?? error));
        entry.job.state = 'failed';
        entry.job.error = { type: failure.type, message: failure.message };
      })
      .finally(() => {
        entry.running = null;
        entry.controller = null;
        entry.job.rate = 0;
        entry.job.etaSeconds = null;
        if (!entry.stopReason) changed(entry);
        if (finished) confirmDurable(finished);
        pump();
      });
  }

  // ---- durability --------------------------------------------------------------------------------------------
  // The data fsync follows the rename, off the download's critical path: the item stays `unsynced` (re-verified at
  // the next start) until it has gone through, since only a power cut in the writeback window could leave it short.
  let flushing: Promise<void> = Promise.resolve();
  function confirmDurable({ path, item }: Finished) {
    flushing = flushing.then(async () => {
      try {
        await flush(path);
        await syncFolder(dirname(path));
        await deps.library.markSynced(item.id, item.downloadedAt);
      } catch {
        // Left unsynced (EIO, the file removed meanwhile, ...): the start-up check verifies it again.
      }
    });
  }

  /** The follower, with each reader it opens for a job kept on the job's entry until it is closed. */
  const followFor = (entry: Entry): Follow =>
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

  const jobContext = (entry: Entry) => ({
    library: deps.library,
    resolve: deps.resolve,
    http,
    follow: followFor(entry),
    ...(deps.analyze ? { analyze: deps.analyze } : {}),
    retry,
    now,
    changed: () => changed(entry),
    persist: () => void persist(),
  });

  // ---- public ------------------------------------------------------------------------------------------------
  const get = (id: string) => {
    const entry = entries.get(id);
    if (!entry) throw new DownloadNotFoundError(`No download ${id}.`);
    return entry;
  };

  async function stop(entry: Entry, reason: 'pause' | 'cancel' | 'close') {
    entry.stopReason = reason;
    entry.controller?.abort();
    if (entry.running) await entry.running;
  }

  const downloads: Downloads = {
    ready: () => readyPromise,

    async start(request) {
      await readyPromise;
      const unfinished = (version: number | undefined) =>
        [...entries.values()].find(
          (entry) =>
            entry.request.profileId === request.profileId &&
            entry.request.deliverableId === request.deliverableId &&
            entry.request.format === request.format &&
            (version === undefined || entry.job.version === version) &&
            !FINISHED.has(entry.job.state),
        );
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
      const job: DownloadJob = {
        id: randomUUID(),
        ...(request.profileId ? { profileId: request.profileId } : {}),
        projectId: resolved.projectId,
        projectTitle: resolved.projectTitle,
        deliverableId: request.deliverableId,
        deliverableName: resolved.deliverableName,
        serviceSubCategory: resolved.serviceSubCategory,
        version: resolved.version,
        format: request.format,
        state: 'queued',
        bytes: 0,
        total: null,
        rate: 0,
        etaSeconds: null,
        error: null,
        relativePath,
        libraryId: null,
        createdAt: now().toISOString(),
      };
      const entry: Entry = {
        job,
        request: { ...request },
        etag: null,
        orderedSeconds: resolved.orderedSeconds,
        resolved,
        controller: null,
        running: null,
        meter: createRateMeter(),
        stopReason: null,
        reader: null,
      };
      entries.set(job.id, entry);
      changed(entry);
      // The job is on disk before its part can be: a crash never leaves a part that no job knows.
      await persist();
      pump();
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
        await stop(entry, 'pause');
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
        pump();
      }
      return { ...entry.job };
    },

    async cancel(id) {
      await readyPromise;
      const entry = get(id);
      if (FINISHED.has(entry.job.state)) return { ...entry.job };
      await stop(entry, 'cancel');
      if (entry.job.state === 'done') {
        changed(entry);
        return { ...entry.job }; // it finished while we were stopping it: keep the complete file
      }
      await rm(partPath(entry.job), { force: true }).catch(() => undefined);
      await rm(`${partPath(entry.job)}.peaks`, { force: true }).catch(() => undefined);
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
      if (running() === 0 && ![...entries.values()].some((e) => e.job.state === 'queued')) return;
      await new Promise<void>((resolve) => idleWaiters.push(resolve));
    },

    async close() {
      await readyPromise;
      closed = true;
      if (ticker) clearInterval(ticker);
      ticker = null;
      await Promise.all([...entries.values()].filter((e) => e.running).map((e) => stop(e, 'close')));
      await persist();
      await saving.running()?.catch(() => undefined);
      await flushing;
    },
  };
  return downloads;
}
