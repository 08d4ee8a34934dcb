import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { resolveWorkerEntry as resolveSharedEntry, startWorker } from '../kernel/workers';
import type { AnalyzeFileOptions, FileAnalysis } from './file-analysis';
import { AudioDecodeError } from './errors';
import { concatPeaks, writePeaksFile, type PeaksData } from './peaks';
import { runRequest, type AnalyzeReply, type AnalyzeRequest, type AnalyzeResults } from './worker';

/** Runs file analyses without blocking the caller's thread. */
export interface Analyzer {
  analyze(path: string, options?: AnalyzeFileOptions): Promise<FileAnalysis>;
  /**
   * Waveform peaks of a WAV or MP3 (no loudness), optionally written to `<path>.peaks`. A long MP3 is cut into
   * parts (about one per MiB) that all the pool's workers decode at once, each claiming the next part as it
   * finishes one (so a worker slowed by other work takes fewer), and the parts are joined: MP3 decoding is the slow
   * step.
   */
  peaks(path: string, options?: { levels?: readonly number[]; write?: boolean }): Promise<PeaksResult>;
  /** Terminates the workers; pending analyses reject. */
  close(): Promise<void>;
  /** 'worker' when analyses run in worker threads, 'inline' for the same-thread fallback. */
  readonly mode: 'worker' | 'inline';
}

/** Options of createAnalyzer. */
export interface AnalyzerOptions {
  /** Worker threads to keep (1-2 is plenty: analysis is I/O- and CPU-bound per file). Default 1. */
  poolSize?: number;
  /** Force the same-thread fallback (tests, or a host without worker support). */
  inline?: boolean;
  /** Override the worker entry (a .js file, or a .ts file run through tsx). */
  workerEntry?: URL;
  /** Called once if the worker cannot start and the analyzer falls back to inline mode. */
  onFallback?(error: Error): void;
}

/** The analysis worker's entry: worker.ts from source, out/main/audio-worker.js in the bundle. */
export function resolveWorkerEntry(from: string = import.meta.url): URL | null {
  return resolveSharedEntry({ source: './worker.ts', bundled: 'audio-worker.js' }, from);
}

/** Peaks and where they were written. */
export interface PeaksResult {
  peaks: PeaksData;
  peaksPath: string | null;
}

/** Below this size an MP3 decodes in one part: a second thread would cost more than it saves. */
const SPLIT_MP3_BYTES = 1 << 20;
/** About this many bytes of MP3 per part when split: small enough to share out evenly, large next to a seek. */
const MP3_PART_BYTES = 1 << 20;

/** A request before it is numbered (Omit applied to each member of the union). */
type Unnumbered<T> = T extends unknown ? Omit<T, 'id'> : never;
type Request = Unnumbered<AnalyzeRequest>;

interface Job {
  req: AnalyzeRequest;
  resolve(result: AnalyzeResults[keyof AnalyzeResults]): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

function toError(e: { name: string; message: string; code?: string }): Error {
  if (e.name === 'AudioDecodeError' && e.code)
    return new AudioDecodeError(e.code as AudioDecodeError['code'], e.message);
  const err = new Error(e.message);
  err.name = e.name;
  if (e.code) Object.assign(err, { code: e.code });
  return err;
}

/** Creates the analysis service: a small worker pool with a same-thread fallback. */
export function createAnalyzer(options: AnalyzerOptions = {}): Analyzer {
  const entry = options.inline ? null : (options.workerEntry ?? resolveWorkerEntry());
  let mode: 'worker' | 'inline' = entry ? 'worker' : 'inline';
  const poolSize = Math.max(1, Math.min(4, options.poolSize ?? 1));
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;

  function fallBack(error: Error): void {
    if (mode === 'inline') return;
    mode = 'inline';
    options.onFallback?.(error);
    for (const job of queue.splice(0)) runInline(job);
  }

  function runInline(job: Job): void {
    runRequest(job.req).then(job.resolve, job.reject);
  }

  function submit<K extends keyof AnalyzeResults>(req: Request & { kind: K }): Promise<AnalyzeResults[K]> {
    if (closed) return Promise.reject(new Error('Analyzer closed.'));
    return new Promise<AnalyzeResults[K]>((resolve, reject) => {
      queue.push({
        req: { ...req, id: nextId++ } as AnalyzeRequest,
        resolve: resolve as Job['resolve'],
        reject,
      });
      pump();
    });
  }

  function spawnSlot(): Slot | null {
    let worker: Worker;
    try {
      worker = startWorker(entry as URL);
    } catch (err) {
      fallBack(err instanceof Error ? err : new Error(String(err)));
      return null;
    }
    const slot: Slot = { worker, job: null };
    let answered = false;
    worker.on('message', (reply: AnalyzeReply) => {
      answered = true;
      const job = slot.job;
      slot.job = null;
      worker.unref(); // an idle pool must not keep the process alive
      if (job && job.req.id === reply.id) {
        if (reply.ok) job.resolve(reply.result);
        else job.reject(toError(reply.error));
      }
      pump();
    });
    const die = (error: Error): void => {
      const i = slots.indexOf(slot);
      if (i >= 0) slots.splice(i, 1);
      const job = slot.job;
      slot.job = null;
      if (closed) {
        job?.reject(new Error('Analyzer closed.'));
        return;
      }
      // A worker that never answered could not start (e.g. missing bundle): run this job and the rest inline.
      if (!answered) {
        if (job) queue.unshift(job);
        fallBack(error);
        return;
      }
      job?.reject(error);
      pump();
    };
    worker.unref();
    worker.on('error', die);
    worker.on('exit', (code) => die(new Error(`Analysis worker exited with code ${code}.`)));
    slots.push(slot);
    return slot;
  }

  function pump(): void {
    if (mode === 'inline') {
      for (const job of queue.splice(0)) runInline(job);
      return;
    }
    while (queue.length > 0) {
      let slot = slots.find((s) => s.job === null);
      if (!slot && slots.length < poolSize) slot = spawnSlot() ?? undefined;
      if (!slot) return;
      const job = queue.shift() as Job;
      slot.job = job;
      slot.worker.ref();
      slot.worker.postMessage(job.req);
    }
  }

  return {
    get mode() {
      return mode;
    },
    analyze(path, analyzeOptions = {}) {
      return submit({ kind: 'analyze', path, options: analyzeOptions });
    },
    async peaks(path, peaksOptions = {}) {
      const levels = peaksOptions.levels ? { levels: peaksOptions.levels } : {};
      const workers = mode === 'worker' ? poolSize : 1;
      const size = workers > 1 && extname(path).toLowerCase() === '.mp3' ? (await stat(path)).size : 0;
      if (size < SPLIT_MP3_BYTES)
        return submit({ kind: 'peaks', path, options: { ...levels, write: peaksOptions.write ?? false } });
      const count = Math.min(8 * workers, Math.max(workers, Math.round(size / MP3_PART_BYTES)));
      const claim = new Int32Array(new SharedArrayBuffer(4));
      const claimed = await Promise.all(
        Array.from({ length: workers }, () =>
          submit({ kind: 'mp3-peak-parts', path, options: { ...levels, count, claim } }),
        ),
      );
      const parts = claimed.flat().sort((a, b) => a.index - b.index);
      const peaks = concatPeaks(parts.map((p) => p.peaks));
      return { peaks, peaksPath: peaksOptions.write ? await writePeaksFile(path, peaks) : null };
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('Analyzer closed.'));
      await Promise.all(slots.splice(0).map((s) => s.worker.terminate()));
    },
  };
}
