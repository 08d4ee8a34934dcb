import { MessageChannel, type Worker } from 'node:worker_threads';
import type { MediaFormat } from '../../../shared/ipc';
import { resolveWorkerEntry, startWorker } from '../kernel/workers';
import { READ_BUFFER_BYTES, type ReadBufferPool } from './transport';
import type { FedChunk, FollowReply, FollowRequest } from './follow-thread.worker';
import { createPartReader, type FollowedEnvelope, type FollowResult, type PartReader } from './part-reader';

export type { FollowedEnvelope, FollowResult, PartReader } from './part-reader';

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

/** Shared read slots: 32 MiB in all, what a follower may hold ahead of its reading (see part-reader.ts). */
const SHARED_SLOTS = (32 << 20) / READ_BUFFER_BYTES;

/**
 * Read buffers in memory shared with the follow workers: the transport reads into a slot, the writer writes it,
 * and the worker hashes and decodes the same bytes; only the slot's number crosses threads (a worker is sent a
 * slot's memory once). Nothing is allocated or moved per read, so neither thread's heap sees the body's memory come and go.
 * At most `limit` slots exist (a slot lost with an aborted read is simply not reused); while all are in use the
 * transport reads into buffers of its own, and the worker reads those bytes back from the file.
 */
export interface SharedSlots extends ReadBufferPool {
  /** The slot number of a slot's memory; undefined for any other buffer. */
  slotOf(buffer: ArrayBufferLike): number | undefined;
  memory(slot: number): SharedArrayBuffer;
  /** Slots created so far, and how many are free. */
  stats(): { created: number; free: number };
  /**
   * Hands every slot (all `limit`, created now) to a reader on another thread, which keeps its own free list:
   * from then on take() gives nothing here, and a slot given back here is passed on to `forward`.
   */
  adopt(forward: (slot: number) => void): SharedArrayBuffer[];
}

export function createSharedSlots(limit = SHARED_SLOTS): SharedSlots {
  const memory: SharedArrayBuffer[] = [];
  const numbers = new Map<ArrayBufferLike, number>();
  const free: number[] = [];
  const isFree: boolean[] = [];
  let forward: ((slot: number) => void) | null = null;
  const create = () => {
    const slot = memory.length;
    const created = new SharedArrayBuffer(READ_BUFFER_BYTES);
    memory.push(created);
    numbers.set(created, slot);
    return slot;
  };
  return {
    take() {
      if (forward) return undefined;
      let slot = free.pop();
      if (slot === undefined) {
        if (memory.length >= limit) return undefined;
        slot = create();
      }
      isFree[slot] = false;
      return Buffer.from(memory[slot]!);
    },
    give(buffer) {
      const slot = numbers.get(buffer);
      if (slot === undefined) return false;
      if (forward) forward(slot);
      else if (!isFree[slot]) {
        isFree[slot] = true;
        free.push(slot);
      }
      return true;
    },
    slotOf: (buffer) => numbers.get(buffer),
    memory: (slot) => memory[slot]!,
    stats: () => ({ created: memory.length, free: free.length }),
    adopt(to) {
      while (memory.length < limit) create();
      forward = to;
      free.length = 0;
      return [...memory];
    },
  };
}

/** A Follow backed by worker threads, which are kept for the next download until closed. */
export interface FollowThreads extends Follow {
  /** The read slots shared with the workers (a transfer worker adopts them, see createTransferThread). */
  readBuffers: SharedSlots;
  /** Terminates the workers (app quit); readers still open fail. */
  close(): Promise<void>;
}

/**
 * Follows each download in a worker thread: the checksum and (for wav/mp3, with `analyze`) loudness, format facts
 * and waveform peaks are computed as the bytes land, so the transfer's thread only moves bytes. Up to `keep` idle
 * workers wait (unreferenced) for the next download, so a download does not pay for a thread start.
 */
