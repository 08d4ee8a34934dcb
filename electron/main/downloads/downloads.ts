import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import type { AudioAnalysis } from '../../../shared/audio';
import {
  isAudioFormat,
  type DownloadJob,
  type DownloadProgress,
  type DownloadState,
  type LibraryItem,
  type MediaFormat,
  type ProjectDownloadSelection,
} from '../../../shared/ipc';
import type { EventBus } from '../events';
import { syncFile, syncFolder, type Library } from '../library/library';
import { LinkRefusedError, openNoFollow, writeFileReplacing } from '../library/safe-fs';
import { PathEscapeError, partPathFor } from '../library/sanitize';
import { DownloadError, local, localError } from './errors';
import { fastHttpGet, UntrustedCertificateError } from './fast-http';
import {
  readableBody,
  RedirectError,
  withRedirects,
  type HttpGet,
  type HttpResponse,
  type PumpOptions,
} from './http';
import { createRateMeter, type RateMeter } from './rate';
import { encodePeaks } from '../audio/peaks';
import { followInline, type Follow, type FollowResult, type PartReader } from './follower';
import { pumpBody, writeChunks, type WriteChunks } from './transfer';

/** What the caller asks for. */
export interface DownloadRequest {
  deliverableId: string;
  format: MediaFormat;
  /** 1-based version; latest when omitted. */
  version?: number;
}

/** What `resolve` learns from the service about a requested file. */
export interface ResolvedDownload {
  /** Absolute media URL (wav, mp3, pdf). */
  url?: string;
  /** The script text, for 'txt'. */
  content?: string;
  /** Extra request headers for the media URL, if the host needs them. */
  headers?: Record<string, string>;
  /** Certificate authorities (PEM) trusted for the media instead of the system's: the Sandbox profile's own. */
  ca?: string;
  projectId: string;
  projectTitle: string;
  serviceSubCategory: string;
  deliverableName: string;
  version: number;
  orderedSeconds: number | null;
}

