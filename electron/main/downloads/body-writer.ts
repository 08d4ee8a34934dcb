import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { PumpResult } from './transport';

/**
 * A body pushed from the socket's read callback to the writer, with no stream in between (the lean reader's);
 * a node:http body is adapted with `readableBody`.
 */
export interface DirectBody {
  /** Starts delivery (once): `onChunk` per received chunk, then `onEnd` once, with the failure if one cut it. */
  start(onChunk: (chunk: Buffer) => void, onEnd: (error?: Error) => void): void;
  pause(): void;
  resume(): void;
  /** Stops reading and closes the connection; a started consumer gets `onEnd` with an error. */
  destroy(): void;
}

/**
 * A DirectBody over a Readable. 'data' events, not the async iterator: read() would concatenate buffered chunks
 * into new buffers (a copy per MiB, and the transport's read buffers could no longer be recycled).
 */
export function readableBody(body: Readable): DirectBody {
  return {
    start(onChunk, onEnd) {
      let ended = false;
      const end = (error?: Error) => {
        if (ended) return;
        ended = true;
        body.off('data', onChunk);
        onEnd(error);
      };
      body.on('data', onChunk);
      body.once('end', () => end());
      body.once('error', (error) => end(error));
      body.once('close', () => end(body.readableEnded ? undefined : new Error('aborted: stream closed')));
    },
    pause: () => body.pause(),
    resume: () => body.resume(),
    destroy: () => body.destroy(),
  };
}

/**
 * Writes all of `chunks` at `position` (looping over short writes); injectable to simulate a full disk. On failure
 * the error carries `bytesWritten`: how much of this call landed before it (a disk fills mid-write).
 */
export type WriteChunks = (handle: FileHandle, chunks: Buffer[], position: number) => Promise<void>;

// writev takes at most IOV_MAX (1024 on Linux) buffers per call.
const MAX_IOV = 512;

/** Default WriteChunks: positional writev, which hands the kernel a whole batch in one system call. */
export const writeChunks: WriteChunks = async (handle, chunks, position) => {
  let pending = chunks;
  let at = position;
  while (pending.length > 0) {
    const batch = pending.slice(0, MAX_IOV);
    let bytesWritten: number;
    try {
      ({ bytesWritten } = await handle.writev(batch, at));
    } catch (error) {
      throw Object.assign(error as Error, { bytesWritten: at - position });
    }
    at += bytesWritten;
    let consumed = 0;
    while (consumed < batch.length && bytesWritten >= (batch[consumed]?.length ?? 0)) {
      bytesWritten -= batch[consumed]?.length ?? 0;
      consumed++;
    }
    const rest = pending.slice(consumed);
    if (bytesWritten > 0 && rest[0]) rest[0] = rest[0].subarray(bytesWritten);
    pending = rest;
  }
};

/** Bytes gathered before one write on this thread: about four reads, so the socket never idles behind a big batch. */
export const BATCH_BYTES = 1 << 20;
/** Default number of batches written at once (memory in flight: about MAX_WRITES x BATCH_BYTES). */
export const MAX_WRITES = 8;

/**
 * Streams `body` into `handle` from `position`. While batches are being written
 * the next ones are received, so disk and network overlap; at most `maxWrites` batches are held, so memory
 * stays flat.
 * A write failure rejects (the caller maps it); a network failure resolves with `networkError` after
 * flushing what arrived, so a resume starts exactly at the end of the valid prefix.
 */
export async function pumpBody(options: {
  handle: FileHandle;
  position: number;
  /** Bytes received (not yet necessarily on disk). */
  onBytes: (n: number) => void;
  /** The file is written without holes up to `end`: what a reader following the file may read. */
  onWritten?: (end: number) => void;
  /** Chunks just written at `start` (a follower may take them from memory, see PartReader.feed). */
  onLanded?: (chunks: Buffer[], start: number) => void;
  body: DirectBody;
  write: WriteChunks;
  /** Returns a chunk to the transport after it is written. */
  recycle?: (chunk: Buffer) => void;
  batchBytes?: number;
  /** Batches being written at once; more absorbs disk stalls without stopping the socket. */
  maxWrites?: number;
}): Promise<PumpResult> {
  const { body, handle, write, onBytes, onWritten, onLanded, recycle } = options;
  const batchBytes = options.batchBytes ?? BATCH_BYTES;
  const maxWrites = options.maxWrites ?? MAX_WRITES;
  let at = options.position;
  let written = 0;
  let chunks: Buffer[] = [];
  let size = 0;
  let writing = 0;
  let ended = false;
  let writeError: unknown = null;
  let failedAt = Infinity;
  let cutAt = Infinity;
  let networkError: Error | null = null;
  // Start offsets of the writes in flight: everything below the lowest one (or below `at`) is on disk.
  const inFlight: number[] = [];

  return new Promise<PumpResult>((resolve, reject) => {
    const finish = () => {
      if (!writeError) {
        resolve({ written, networkError });
        return;
      }
      // Writes run side by side: one that failed may sit before one that landed. Cut the file back to the
      // prefix that is certainly complete, so a resume never continues after a hole.
      handle.truncate(cutAt).then(
        () => reject(writeError),
        () => reject(writeError),
      );
    };
    const startWrite = () => {
      const batch = chunks;
      const bytes = size;
      chunks = [];
      size = 0;
      const start = at;
      at += bytes;
      writing++;
      inFlight.push(start);
      const landed = () => inFlight.splice(inFlight.indexOf(start), 1);
      write(handle, batch, start).then(
        () => {
          writing--;
          landed();
          written += bytes;
          if (!writeError) onLanded?.(batch, start);
          if (recycle) for (const chunk of batch) recycle(chunk);
          if (!writeError) onWritten?.(inFlight.length > 0 ? Math.min(...inFlight) : at);
          if (writeError) {
            if (writing === 0) finish();
            return;
          }
          if (ended) {
            if (size > 0) startWrite();
            else if (writing === 0) finish();
          } else if (size >= batchBytes) startWrite();
          else body.resume();
        },
        (error: unknown) => {
          writing--;
          landed();
          // The write is over (it failed): the memory goes back all the same, as does what will never be written.
          if (recycle) for (const chunk of [...batch, ...chunks]) recycle(chunk);
          chunks = [];
          size = 0;
          if (start < failedAt) {
            failedAt = start;
            const landed = Number((error as { bytesWritten?: unknown } | null)?.bytesWritten);
            cutAt = start + (Number.isFinite(landed) && landed > 0 ? Math.min(landed, bytes) : 0);
          }
          writeError ??= error ?? new Error('write failed');
          body.destroy();
          if (writing === 0) finish();
        },
      );
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      onBytes(chunk.length);
      if (size < batchBytes) return;
      if (writing >= maxWrites) body.pause();
      else startWrite();
    };
    const onEnd = (error?: Error) => {
      if (ended) return;
      ended = true;
      if (error) networkError = error;
      if (writeError) return;
      if (size > 0 && writing < maxWrites) startWrite();
      else if (writing === 0) finish();
    };
    body.start(onData, onEnd);
  });
}
