import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import type { MessagePort } from 'node:worker_threads';
import type { AudioAnalysis } from '../../../shared/audio';
import { isAudioFormat, type MediaFormat } from '../../../shared/ipc';
import { createStreamingAnalysis, type LiveEnvelope, type StreamingAnalysis } from '../audio/file-analysis';
import type { PeaksData } from '../audio/peaks';

/** What following a file to its end yields. */
export interface FollowResult {
  sha256: string;
  /** Loudness and format facts, when asked for and the audio decoded; null otherwise. */
  analysis: AudioAnalysis | null;
  /** Waveform peaks built in the same pass (with `analysis`). */
  peaks: PeaksData | null;
}

/**
 * Reads a file while it is being written, behind the writer: the checksum and the analysis of a download are done
 * when its last byte lands, with no second pass over the file.
 */
export interface PartReader {
  /** Bytes [0, bytes) are written and final: read up to there. */
  advance(bytes: number): void;
  /**
   * These bytes, starting at `start`, have just landed on disk, so the reader may take them from memory instead of
   * reading them back. `release` gives up a chunk's memory to the reader (see RawResponse.release in lean-http.ts); a chunk it
   * cannot take is read back from the file as usual.
   */
  feed(chunks: readonly Buffer[], start: number, release?: (chunk: Buffer) => ArrayBufferLike | null): void;
  /**
   * A port on which a transport on another thread feeds this reader directly (see LineFeed in follow-thread.worker.ts):
   * written slots and how far the file is written, without passing through this thread. Null where the reader
   * cannot take one (on this thread, closed). Once it is given, advance() is the line's to say.
   */
  line?(): MessagePort | null;
  /** The file is complete at `size` bytes: resolves once all of it is read. */
  finish(size: number): Promise<FollowResult>;
  /**
   * The waveform decoded so far, from bucket `from` on, with how many bytes were read: what the review screen draws
   * while the file streams in. Null without analysis (checksum only) or before the format is known.
   */
  envelope?(from: number): Promise<FollowedEnvelope | null>;
  /** Stops reading and closes the file (the job ended, or the file was cut back and must be read anew). */
  close(): void;
}

/** A live envelope (see LiveEnvelope) and the bytes of the file read to make it. */
export interface FollowedEnvelope extends LiveEnvelope {
  bytes: number;
}

/** Options of createPartReader. */
export interface PartReaderOptions {
  path: string;
  format: MediaFormat;
  /** Decode wav/mp3 as it arrives: loudness, format facts and peaks (default false: checksum only). */
  analyze?: boolean;
  /** Called after each read with the bytes read so far (same thread only). */
  onProgress?: (bytes: number) => void;
  /** Hands back the memory of fed chunks once they are read (and no decoder can still look at them). */
  onDone?: (buffer: ArrayBufferLike) => void;
}

const READ_BYTES = 1 << 20;
/**
 * Fed bytes held ahead of the reader at most: as many as there are shared read slots (all fed memory is slots), so a
 * reader that falls behind keeps the transport's slots busy rather than reading back; beyond that a chunk is
 * given back and read from disk later.
 */
const MAX_PENDING_BYTES = 32 << 20;

