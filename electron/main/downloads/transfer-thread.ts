import type { Worker } from 'node:worker_threads';
import { resolveWorkerEntry, startWorker } from '../kernel/workers';
import { leanHttpGet, UntrustedCertificateError } from './lean-http';
import type { SharedSlots } from './follow-threads';
import type { HttpGet, HttpResponse, PumpResult } from './transport';
import type { TransferReply, TransferRequest } from './transfer-thread.worker';

/** An HttpGet whose transfers run on a worker thread; `close` stops it (app quit). */
export type TransferThread = HttpGet & { close(): Promise<void> };

/**
 * Downloads on a worker thread: it connects, receives into the read slots it shares with the follow threads and
 * writes each read to the part file on that same thread, in order (as curl does), then passes the written slot by
 * number to the download's follower over a direct line (PartReader.line). The main thread only decides and sees
 * progress; it never blocks on the disk. Why one thread from socket to file: README.md in this folder.
 *
 * Where the worker cannot start, or after it died, requests go through `fallback` on this thread.
 */
export function createTransferThread(options: {
  /** The follow workers' read slots, which this transport adopts (see SharedSlots.adopt). */
  slots: SharedSlots;
  entry?: URL | null;
  fallback?: HttpGet;
}): TransferThread {
  const fallback = options.fallback ?? leanHttpGet;
  const entry =
    options.entry === undefined
      ? resolveWorkerEntry(
          { source: './transfer-thread.worker.ts', bundled: 'transfer-thread.worker.js' },
          import.meta.url,
        )
      : options.entry;
  let worker: Worker | null = null;
  let dead: Error | null = entry ? null : new Error('No transfer worker entry.');
  let ids = 0;
  const heads = new Map<number, { resolve(reply: TransferReply): void; reject(error: Error): void }>();
  const pumps = new Map<number, (reply: TransferReply | Error) => void>();
  // Slots the followers gave back, passed on in one message per turn of the event loop.
  let returning: number[] = [];
  const giveBack = (slot: number) => {
    if (returning.length === 0)
      setImmediate(() => {
        const free = returning;
        returning = [];
        if (worker && !dead) worker.postMessage({ type: 'slots', free } satisfies TransferRequest);
      });
    returning.push(slot);
  };

  const started = (): Worker | null => {
    if (dead) return null;
    if (worker) return worker;
    try {
      worker = startWorker(entry as URL);
    } catch (error) {
      dead = error as Error;
      return null;
    }
    const memory = options.slots.adopt(giveBack);
    worker.postMessage({
      type: 'slots',
      memory,
      free: memory.map((_, slot) => slot),
    } satisfies TransferRequest);
    worker.unref();
    worker.on('message', (reply: TransferReply) => {
      if (reply.type === 'head' || reply.type === 'failed') {
        const waiting = heads.get(reply.id);
        heads.delete(reply.id);
        waiting?.resolve(reply);
      } else pumps.get(reply.id)?.(reply);
    });
    const died = (error: Error) => {
      dead ??= error;
      for (const waiting of heads.values()) waiting.reject(dead);
      heads.clear();
      for (const pump of pumps.values()) pump(dead);
      pumps.clear();
    };
    worker.once('error', died);
    worker.once('exit', (code) => died(new Error(`The transfer worker stopped (exit code ${code}).`)));
    return worker;
  };

  const get: HttpGet = async (url, init) => {
    const thread = started();
    if (!thread) return fallback(url, init);
    if (init.signal.aborted) throw init.signal.reason ?? new Error('aborted');
    const id = ++ids;
    const send = (request: TransferRequest) => {
      if (!dead) thread.postMessage(request);
    };
    const discard = () => send({ type: 'discard', id });
    init.signal.addEventListener('abort', discard, { once: true });
    let aborted: () => void = () => undefined;
    const reply = await new Promise<TransferReply>((resolve, reject) => {
      heads.set(id, { resolve, reject });
      send({ type: 'get', id, url, headers: init.headers, ...(init.ca ? { ca: init.ca } : {}) });
      aborted = () => reject(init.signal.reason ?? new Error('aborted'));
      init.signal.addEventListener('abort', aborted, { once: true });
    })
      .catch((error: unknown) => {
        heads.delete(id);
        init.signal.removeEventListener('abort', discard);
        throw error;
      })
      .finally(() => init.signal.removeEventListener('abort', aborted));
    if (reply.type === 'failed') {
      init.signal.removeEventListener('abort', discard);
      throw reply.untrusted
        ? new UntrustedCertificateError(reply.untrusted, reply.message)
        : new Error(reply.message);
    }
    if (reply.type !== 'head') throw new Error('Unexpected transfer reply.');
    let pumping = false;
    const response: HttpResponse = {
      status: reply.status,
      headers: reply.headers,
      discard() {
        if (!pumping) discard();
      },
      pump({ handle, position, onBytes, follower }) {
        pumping = true;
        return new Promise<PumpResult>((resolve, reject) => {
          const line = follower?.line?.() ?? null;
          pumps.set(id, (message) => {
            if (message instanceof Error) {
              init.signal.removeEventListener('abort', discard);
              reject(message);
              return;
            }
            if (message.type === 'progress') {
              onBytes(message.bytes);
              follower?.advance(message.end);
              return;
            }
            if (message.type !== 'end') return;
            pumps.delete(id);
            init.signal.removeEventListener('abort', discard);
            if (message.writeError) {
              const { message: text, code } = message.writeError;
              const error = Object.assign(new Error(text), code ? { code } : {});
              // Cut back anything a failed write left past the bytes known to be whole.
              handle.truncate(position + message.written).then(
                () => reject(error),
                () => reject(error),
              );
              return;
            }
            resolve({
              written: message.written,
              networkError: message.networkError === null ? null : new Error(message.networkError),
            });
          });
          const request: TransferRequest = {
            type: 'pump',
            id,
            fd: handle.fd,
            position,
            ...(line ? { line } : {}),
          };
          if (dead) {
            line?.close();
            reject(dead);
          } else thread.postMessage(request, line ? [line] : []);
        });
      },
    };
    return response;
  };

  return Object.assign(get, {
    async close() {
      const thread = worker;
      dead ??= new Error('The transfer worker was closed.');
      worker = null;
      await thread?.terminate();
    },
  });
}