export function createFollowThreads(options: {
  analyze: boolean;
  entry?: URL | null;
  keep?: number;
  /** How long a worker may take to answer finish(size) before it is taken for stuck (default finishDeadlineMs). */
  finishDeadline?: (size: number) => number;
}): FollowThreads {
  const entry =
    options.entry === undefined
      ? resolveWorkerEntry(
          { source: './follow-thread.worker.ts', bundled: 'follow-thread.worker.js' },
          import.meta.url,
        )
      : options.entry;
  const keep = options.keep ?? 2;
  const idle: Worker[] = [];
  const all = new Set<Worker>();
  let sessions = 0;
  const readBuffers = createSharedSlots();
  // Slots each worker holds (given back by number, or all at once when it dies), and the ones it has the memory of.
  const held = new Map<Worker, Set<number>>();
  const known = new Map<Worker, Set<number>>();
  const giveSlots = (worker: Worker, slots: Iterable<number>) => {
    const holding = held.get(worker);
    for (const slot of slots) {
      holding?.delete(slot);
      readBuffers.give(readBuffers.memory(slot));
    }
  };

  const take = (): Worker => {
    const reused = idle.pop();
    if (reused) return reused;
    const worker = startWorker(entry as URL);
    all.add(worker);
    held.set(worker, new Set());
    known.set(worker, new Set());
    worker.on('message', (reply: FollowReply) => {
      if ('type' in reply && reply.type === 'slots') giveSlots(worker, reply.slots);
    });
    const forget = () => {
      // A dead worker reads nothing more: what it held is free again.
      giveSlots(worker, [...(held.get(worker) ?? [])]);
      held.delete(worker);
      known.delete(worker);
      all.delete(worker);
      const i = idle.indexOf(worker);
      if (i >= 0) idle.splice(i, 1);
    };
    worker.once('exit', forget);
    worker.once('error', forget);
    return worker;
  };
  const give = (worker: Worker, stuck = false) => {
    if (!all.has(worker)) return;
    if (stuck) {
      // A worker that stopped answering is not kept for the next download: ended, and its slots freed on exit.
      void worker.terminate();
      return;
    }
    if (idle.length < keep) {
      worker.unref();
      idle.push(worker);
    } else {
      all.delete(worker);
      void worker.terminate();
    }
  };

  const finishDeadline = options.finishDeadline ?? finishDeadlineMs;
  const follow: Follow = (path, format) => {
    if (!entry) return followInline(path, format);
    let worker: Worker;
    try {
      worker = take();
    } catch {
      return followInline(path, format);
    }
    worker.ref();
    const slots: WorkerSlots = {
      pool: readBuffers,
      held: held.get(worker) ?? new Set(),
      known: known.get(worker) ?? new Set(),
    };
    return workerReader(
      worker,
      ++sessions,
      { path, format, analyze: options.analyze },
      slots,
      give,
      finishDeadline,
    );
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

/**
 * How long a follower may take to answer once the last byte is written: it keeps pace with the transfer, so it is
 * normally a moment; 20 s plus 50 ms per MB leaves room for a loaded machine. Past it the job does one plain pass
 * over the part instead (job.ts), so a follower that stopped never holds a download in "verifying".
 */
export const finishDeadlineMs = (size: number): number => 20_000 + size / 20_000;

/** The shared slots as one worker sees them. */
interface WorkerSlots {
  pool: SharedSlots;
  /** Slots sent to the worker and not given back yet. */
  held: Set<number>;
  /** Slots whose memory the worker has. */
  known: Set<number>;
}

function workerReader(
  worker: Worker,
  session: number,
  init: { path: string; format: MediaFormat; analyze: boolean },
  slots: WorkerSlots,
  release: (worker: Worker, stuck?: boolean) => void,
  finishDeadline: (size: number) => number,
): PartReader {
  let closed = false;
  let stuck = false;
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  let result: Promise<FollowResult> | null = null;
  let advanced = 0;
  let feeding = false;
  // A worker can die at any time (even before it loads): remembered here, so a later finish() fails at once.
  let death: Error | null = null;
  let settle: { resolve(result: FollowResult): void; reject(error: Error): void } | null = null;
  // Envelope questions waiting for their answer, by ask number.
  const asked = new Map<number, (envelope: FollowedEnvelope | null) => void>();
  let asks = 0;
  const answerAll = () => {
    for (const answer of asked.values()) answer(null);
    asked.clear();
  };
  const onMessage = (reply: FollowReply) => {
    if ('type' in reply && reply.type === 'envelope' && reply.session === session) {
      asked.get(reply.ask)?.(reply.envelope);
      asked.delete(reply.ask);
      return;
    }
    if ('type' in reply || reply.session !== session || !settle) return;
    clearTimeout(watchdog);
    if (reply.ok) settle.resolve(reply.result);
    else settle.reject(new Error(reply.message));
    settle = null;
  };
  const died = (error: Error) => {
    clearTimeout(watchdog);
    death ??= error;
    answerAll();
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
      // A chunk in a shared slot the transport gives up goes by number (with its memory the first time this
      // worker sees the slot) and comes back by number. The worker reads any other chunk back from the file.
      const parts: FedChunk[] = [];
      let at = start;
      for (const chunk of chunks) {
        const slot = slots.pool.slotOf(chunk.buffer);
        if (slot !== undefined && release?.(chunk)) {
          slots.held.add(slot);
          const memory = slots.known.has(slot) ? undefined : slots.pool.memory(slot);
          slots.known.add(slot);
          parts.push({ slot, at, length: chunk.length, ...(memory ? { memory } : {}) });
        }
        at += chunk.length;
      }
      if (parts.length === 0) return;
      feeding = true;
      worker.postMessage({ type: 'feed', session, chunks: parts, advance: advanced } satisfies FollowRequest);
    },
    line() {
      if (closed || death) return null;
      const { port1, port2 } = new MessageChannel();
      feeding = true; // the line's feeds carry how far the file is written
      worker.postMessage({ type: 'line', session, port: port2 } satisfies FollowRequest, [port2]);
      return port1;
    },
    envelope(from) {
      if (closed || death) return Promise.resolve(null);
      const ask = ++asks;
      return new Promise<FollowedEnvelope | null>((resolve) => {
        asked.set(ask, resolve);
        worker.postMessage({ type: 'envelope', session, ask, from } satisfies FollowRequest);
      });
    },
    finish(size) {
      result ??= new Promise<FollowResult>((resolve, reject) => {
        if (closed) reject(new Error('The reader is closed.'));
        else if (death) reject(death);
        else {
          settle = { resolve, reject };
          const limit = finishDeadline(size);
          watchdog = setTimeout(() => {
            stuck = true;
            settle?.reject(
              new Error(`The follow worker gave no answer within ${Math.round(limit / 1000)} s.`),
            );
            settle = null;
          }, limit);
          worker.postMessage({ type: 'finish', session, size } satisfies FollowRequest);
        }
      });
      return result;
    },
    close() {
      if (closed) return;
      closed = true;
      clearTimeout(watchdog);
      answerAll();
      settle?.reject(new Error('The reader was closed.'));
      settle = null;
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (death) return;
      worker.postMessage({ type: 'close', session } satisfies FollowRequest);
      release(worker, stuck);
    },
  };
}