/** Retry policy for cut connections and 5xx answers. */
export interface RetryPolicy {
  /** Consecutive failures without any progress before giving up. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Collaborators of the download manager. */
export interface DownloadsDeps {
  library: Pick<
    Library,
    'planPath' | 'resolve' | 'resolveReal' | 'root' | 'itemId' | 'commit' | 'update' | 'markSynced'
  >;
  resolve: (request: DownloadRequest) => Promise<ResolvedDownload>;
  /** Every file of a project in the given formats (the deliverables that have them). */
  resolveProject?: (projectId: string, selection?: ProjectDownloadSelection) => Promise<DownloadRequest[]>;
  emit: EventBus['emit'];
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
  fetchImpl?: HttpGet;
  /** File writes; tests inject a failing one to simulate a full disk. */
  write?: WriteChunks;
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

interface PersistedJob {
  job: DownloadJob;
  request: DownloadRequest;
  etag: string | null;
  orderedSeconds: number | null;
}

interface StateFile {
  version: 1;
  jobs: PersistedJob[];
}

/** A file that is complete under its final name and listed, but whose data may still be only in the page cache. */
interface Finished {
  path: string;
  item: LibraryItem;
}

interface Entry extends PersistedJob {
  resolved: ResolvedDownload | null;
  controller: AbortController | null;
  running: Promise<void> | null;
  meter: RateMeter;
  /** Why the current run was stopped by us. */
  stopReason: 'pause' | 'cancel' | 'close' | null;
}

const FINISHED: ReadonlySet<DownloadState> = new Set(['done', 'canceled']);
const ACTIVE: ReadonlySet<DownloadState> = new Set(['downloading', 'verifying']);

const isFile = (path: string) =>
  stat(path).then(
    (st) => st.isFile(),
    () => false,
  );

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

function parseContentRange(value: string | undefined): { start: number; total: number | null } | null {
  const match = /^bytes (\d+)-(\d+)\/(\d+|\*)$/u.exec(value?.trim() ?? '');
  if (!match) return null;
  return { start: Number(match[1]), total: match[3] === '*' ? null : Number(match[3]) };
}

// If-Range needs a strong validator (RFC 9110 §13.1.5); a weak ETag cannot prove the bytes are the same.
const strongEtag = (etag: string | undefined) => (etag && !etag.startsWith('W/') ? etag : null);

/** Creates the download manager and restores the queue persisted in `stateFile`. */
export function createDownloads(deps: DownloadsDeps): Downloads {
  const http = deps.fetchImpl ?? withRedirects(fastHttpGet);
  const write = deps.write ?? writeChunks;
  const flush = deps.syncFile ?? syncFile;
  const follow = deps.follow ?? followInline;
  const now = deps.now ?? (() => new Date());
  const retry: RetryPolicy = { attempts: 6, baseDelayMs: 250, maxDelayMs: 10_000, ...deps.retry };
  const interval = deps.progressIntervalMs ?? 250;
  const entries = new Map<string, Entry>();
  let closed = false;
  let idleWaiters: Array<() => void> = [];

  // ---- persistence -------------------------------------------------------------------------------------------
  let saving: Promise<void> | null = null;
  let saveAgain = false;
  const snapshot = (): StateFile => ({
    version: 1,
    jobs: [...entries.values()].map(({ job, request, etag, orderedSeconds }) => ({
      job,
      request,
      etag,
      orderedSeconds,
    })),
  });
  function persist(): Promise<void> {
    if (saving) {
      saveAgain = true;
      return saving;
    }
    saving = (async () => {
      try {
        do {
          saveAgain = false;
          await mkdir(dirname(deps.stateFile), { recursive: true });
          // Atomic (temp file + rename) but not fsynced: the queue is rewritten on every state change, and an fsync
          // in the middle of a transfer forces a journal commit that stalls the download's own writes (measured:
          // ~10 % of loopback throughput). After a power cut the worst case is an older queue; the byte count of a
          // job is always re-read from its .part.
          await writeFileAtomic(deps.stateFile, JSON.stringify(snapshot()), { fsync: false });
        } while (saveAgain);
      } catch {
        // The queue still works in memory; the next change tries again.
      } finally {
        saving = null;
      }
    })();
    return saving;
  }

  async function restore(): Promise<void> {
    let parsed: Partial<StateFile>;
    try {
      parsed = JSON.parse(await readFile(deps.stateFile, 'utf8')) as Partial<StateFile>;
    } catch {
      return;
    }
    const saved = (Array.isArray(parsed.jobs) ? parsed.jobs : []).filter(
      (s) => s?.job?.id && s.request?.deliverableId,
    );
    // Versions before job-keyed parts wrote `<final name>.part`; two jobs with one final name shared it.
    const legacyUsers = new Map<string, number>();
    for (const { job } of saved) {
      if (!FINISHED.has(job.state))
        legacyUsers.set(job.relativePath, (legacyUsers.get(job.relativePath) ?? 0) + 1);
    }
    for (const saved1 of saved) {
      const job: DownloadJob = { ...saved1.job, rate: 0, etaSeconds: null };
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
        request: saved1.request,
        etag: saved1.etag ?? null,
        orderedSeconds: saved1.orderedSeconds ?? null,
        resolved: null,
        controller: null,
        running: null,
        meter: createRateMeter(),
        stopReason: null,
      });
    }
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
    entry.running = execute(entry, controller.signal)
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
  // The data fsync is not on the download's critical path (it cost ~80 ms of a 172.8 MB transfer): the rename after
  // the size/ETag checks already keeps "a final name means complete" against crashes, kills, cuts and a full disk.
  // Only a power cut inside the writeback window could leave a listed file short, which is why the item stays
  // `unsynced` (re-verified by the library at the next start) until this flush has gone through. One at a time.
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

  async function resolveEntry(entry: Entry): Promise<ResolvedDownload> {
    if (entry.resolved) return entry.resolved;
    try {
      entry.resolved = await deps.resolve({ ...entry.request, version: entry.job.version });
    } catch (error) {
      throw new DownloadError(
        'RESOLVE_FAILED',
        `Could not look up the file: ${(error as Error).message}`,
        true,
      );
    }
    return entry.resolved;
  }

