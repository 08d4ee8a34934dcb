import type { Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';

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

/** Bytes gathered before one write: big enough to amortise the thread-pool hop, small enough for flat memory. */
export const BATCH_BYTES = 4 << 20;
/** Default number of batches written at once. */
export const MAX_WRITES = 3;

/** Result of streaming one response body into the file. */
export interface PumpResult {
  /** Bytes of this body now on disk, contiguous from the start position (flushed even when the connection was cut). */
  written: number;
  /** The body's failure (cut connection, abort), after everything received was written; null when it ended. */
  networkError: Error | null;
}

/**
 * Streams `body` into `handle` from `position`, hashing every byte in order. While one batch is being written
 * the next is received, so disk and network overlap; at most two batches are held, so memory stays flat.
 * A write failure rejects (the caller maps it); a network failure resolves with `networkError` after
 * flushing what arrived, so a resume starts exactly at the end of the valid prefix.
 */
export async function pumpBody(options: {
  body: Readable;
  handle: FileHandle;
  position: number;
  hash: Hash;
  write: WriteChunks;
  onBytes: (n: number) => void;
  /** Returns a chunk to the transport after it is hashed and written. */
  recycle?: (chunk: Buffer) => void;
  batchBytes?: number;
  /** Batches being written at once; more absorbs disk stalls without stopping the socket. */
  maxWrites?: number;
}): Promise<PumpResult> {
  const { body, handle, hash, write, onBytes, recycle } = options;
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

  // 'data' events, not the async iterator: Readable.read() would concatenate buffered chunks into new buffers
  // (a copy per MiB, and the read buffers could no longer be recycled).
  return new Promise<PumpResult>((resolve, reject) => {
    const finish = () => {
      body.off('data', onData);
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
      write(handle, batch, start).then(
        () => {
          writing--;
          written += bytes;
          if (recycle) for (const chunk of batch) recycle(chunk);
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
      hash.update(chunk);
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
    body.on('data', onData);
    body.once('end', () => onEnd());
    body.once('error', (error) => onEnd(error));
    body.once('close', () => onEnd(body.readableEnded ? undefined : new Error('aborted: stream closed')));
  });
}

/** sha256 state over the first `size` bytes of a file: how a resume keeps one checksum for the whole file. */
export async function hashPrefix(hash: Hash, path: string, size: number): Promise<void> {
  if (size === 0) return;
  for await (const chunk of createReadStream(path, { start: 0, end: size - 1, highWaterMark: 4 << 20 })) {
    hash.update(chunk as Buffer);
  }
}