/** Creates a reader that hashes (and optionally analyses) a growing file in order, one read at a time. */
export function createPartReader(options: PartReaderOptions): PartReader {
  const hash = createHash('sha256');
  // A decode failure (not audio after all, a corrupt stream) ends the analysis, never the checksum.
  let analysis: StreamingAnalysis | null =
    options.analyze === true && isAudioFormat(options.format)
      ? createStreamingAnalysis({ format: options.format, peaks: true })
      : null;
  let handle: Promise<FileHandle> | null = null;
  let scratch: Buffer | null = null;
  let position = 0;
  let allowed = 0;
  let size: number | null = null;
  let closed = false;
  let reading: Promise<void> | null = null;
  let failure: Error | null = null;
  let settle: { resolve(result: FollowResult): void; reject(error: Error): void } | null = null;
  // Chunks fed from the writer, by start offset: the common case never reads the file back.
  const pending = new Map<number, Buffer>();
  let pendingBytes = 0;
  // The last fed chunk read stays ours until the next one: a decoder may keep a view of its tail until then.
  let lastFed: Buffer | null = null;

  const file = () => (handle ??= open(options.path, 'r'));
  const done = (chunk: Buffer) => options.onDone?.(chunk.buffer);

  /** Takes the fed chunk at `start` out of the pending set. */
  function unpend(start: number): Buffer {
    const chunk = pending.get(start) as Buffer;
    pending.delete(start);
    pendingBytes -= chunk.length;
    return chunk;
  }

  /** Gives back fed chunks the reader has passed (read from disk meanwhile); returns the next start ahead. */
  function nextPending(): number {
    let next = Infinity;
    for (const start of [...pending.keys()]) {
      if (start < position) done(unpend(start));
      else next = Math.min(next, start);
    }
    return next;
  }

  async function readAll(): Promise<void> {
    while (!closed && position < allowed) {
      const next = nextPending();
      let chunk: Buffer;
      if (next === position) {
        chunk = unpend(next);
        if (lastFed) done(lastFed);
        lastFed = chunk;
      } else {
        // While decoding, a fresh buffer per read: the decoders may keep a view of a chunk's tail until the next one.
        const want = Math.min(READ_BYTES, allowed - position, next - position);
        const buffer = analysis ? Buffer.allocUnsafe(want) : (scratch ??= Buffer.allocUnsafe(READ_BYTES));
        const { bytesRead } = await (await file()).read(buffer, 0, want, position);
        if (bytesRead === 0) throw new Error(`${options.path} is shorter than the ${allowed} bytes written.`);
        chunk = buffer.subarray(0, bytesRead);
      }
      hash.update(chunk);
      position += chunk.length;
      options.onProgress?.(position);
      if (analysis) {
        try {
          await analysis.write(chunk);
        } catch {
          analysis = null;
        }
      }
    }
  }

  async function settleIfDone(): Promise<void> {
    if (!settle || size === null || position < size) return;
    const done = settle;
    settle = null;
    if (position > size) {
      // Read past the end it was given: the file was cut back under it, so neither checksum nor figures hold.
      done.reject(new Error(`Read ${position} bytes of a file said to have ${size}.`));
      release();
      return;
    }
    const result = analysis ? await analysis.finish().catch(() => null) : null;
    done.resolve({
      sha256: hash.digest('hex'),
      analysis: result?.analysis ?? null,
      peaks: result?.peaks ?? null,
    });
    release();
  }

  function pump(): void {
    if (reading || closed) return;
    reading = readAll()
      .then(
        () => settleIfDone(),
        (error: unknown) => {
          failure = error instanceof Error ? error : new Error(String(error));
          settle?.reject(failure);
          settle = null;
          release();
        },
      )
      .finally(() => {
        reading = null;
        if (!closed && !failure && position < allowed) pump();
      });
  }

  function release(): void {
    closed = true;
    for (const chunk of pending.values()) done(chunk);
    pending.clear();
    pendingBytes = 0;
    if (lastFed) done(lastFed);
    lastFed = null;
    const opened = handle;
    handle = null;
    void opened?.then((h) => h.close()).catch(() => undefined);
  }

  return {
    async envelope(from) {
      const live = analysis?.envelope(from);
      return live ? { ...live, bytes: position } : null;
    },
    advance(bytes) {
      if (closed || bytes <= allowed) return;
      allowed = size === null ? bytes : Math.min(bytes, size);
      pump();
    },
    feed(chunks, start) {
      // In this reader fed chunks are owned: it is the worker's side, where they arrive moved, not shared.
      let at = start;
      for (const chunk of chunks) {
        const take =
          !closed && at >= position && pendingBytes + chunk.length <= MAX_PENDING_BYTES && !pending.has(at);
        if (take) {
          pending.set(at, chunk);
          pendingBytes += chunk.length;
        } else done(chunk);
        at += chunk.length;
      }
    },
    finish(total) {
      if (failure) return Promise.reject(failure);
      if (closed) return Promise.reject(new Error('The reader is closed.'));
      size = total;
      allowed = total;
      return new Promise<FollowResult>((resolve, reject) => {
        settle = { resolve, reject };
        if (reading) return; // the running read settles when it reaches the end
        if (position < total) pump();
        else void settleIfDone();
      });
    },
    close() {
      if (closed) return;
      settle?.reject(new Error('The reader was closed.'));
      settle = null;
      release();
    },
  };
}
