import type { FileHandle } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import type { PartReader } from './part-reader';
import { pumpBody, readableBody, writeChunks, type DirectBody, type WriteChunks } from './body-writer';

/**
 * The one interface between a download job and the network: a GET answers its status and headers, and then the
 * body is either written into the part file (`pump`) or dropped (`discard`). How the bytes get there (a worker
 * thread, this thread, node:http) is the transport's business; README.md in this folder says which and why.
 */
export interface HttpResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string | undefined>;
  /** Writes the body into `handle` from `position`, feeding the follower; once per response. */
  pump(options: PumpOptions): Promise<PumpResult>;
  /** Drops the body and closes the connection (an answer that is not the file, an abort). */
  discard(): void;
}

/** Where a body goes and who hears of it. */
export interface PumpOptions {
  handle: FileHandle;
  position: number;
  /** Bytes received (not yet necessarily on disk). */
  onBytes: (n: number) => void;
  /**
   * The reader hashing (and analysing) the part behind the writer: told how far the file is whole, and given the
   * written bytes from memory where the transport can (a shared read slot, or its line from another thread).
   */
  follower?: Follower;
}

/** What a transport needs of a PartReader. */
export type Follower = Pick<PartReader, 'advance' | 'feed' | 'line'>;

/** Result of streaming one response body into the file. */
export interface PumpResult {
  /** Bytes of this body now on disk, contiguous from the start position (flushed even when the connection was cut). */
  written: number;
  /** The body's failure (cut connection, abort), after everything received was written; null when it ended. */
  networkError: Error | null;
}

/** Size of the socket reads and of the shared read slots (why 256 KiB: README.md). */
export const READ_BUFFER_BYTES = 256 << 10;

/**
 * Read buffers kept across responses. The transport reads into the pool's buffers while it has any, and gives each
 * one back once written (or when the connection ends), unless it released it to another owner, who gives it back.
 */
export interface ReadBufferPool {
  /** A free buffer, or undefined when all are in use. */
  take(): Buffer | undefined;
  /** Returns a buffer of this pool (true); false for any other memory, which the caller keeps. */
  give(buffer: ArrayBufferLike): boolean;
}

/** What a GET is told besides its URL. */
export interface GetInit {
  headers: Record<string, string>;
  signal: AbortSignal;
  readBuffers?: ReadBufferPool;
  /**
   * Certificate authorities (PEM) trusted for HTTPS instead of the system's: the Sandbox profile's own
   * certificate. Absent: the system trust store.
   */
  ca?: string;
}

/** One GET. `R` is what answers: a download's HttpResponse, or a StreamResponse for the media route. */
export type Get<R extends Answer> = (url: string, init: GetInit) => Promise<R>;
/** One GET whose body goes to a part file: what a download takes. */
export type HttpGet = Get<HttpResponse>;

/** What every answer has: enough to follow a redirect. */
interface Answer {
  status: number;
  headers: Record<string, string | undefined>;
  discard(): void;
}

/** An answer whose body is a stream: node:http(s), for the media route and chunked answers. */
export interface StreamResponse extends Answer {
  body: Readable;
}

/** GET over node:http(s), the body as a stream. */
export const streamGet: Get<StreamResponse> = (url, init) =>
  new Promise((resolve, reject) => {
    const target = new URL(url);
    const transport = target.protocol === 'https:' ? https : http;
    if (target.protocol !== 'https:' && target.protocol !== 'http:') {
      reject(new Error(`Unsupported URL scheme ${target.protocol}`));
      return;
    }
    const options = { headers: init.headers, signal: init.signal, ...(init.ca ? { ca: init.ca } : {}) };
    const request = transport.get(target, options, (response) => {
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      resolve({
        status: response.statusCode ?? 0,
        headers,
        body: response,
        discard: () => response.destroy(),
      });
    });
    request.setTimeout(30_000, () => request.destroy(new Error('No data from the server for 30 s')));
    request.on('error', reject);
  });

/** The read buffers a transport lends body chunks in (the lean reader's). */
export interface LentBuffers {
  /** Gives a chunk's read buffer back once it is written, for the next reads. */
  recycle(chunk: Buffer): void;
  /**
   * Gives up a chunk's read buffer for good (a follower on another thread takes it): its ArrayBuffer or
   * SharedArrayBuffer when the chunk sits alone at the start of one, else null.
   */
  release(chunk: Buffer): ArrayBufferLike | null;
}

/**
 * A download's answer whose body is written on this thread (`write`: tests inject a full disk). With `lent`, written
 * buffers go back to the transport and the follower may take landed chunks from memory.
 */
export function directResponse(
  answer: { status: number; headers: Record<string, string | undefined>; discard(): void; body: DirectBody },
  write: WriteChunks = writeChunks,
  lent?: LentBuffers,
): HttpResponse {
  return {
    status: answer.status,
    headers: answer.headers,
    discard: answer.discard,
    pump: ({ handle, position, onBytes, follower }) =>
      pumpBody({
        body: answer.body,
        handle,
        position,
        write,
        onBytes,
        ...(lent ? { recycle: lent.recycle } : {}),
        ...(follower
          ? {
              onWritten: (end: number) => follower.advance(end),
              ...(lent
                ? {
                    onLanded: (chunks: Buffer[], start: number) => follower.feed(chunks, start, lent.release),
                  }
                : {}),
            }
          : {}),
      }),
  };
}

/** A download's answer over a stream body, written on this thread (`write`: tests inject a full disk). */
export function streamResponse(answer: StreamResponse, write: WriteChunks = writeChunks): HttpResponse {
  return directResponse({ ...answer, body: readableBody(answer.body) }, write);
}

/** GET over node:http(s), written on this thread: the lean reader's fallback for chunked answers. */
export const nodeHttpGet: HttpGet = async (url, init) => streamResponse(await streamGet(url, init));

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
// Credentials that belong to the origin they were meant for, never to a host a redirect names.
const CREDENTIALS = ['x-access-token', 'authorization', 'cookie', 'proxy-authorization'];

/** A redirect the download refuses to follow (too many hops, HTTPS to plain HTTP). */
export class RedirectError extends Error {
  override name = 'RedirectError';
}

/**
 * Follows up to `max` redirects (CDNs and signed URLs commonly redirect media links); relative locations are
 * resolved. A hop to another origin drops the credential headers (the access token goes only where it was meant
 * to), and a hop from HTTPS to plain HTTP is refused.
 */
export function withRedirects<R extends Answer>(get: Get<R>, max = 5): Get<R> {
  return async (url, init) => {
    let current = url;
    let headers = init.headers;
    for (let hop = 0; ; hop++) {
      const response = await get(current, { ...init, headers });
      const location = response.headers.location;
      if (!REDIRECTS.has(response.status) || !location) return response;
      response.discard();
      if (hop >= max) throw new RedirectError(`More than ${max} redirects from ${new URL(url).origin}.`);
      const next = new URL(location, current);
      const from = new URL(current);
      if (from.protocol === 'https:' && next.protocol !== 'https:') {
        throw new RedirectError(`Refused a redirect from HTTPS to ${next.protocol} (${next.origin}).`);
      }
      if (next.origin !== from.origin) {
        headers = Object.fromEntries(
          Object.entries(headers).filter(([name]) => !CREDENTIALS.includes(name.toLowerCase())),
        );
      }
      current = next.toString();
    }
  };
}