  // ---- one job -----------------------------------------------------------------------------------------------
  async function execute(entry: Entry, signal: AbortSignal): Promise<Finished> {
    const { job } = entry;
    await ensureRoot();
    // The part's folder is resolved through links and must stay inside the library; the part itself is opened
    // without following a link (a planted one fails the job with PATH_ESCAPE).
    const part = await real(partPathFor(job.relativePath, job.id), true);

    // Reads the part behind the writer (checksum, analysis). It may only read bytes that are final: a part cut
    // back (restart, failed write) gets a new reader from offset 0.
    let reader: PartReader | null = null;
    let followed: FollowResult | null = null;
    let size = 0;
    let failures = 0;
    let refreshed = false;
    try {
      for (;;) {
        if (signal.aborted) throw new Error('aborted');
        const before = job.bytes;
        try {
          const resolved = await resolveEntry(entry);
          if (job.format === 'txt') {
            if (typeof resolved.content !== 'string') {
              throw new DownloadError('NO_SUCH_FORMAT', 'This deliverable has no script text.');
            }
            const body = Buffer.from(resolved.content, 'utf8');
            const handle = await openLocal(part, true);
            try {
              await local(part, () => write(handle, [body], 0));
              await local(part, () => handle.sync());
            } finally {
              await handle.close().catch(() => undefined);
            }
            job.bytes = body.length;
            job.total = body.length;
            followed = {
              sha256: createHash('sha256').update(body).digest('hex'),
              analysis: null,
              peaks: null,
            };
            break;
          }
          if (!resolved.url)
            throw new DownloadError('NO_SUCH_FORMAT', `This deliverable has no ${job.format} file.`);
          const handle = await openPart(part);
          try {
            const onDisk = (await local(part, () => handle.stat())).size;
            // Resuming (after a restart or a failed write): the reader starts with the bytes already on disk.
            reader ??= follow(part, job.format);
            reader.advance(onDisk);
            job.bytes = onDisk;
            let outcome: 'complete' | 'restart';
            try {
              outcome = await transferOnce(entry, resolved, handle, part, reader, signal);
            } catch (error) {
              // After a cut the file holds exactly the bytes written; after a local failure it may have been cut back.
              const keeps =
                error instanceof DownloadError && ['NETWORK', 'HTTP', 'RESOLVE_FAILED'].includes(error.type);
              if (!keeps) {
                reader.close();
                reader = null;
              }
              throw error;
            }
            if (outcome === 'restart') {
              reader.close();
              reader = null;
              continue;
            }
            // No fsync here: the data is flushed after the rename, in the background (see confirmDurable).
            break;
          } finally {
            await handle.close().catch(() => undefined);
          }
        } catch (error) {
          if (signal.aborted) throw error;
          if (!(error instanceof DownloadError) || !error.retryable) {
            if (error instanceof DownloadError && error.type === 'HTTP' && !refreshed) {
              // Media links can expire: ask the service for a fresh one once before giving up.
              refreshed = true;
              entry.resolved = null;
              continue;
            }
            throw error;
          }
          failures = job.bytes > before ? 1 : failures + 1;
          if (failures > retry.attempts) throw error;
          const delay = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (failures - 1));
          await sleep(delay * (0.75 + Math.random() * 0.5), signal);
          continue;
        }
      }

      job.state = 'verifying';
      changed(entry);
      size = (await local(part, () => stat(part))).size;
      if (job.total !== null && size !== job.total) {
        throw new DownloadError(
          'SIZE_MISMATCH',
          `Expected ${job.total} bytes but have ${size}; the partial file is kept.`,
        );
      }
      if (reader) {
        try {
          followed = await reader.finish(size);
        } catch {
          // The follower failed (its thread died, a read error): one plain pass over the finished part instead.
          reader.close();
          reader = followInline(part, job.format);
          followed = await local(part, () => (reader as PartReader).finish(size));
        }
      }
    } finally {
      reader?.close();
    }
    if (signal.aborted) throw new Error('aborted');
    // The peaks go beside the part first; the commit moves them beside the final file.
    let peaks: string | null = null;
    if (followed?.peaks) {
      const bytes = encodePeaks(followed.peaks);
      peaks = `${part}.peaks`;
      await writeFileReplacing(peaks, bytes).catch(() => {
        peaks = null;
      });
    }
    const analysis: AudioAnalysis | null = followed?.analysis ?? null;
    const draft: LibraryItem = {
      id: deps.library.itemId(job.deliverableId, job.version, job.format),
      projectId: job.projectId,
      projectTitle: job.projectTitle,
      serviceSubCategory: job.serviceSubCategory,
      deliverableId: job.deliverableId,
      deliverableName: job.deliverableName,
      version: job.version,
      format: job.format,
      relativePath: job.relativePath,
      size,
      sha256: followed?.sha256 ?? '',
      downloadedAt: now().toISOString(),
      orderedSeconds: entry.orderedSeconds,
      analysis,
      hasPeaks: false,
      unsynced: true,
    };
    // The commit point: the part gets its final name (never over another file) and is listed, in one step; a file
    // under its final name is always complete.
    let item: LibraryItem;
    try {
      item = await deps.library.commit({ part, peaks, planned: job.relativePath, item: draft });
    } catch (error) {
      if (error instanceof PathEscapeError || error instanceof LinkRefusedError) throw error;
      throw localError(error, part);
    }
    job.relativePath = item.relativePath;
    const finalPath = await real(item.relativePath);
    if (!analysis && deps.analyze && isAudioFormat(job.format)) {
      const late = await deps.analyze(finalPath, job.format).catch(() => null);
      if (late) {
        const hasPeaks = await stat(`${finalPath}.peaks`).then(
          () => true,
          () => false,
        );
        item = (await deps.library.update(item.id, item.downloadedAt, { analysis: late, hasPeaks })) ?? item;
      }
    }
    job.libraryId = item.id;
    job.bytes = size;
    job.total = size;
    return { path: finalPath, item };
  }

