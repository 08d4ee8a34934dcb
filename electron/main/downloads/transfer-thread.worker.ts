// Worker-thread entry: the downloads' HTTP transfers, received and written on this one thread (see transfer-thread.ts).
// Bundled as out/main/transfer-thread.worker.js.
import { writeSync } from 'node:fs';
import { parentPort, type MessagePort } from 'node:worker_threads';
import { rawGet, UntrustedCertificateError, type RawResponse } from './lean-http';
import type { FedChunk, FollowReply, LineFeed } from './follow-thread.worker';
import type { ReadBufferPool } from './transport';

/** Messages to the worker. `id` names one GET from its head to its end. */
export type TransferRequest =
  /** The shared read slots' memory (once, at start) and slots given back for the next reads. */
  | { type: 'slots'; memory?: SharedArrayBuffer[]; free: number[] }
  /** `ca`: the certificate authorities trusted for this request instead of the system's (see HttpGet). */
  | { type: 'get'; id: number; url: string; headers: Record<string, string>; ca?: string }
  /**
   * Write the body into the open file `fd` from `position`, reporting progress; each written slot goes over
   * `line` to the download's follower, which gives it back over the same line.
   */
  | { type: 'pump'; id: number; fd: number; position: number; line?: MessagePort }
  /** Drop the response (an answer that is not the body, an abort): a pump in progress ends with an error. */
  | { type: 'discard'; id: number };

export type TransferReply =
  | { type: 'head'; id: number; status: number; headers: Record<string, string | undefined> }
  /** `untrusted`: the code of a certificate the request refused (UntrustedCertificateError), not a network error. */
  | { type: 'failed'; id: number; message: string; untrusted?: string }
  /** `bytes` more are written; the file is whole up to `end`. */
  | { type: 'progress'; id: number; bytes: number; end: number }
  | {
      type: 'end';
      id: number;
      /** Bytes written from `position`, contiguous; a failed write's partial bytes are not counted. */
      written: number;
      networkError: string | null;
      writeError: { message: string; code?: string } | null;
    };

// Progress goes to the main thread every this many bytes or this long after a read (and at the end), not per read.
const PROGRESS_BYTES = 4 << 20;
const PROGRESS_MS = 50;

const port = parentPort;
if (port) {
  const post = (reply: TransferReply) => port.postMessage(reply);
  const memory: SharedArrayBuffer[] = [];
  const slotOf = new Map<ArrayBufferLike, number>();
  const free: number[] = [];
  const isFree: boolean[] = [];
  // The transport reads into free slots; a written slot goes to the follower over its line, and comes back there.
  const slots: ReadBufferPool = {
    take() {
      const slot = free.pop();
      if (slot === undefined) return undefined;
      isFree[slot] = false;
      return Buffer.from(memory[slot]!);
    },
    give(buffer) {
      const slot = slotOf.get(buffer);
      if (slot === undefined) return false;
      release(slot);
      return true;
    },
  };
  const release = (slot: number) => {
    if (isFree[slot] || !memory[slot]) return;
    isFree[slot] = true;
    free.push(slot);
  };
  // Slots out on a follower's line, by the line they went out on; a follower may give one back on a later line
  // of the same session (a resumed download), so a slot is freed once, by whichever comes first.
  const heldBy = new Map<number, MessagePort>();
  const responses = new Map<number, RawResponse>();
  const aborts = new Map<number, AbortController>();

  const get = (id: number, url: string, headers: Record<string, string>, ca: string | undefined) => {
    const abort = new AbortController();
    aborts.set(id, abort);
    rawGet(url, { headers, signal: abort.signal, readBuffers: slots, ...(ca ? { ca } : {}) }).then(
      (response) => {
        if (abort.signal.aborted) {
          response.body.destroy();
          return;
        }
        responses.set(id, response);
        post({ type: 'head', id, status: response.status, headers: response.headers });
      },
      (error: unknown) => {
        aborts.delete(id);
        post({
          type: 'failed',
          id,
          message: String((error as Error)?.message ?? error),
          ...(error instanceof UntrustedCertificateError ? { untrusted: error.code } : {}),
        });
      },
    );
  };

  const discard = (id: number) => {
    aborts.get(id)?.abort(new Error('aborted'));
    aborts.delete(id);
    const response = responses.get(id);
    responses.delete(id);
    if (response) response.body.destroy();
  };

  /**
   * Receives and writes on this thread, each chunk right after it arrives (still in this core's cache; a write
   * handed to another thread copies it across cores), in order, so the file never has a hole.
   */
  const pump = (id: number, fd: number, position: number, line: MessagePort | undefined) => {
    const response = responses.get(id);
    if (!response) {
      line?.close();
      post({ type: 'end', id, written: 0, networkError: 'aborted', writeError: null });
      return;
    }
    const { body } = response;
    line?.on('message', (reply: FollowReply) => {
      if (!('type' in reply) || reply.type !== 'slots') return;
      for (const slot of reply.slots) {
        if (heldBy.delete(slot)) release(slot);
      }
    });
    // A closed line (the follower's session ended, or it died) gives back every slot still on it.
    line?.once('close', () => {
      for (const [slot, on] of heldBy) {
        if (on !== line) continue;
        heldBy.delete(slot);
        release(slot);
      }
    });
    const known = new Set<number>();
    let at = position;
    let fed: FedChunk[] = [];
    let feedScheduled = false;
    let unreported = 0;
    let writeError: { message: string; code?: string } | null = null;
    const feed = () => {
      feedScheduled = false;
      line?.postMessage({ chunks: fed, advance: at } satisfies LineFeed);
      fed = [];
    };
    let reportTimer: NodeJS.Timeout | null = null;
    const report = () => {
      if (reportTimer) clearTimeout(reportTimer);
      reportTimer = null;
      if (unreported === 0) return;
      post({ type: 'progress', id, bytes: unreported, end: at });
      unreported = 0;
    };
    body.start(
      (chunk) => {
        if (writeError) return;
        try {
          for (let done = 0; done < chunk.length;) {
            done += writeSync(fd, chunk, done, chunk.length - done, at + done);
          }
        } catch (error) {
          const { message, code } = error as NodeJS.ErrnoException;
          writeError = { message, ...(code ? { code } : {}) };
          response.recycle(chunk);
          body.destroy();
          return;
        }
        const slot = slotOf.get(chunk.buffer);
        if (line && slot !== undefined && response.release(chunk) !== null) {
          heldBy.set(slot, line);
          fed.push({ slot, at, length: chunk.length, ...(known.has(slot) ? {} : { memory: memory[slot] }) });
          known.add(slot);
        } else response.recycle(chunk);
        at += chunk.length;
        unreported += chunk.length;
        if (line && !feedScheduled) {
          feedScheduled = true;
          setImmediate(feed);
        }
        if (unreported >= PROGRESS_BYTES) report();
        else reportTimer ??= setTimeout(report, PROGRESS_MS);
      },
      (error) => {
        if (feedScheduled) feed();
        report();
        responses.delete(id);
        aborts.delete(id);
        post({
          type: 'end',
          id,
          written: at - position,
          networkError: writeError ? null : (error?.message ?? null),
          writeError,
        });
      },
    );
  };

  port.on('message', (message: TransferRequest) => {
    if (message.type === 'slots') {
      message.memory?.forEach((shared, slot) => {
        memory[slot] = shared;
        slotOf.set(shared, slot);
      });
      for (const slot of message.free) release(slot);
    } else if (message.type === 'get') get(message.id, message.url, message.headers, message.ca);
    else if (message.type === 'pump') pump(message.id, message.fd, message.position, message.line);
    else discard(message.id);
  });
}
