import type { Worker } from 'node:worker_threads';
import type { MediaFormat } from '../../../shared/ipc';
import { resolveWorkerEntry, startWorker } from '../workers';
import { createReadBufferPool } from './fast-http';
import type { ReadBufferPool } from './http';
import type { FollowReply, FollowRequest } from './follow-worker';
import { createPartReader, type FollowResult, type PartReader } from './part-reader';

export type { FollowResult, PartReader } from './part-reader';

/** Starts following one download's part file (see PartReader). */
export type Follow = ((path: string, format: MediaFormat) => PartReader) & {
  /** Where read buffers handed to the followers come back, for the transport's next reads. */
  readBuffers?: ReadBufferPool;
};

/**
 * Checksum only, on the calling thread: the default, and the fallback when no worker can start. It reads the part
 * back rather than take fed chunks: on this thread they are the transport's, reused once written.
 */
export const followInline: Follow = (path, format) => ({ ...createPartReader({ path, format }), feed() {} });

/** A Follow backed by worker threads, which are kept for the next download until closed. */
export interface WorkerFollow extends Follow {
  /** Terminates the workers (app quit); readers still open fail. */
  close(): Promise<void>;
}

/**
 * Follows each download in a worker thread: the checksum and (for wav/mp3, with `analyze`) loudness, format facts
 * and waveform peaks are computed as the bytes land, so the transfer's thread only moves bytes. Up to `keep` idle
 * workers wait (unreferenced) for the next download, so a download does not pay for a thread start.
 */
export function createWorkerFollow(options: {
  analyze: boolean;
  entry?: URL | null;
  keep?: number;
}): WorkerFollow {
  const entry =
    options.entry === undefined
      ? resolveWorkerEntry({ source: './follow-worker.ts', bundled: 'follow-worker.js' }, import.meta.url)
      : options.entry;
  const keep = options.keep ?? 2;
  const idle: Worker[] = [];
  const all = new Set<Worker>();
  let sessions = 0;
  const readBuffers = createReadBufferPool();
  const onBuffers = (reply: FollowReply) => {
    if ('type' in reply) for (const buffer of reply.buffers) readBuffers.give(buffer);
  };

  const take = (): Worker => {
    const reused = idle.pop();
    if (reused) return reused;
    const worker = startWorker(entry as URL);
    all.add(worker);
    worker.on('message', onBuffers);
    const forget = () => {
      all.delete(worker);
      const i = idle.indexOf(worker);
      if (i >= 0) idle.splice(i, 1);
    };
    worker.once('exit', forget);
    worker.once('error', forget);
    return worker;
  };
  const give = (worker: Worker) => {
    if (!all.has(worker)) return;
    if (idle.length < keep) {
      worker.unref();
      idle.push(worker);
    } else {
      all.delete(worker);
      void worker.terminate();
    }
  };

  const follow: Follow = (path, format) => {
    if (!entry) return followInline(path, format);
    let worker: Worker;
    try {
      worker = take();
    } catch {
      return followInline(path, format);
    }
    worker.ref();
    return workerReader(worker, ++sessions, { path, format, analyze: options.analyze }, give);
  };
  return Object.assign(follow, {
    readBuffers,
    async close() {
      idle.length = 0;
      await Promise.all([...all].map((w) => w.terminate()));
      all.clear();
    },
  });
}

function workerReader(
  worker: Worker,
  session: number,
  init: { path: string; format: MediaFormat; analyze: boolean },
  release: (worker: Worker) => void,
): PartReader {
  let closed = false;
  let result: Promise<FollowResult> | null = null;
  let advanced = 0;
  let feeding = false;
  // A worker can die at any time (even before it loads): remembered here, so a later finish() fails at once.
  let death: Error | null = null;
  let settle: { resolve(result: FollowResult): void; reject(error: Error): void } | null = null;
  const onMessage = (reply: FollowReply) => {
    if ('type' in reply || reply.session !== session || !settle) return;
    if (reply.ok) settle.resolve(reply.result);
    else settle.reject(new Error(reply.message));
    settle = null;
  };
  const died = (error: Error) => {
    death ??= error;
    settle?.reject(death);
    settle = null;
  };
  const onError = (error: Error) => died(error);
  const onExit = (code: number) => died(new Error(`The follow worker stopped (exit code ${code}).`));
  worker.on('message', onMessage);
  worker.once('error', onError);
  worker.once('exit', onExit);
  // Messages wait in the port until the entry (loaded asynchronously from source) listens.
  worker.postMessage({ type: 'init', session, ...init } satisfies FollowRequest);
  return {
    advance(bytes) {
      if (closed || death) return;
      advanced = Math.max(advanced, bytes);
      // Once batches are fed, the next feed carries this (a message per batch, not two); finish() sends the end.
      if (!feeding) worker.postMessage({ type: 'advance', session, bytes } satisfies FollowRequest);
    },
    feed(chunks, start, release) {
      if (closed || death) return;
      // Whole read buffers move to the worker without a copy (and come back through readBuffers); the rest is
      // copied, as the transport reuses it. Either way each part has an ArrayBuffer of its own to move.
      const parts = chunks.map((chunk) => ({
        buffer: release?.(chunk) ?? new Uint8Array(chunk).buffer,
        length: chunk.length,
      }));
      feeding = true;
      worker.postMessage(
        { type: 'feed', session, start, chunks: parts, advance: advanced } satisfies FollowRequest,
        parts.map((p) => p.buffer),
      );
    },
    finish(size) {
      result ??= new Promise<FollowResult>((resolve, reject) => {
        if (closed) reject(new Error('The reader is closed.'));
        else if (death) reject(death);
        else {
          settle = { resolve, reject };
          worker.postMessage({ type: 'finish', session, size } satisfies FollowRequest);
        }
      });
      return result;
    },
    close() {
      if (closed) return;
      closed = true;
      settle?.reject(new Error('The reader was closed.'));
      settle = null;
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (death) return;
      worker.postMessage({ type: 'close', session } satisfies FollowRequest);
      release(worker);
    },
  };
}