  /** resolveReal with file-system failures mapped (a refused link stays a PathEscapeError). */
  async function real(relativePath: string, create = false): Promise<string> {
    try {
      return await deps.library.resolveReal(relativePath, create);
    } catch (error) {
      if (error instanceof PathEscapeError) throw error;
      throw localError(error, deps.library.resolve(relativePath));
    }
  }

  async function openLocal(path: string, truncate = false): Promise<FileHandle> {
    try {
      return await openNoFollow(path, truncate);
    } catch (error) {
      if (error instanceof LinkRefusedError) throw new DownloadError('PATH_ESCAPE', error.message);
      throw localError(error, path);
    }
  }

  async function ensureRoot() {
    const root = deps.library.root();
    try {
      await stat(root);
    } catch {
      // Create the library folder itself only when its parent exists: an unplugged drive must not be recreated.
      try {
        await mkdir(root);
      } catch (error) {
        // Two jobs starting together both find it missing; the second one's EEXIST is fine.
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EEXIST' && code !== 'ENOENT') throw localError(error, root);
        if (code === 'ENOENT') {
          throw new DownloadError(
            'NOT_FOUND_LOCAL',
            `The library folder ${root} does not exist and cannot be created.`,
            false,
            { cause: error },
          );
        }
      }
    }
  }

  const openPart = (part: string): Promise<FileHandle> => openLocal(part);

