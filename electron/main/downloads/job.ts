import { createHash } from 'node:crypto';
import { mkdir, stat, type FileHandle } from 'node:fs/promises';
import type { AudioAnalysis } from '../../../shared/audio';
import { isAudioFormat, type DownloadJob, type LibraryItem, type MediaFormat } from '../../../shared/ipc';
import { encodePeaks } from '../audio/peaks';
import type { Library } from '../library';
import { LinkRefusedError, openNoFollow, writeFileReplacing } from '../library';
import { PathEscapeError, partPathFor } from '../library';
import { writeChunks } from './body-writer';
import { DownloadError, local, fileSystemError } from './errors';
import { followInline, type Follow, type FollowResult, type PartReader } from './follow-threads';
import { UntrustedCertificateError } from './lean-http';
import { RedirectError, type HttpGet, type HttpResponse } from './transport';

// One download, from its first request to its manifest entry: attempts with Range resume and retries, the size and
// ETag checks, the commit under its final name (never over another file) and the library item. The queue
// (queue.ts) decides when a job runs and what its state is between runs.

/** What the caller asks for. */
export interface DownloadRequest {
  deliverableId: string;
  /** The deliverable's project (the service's deliverable does not name it). */
  projectId: string;
  format: MediaFormat;
  /** 1-based version; latest when omitted. */
  version?: number;
  /** The profile it is fetched under (resolved, and resolved again, with that profile's service). */
  profileId?: string;
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

/** What one job carries between its runs: the persisted job and what the service said about its file. */
export interface JobRecord {
  job: DownloadJob;
  request: DownloadRequest;
  /** The file's strong ETag, once seen: a resume asks for the same bytes (If-Range). */
  etag: string | null;
  orderedSeconds: number | null;
  /** The service's answer for this run (looked up again when a media link expired). */
  resolved: ResolvedDownload | null;
}

/** How long measuring a saved file may take before its download finishes without the figures: 30 s + 100 ms/MB. */
export const lateAnalysisDeadlineMs = (size: number): number => 30_000 + size / 10_000;

/** The value, or null once `ms` have passed without it. */
function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** Says what a verifying job is doing now (shown on its row, so a slow step names itself). */
function stage(job: DownloadJob, step: NonNullable<DownloadJob['verifying']>, ctx: JobContext): void {
  job.verifying = step;
  ctx.shown();
}

/** A file that is complete under its final name and listed, but whose data may still be only in the page cache. */
export interface Finished {
  path: string;
  item: LibraryItem;
}

/** What a job works with (the queue's collaborators). */
export interface JobContext {
  library: Pick<Library, 'resolve' | 'resolveReal' | 'root' | 'itemId' | 'commit' | 'update' | 'peaksPathOf'>;
  resolve: (request: DownloadRequest) => Promise<ResolvedDownload>;
  http: HttpGet;
  follow: Follow;
  analyze?: (path: string, format: 'wav' | 'mp3') => Promise<AudioAnalysis | null>;
  /** Overrides `lateAnalysisDeadlineMs` (tests). */
  lateAnalysisDeadline?: (size: number) => number;
  retry: RetryPolicy;
  now: () => Date;
  /** The job's state changed (an event and a save). */
  changed: () => void;
  /** Only what the job's row shows changed (a step of verifying): an event, no save. */
  shown: () => void;
  /** Something worth keeping changed (the ETag, the size): save the queue. */
  persist: () => void;
}

/** The service's answer for this job's file, asked once per run (again after a media link expired). */
async function resolveFile(entry: JobRecord, ctx: JobContext): Promise<ResolvedDownload> {
  if (entry.resolved) return entry.resolved;
  try {
    entry.resolved = await ctx.resolve({ ...entry.request, version: entry.job.version });
  } catch (error) {
    throw new DownloadError(
      'RESOLVE_FAILED',
      `Could not look up the file: ${(error as Error).message}`,
      true,
    );
  }
  return entry.resolved;
}

/** Runs one job to its library item; throws a DownloadError (or an abort) when it stops short. */
export async function runJob(entry: JobRecord, ctx: JobContext, signal: AbortSignal): Promise<Finished> {
  const { job } = entry;
  await ensureRoot(ctx);
  // The part's folder is resolved through links and must stay inside the library; the part itself is opened
  // without following a link (a planted one fails the job with PATH_ESCAPE).
  const part = await real(ctx, partPathFor(job.relativePath, job.id), true);

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
        const resolved = await resolveFile(entry, ctx);
        if (job.format === 'txt') {
          if (typeof resolved.content !== 'string') {
            throw new DownloadError('NO_SUCH_FORMAT', 'This deliverable has no script text.');
          }
          const body = Buffer.from(resolved.content, 'utf8');
          const handle = await openLocal(part, true);
          try {
            await local(part, () => writeChunks(handle, [body], 0));
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
        const handle = await openLocal(part);
        try {
          const onDisk = (await local(part, () => handle.stat())).size;
          // Resuming (after a restart or a failed write): the reader starts with the bytes already on disk.
          reader ??= ctx.follow(part, job.format);
          reader.advance(onDisk);
          job.bytes = onDisk;
          let outcome: 'complete' | 'restart';
          try {
            outcome = await transferOnce(entry, ctx, resolved, handle, part, reader, signal);
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
        if (failures > ctx.retry.attempts) throw error;
        const delay = Math.min(ctx.retry.maxDelayMs, ctx.retry.baseDelayMs * 2 ** (failures - 1));
        await sleep(delay * (0.75 + Math.random() * 0.5), signal);
        continue;
      }
    }

    job.state = 'verifying';
    job.verifying = 'checking';
    ctx.changed();
    size = (await local(part, () => stat(part))).size;
    if (job.total !== null && size !== job.total) {
      throw new DownloadError(
        'SIZE_MISMATCH',
        `Expected ${job.total} bytes but have ${size}; the partial file is kept.`,
      );
    }
    if (reader) {
      stage(job, 'measuring', ctx);
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
    id: ctx.library.itemId(job.deliverableId, job.version, job.format),
    ...(job.profileId ? { profileId: job.profileId } : {}),
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
    downloadedAt: ctx.now().toISOString(),
    orderedSeconds: entry.orderedSeconds,
    analysis,
    hasPeaks: false,
    unsynced: true,
  };
  // The commit point: the part gets its final name (never over another file) and is listed, in one step; a file
  // under its final name is always complete.
  stage(job, 'saving', ctx);
  let item: LibraryItem;
  try {
    item = await ctx.library.commit({ part, peaks, planned: job.relativePath, item: draft });
  } catch (error) {
    if (error instanceof PathEscapeError || error instanceof LinkRefusedError) throw error;
    throw fileSystemError(error, part);
  }
  job.relativePath = item.relativePath;
  const finalPath = await real(ctx, item.relativePath);
  if (!analysis && ctx.analyze && isAudioFormat(job.format)) {
    stage(job, 'analysing', ctx);
    // The figures are optional here (the library measures a file without them when it is played or checked): a
    // pass that does not end in time leaves the job done without them rather than "verifying" for ever.
    const deadline = (ctx.lateAnalysisDeadline ?? lateAnalysisDeadlineMs)(size);
    const late = await withinDeadline(ctx.analyze(finalPath, job.format), deadline).catch(() => null);
    if (late) {
      const hasPeaks = await ctx.library
        .peaksPathOf(item.relativePath)
        .then((sidecar) => stat(sidecar))
        .then(
          () => true,
          () => false,
        );
      item = (await ctx.library.update(item.id, item.downloadedAt, { analysis: late, hasPeaks })) ?? item;
    }
  }
  job.libraryId = item.id;
  job.bytes = size;
  job.total = size;
  return { path: finalPath, item };
}

/** resolveReal with file-system failures mapped (a refused link stays a PathEscapeError). */
async function real(ctx: JobContext, relativePath: string, create = false): Promise<string> {
  try {
    return await ctx.library.resolveReal(relativePath, create);
  } catch (error) {
    if (error instanceof PathEscapeError) throw error;
    throw fileSystemError(error, ctx.library.resolve(relativePath));
  }
}

async function openLocal(path: string, truncate = false): Promise<FileHandle> {
  try {
    return await openNoFollow(path, truncate);
  } catch (error) {
    if (error instanceof LinkRefusedError) throw new DownloadError('PATH_ESCAPE', error.message);
    throw fileSystemError(error, path);
  }
}

async function ensureRoot(ctx: JobContext) {
  const root = ctx.library.root();
  try {
    await stat(root);
  } catch {
    // Create the library folder itself only when its parent exists: an unplugged drive must not be recreated.
    try {
      await mkdir(root);
    } catch (error) {
      // Two jobs starting together both find it missing; the second one's EEXIST is fine.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST' && code !== 'ENOENT') throw fileSystemError(error, root);
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

/** One HTTP attempt from the current end of the part file. */
async function transferOnce(
  entry: JobRecord,
  ctx: JobContext,
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
    response = await ctx.http(resolved.url as string, {
      headers,
      signal,
      ...(ctx.follow.readBuffers ? { readBuffers: ctx.follow.readBuffers } : {}),
      ...(resolved.ca ? { ca: resolved.ca } : {}),
    });
  } catch (error) {
    // A refused certificate or redirect is the same on every try: say so at once.
    if (error instanceof UntrustedCertificateError || error instanceof RedirectError) {
      throw new DownloadError('NETWORK', error.message);
    }
    // No answer at all: the link may point where the service no longer is (the sandbox restarted on another
    // port, a signed URL's host moved). The next attempt asks the service for the link again.
    entry.resolved = null;
    throw new DownloadError('NETWORK', `Connection failed: ${(error as Error).message}`, true, {
      cause: error,
    });
  }
  const { status } = response;
  const etag = strongEtag(response.headers.etag);
  const length = Number(response.headers['content-length'] ?? NaN);

  const restartFromZero = async () => {
    response.discard();
    await local(part, () => handle.truncate(0));
    job.bytes = 0;
    job.total = null;
    entry.etag = null;
    return 'restart' as const;
  };

  if (status === 416) {
    const range = /\/(\d+)$/u.exec(response.headers['content-range'] ?? '');
    response.discard();
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
    ctx.persist();
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
      ctx.persist();
    }
  } else {
    response.discard();
    const retryable = status >= 500 || status === 429 || status === 408;
    throw new DownloadError('HTTP', `The server answered ${status} for the file.`, retryable);
  }

  let result;
  try {
    result = await response.pump({
      handle,
      position: job.bytes,
      onBytes: (n) => {
        job.bytes += n;
      },
      follower: reader,
    });
  } catch (error) {
    response.discard();
    throw fileSystemError(error, part);
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