  /** One HTTP attempt from the current end of the part file. */
  async function transferOnce(
    entry: Entry,
    resolved: ResolvedDownload,
    handle: FileHandle,
    part: string,
    reader: PartReader,
    signal: AbortSignal,
  ): Promise<'complete' | 'restart'> {
    const { job } = entry;
    const offset = job.bytes;
    const headers: Record<string, string> = { ...resolved.headers, 'accept-encoding': 'identity' };
    if (offset > 0) {
      headers.range = `bytes=${offset}-`;
      if (entry.etag) headers['if-range'] = entry.etag;
    }
    let response: HttpResponse;
    try {
      response = await http(resolved.url as string, {
        headers,
        signal,
        ...(follow.readBuffers ? { readBuffers: follow.readBuffers } : {}),
        ...(resolved.ca ? { ca: resolved.ca } : {}),
      });
    } catch (error) {
      // A refused certificate or redirect is the same on every try: say so at once.
      if (error instanceof UntrustedCertificateError || error instanceof RedirectError) {
        throw new DownloadError('NETWORK', error.message);
      }
      throw new DownloadError('NETWORK', `Connection failed: ${(error as Error).message}`, true, {
        cause: error,
      });
    }
    const { status } = response;
    const etag = strongEtag(response.headers.etag);
    const length = Number(response.headers['content-length'] ?? NaN);

    const restartFromZero = async () => {
      response.body.destroy();
      await local(part, () => handle.truncate(0));
      job.bytes = 0;
      job.total = null;
      entry.etag = null;
      return 'restart' as const;
    };

    if (status === 416) {
      const range = /\/(\d+)$/u.exec(response.headers['content-range'] ?? '');
      response.body.resume();
      if (range && Number(range[1]) === offset && offset > 0) {
        job.total = offset;
        return 'complete';
      }
      return restartFromZero();
    }
    if (status === 200) {
      // The server sent the whole file: it changed (If-Range failed) or ignores ranges. Start over.
      if (offset > 0) return restartFromZero();
      entry.etag = etag;
      job.total = Number.isFinite(length) ? length : null;
      void persist();
    } else if (status === 206) {
      const range = parseContentRange(response.headers['content-range']);
      if (!range || range.start !== offset || (entry.etag && etag && etag !== entry.etag)) {
        return restartFromZero();
      }
      if (range.total !== null && job.total !== null && range.total !== job.total && !entry.etag) {
        return restartFromZero(); // no validator, but the size changed: not the same file
      }
      job.total = range.total;
      if (!entry.etag && etag) {
        entry.etag = etag;
        void persist();
      }
    } else {
      response.body.resume();
      const retryable = status >= 500 || status === 429 || status === 408;
      throw new DownloadError('HTTP', `The server answered ${status} for the file.`, retryable);
    }

    const pumpOptions: PumpOptions = {
      handle,
      position: job.bytes,
      onBytes: (n) => {
        job.bytes += n;
      },
      onLanded: (chunks, start) => reader.feed(chunks, start, response.release),
      onWritten: (end) => reader.advance(end),
    };
    // A transport that writes where it receives (the worker) pumps itself, and feeds the follower over its line;
    // unless a test injects the writes.
    const body = response.pump && !deps.write ? null : (response.direct ?? readableBody(response.body));
    let result;
    try {
      if (body) result = await pumpBody({ ...pumpOptions, body, write, recycle: response.recycle });
      else {
        const line = reader.line?.() ?? null;
        result = await (response.pump as NonNullable<HttpResponse['pump']>)({
          ...pumpOptions,
          ...(line ? { line } : {}),
        });
      }
    } catch (error) {
      if (body) body.destroy();
      else response.body.destroy();
      throw localError(error, part);
    }
    // Received bytes that never reached the disk would break the resume offset; pumpBody flushes them all.
    job.bytes = offset + result.written;
    if (result.networkError) {
      if (signal.aborted) throw result.networkError;
      throw new DownloadError('NETWORK', `Connection lost: ${result.networkError.message}`, true, {
        cause: result.networkError,
      });
    }
    if (job.total !== null && job.bytes < job.total) {
      throw new DownloadError(
        'NETWORK',
        `Connection closed early at ${job.bytes} of ${job.total} bytes.`,
        true,
      );
    }
    if (job.total !== null && job.bytes > job.total) {
      await local(part, () => handle.truncate(0));
      job.bytes = 0;
      throw new DownloadError(
        'SIZE_MISMATCH',
        `The server sent more bytes than announced (${job.total}).`,
        true,
      );
    }
    return 'complete';
  }

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
      for (const entry of entries.values()) {
        const same =
          entry.request.deliverableId === request.deliverableId &&
          entry.request.format === request.format &&
          (request.version === undefined || entry.job.version === request.version);
        if (same && !FINISHED.has(entry.job.state)) {
          if (entry.job.state === 'paused' || entry.job.state === 'failed')
            return downloads.resume(entry.job.id);
          return { ...entry.job };
        }
      }
      let resolved: ResolvedDownload;
      try {
        resolved = await deps.resolve(request);
      } catch (error) {
        throw new DownloadError('RESOLVE_FAILED', `Could not look up the file: ${(error as Error).message}`);
      }
      const relativePath = deps.library.planPath({
        ...resolved,
        deliverableId: request.deliverableId,
        format: request.format,
      });
      const job: DownloadJob = {
        id: randomUUID(),
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
      if (saving) await saving;
      await flushing;
    },
  };
  return downloads;
}
