import type { FileHandle } from 'node:fs/promises';
import http from 'node:http';
import type { MessagePort } from 'node:worker_threads';
import https from 'node:https';
import type { Readable } from 'node:stream';

/**
 * Push-style reading of a body with no stream in between: chunks go from the socket's read callback straight to
 * the consumer. The lean transport offers it; a node:http body is adapted with `readableBody`.
 */
export interface DirectBody {
  /** Starts delivery (once): `onChunk` per received chunk, then `onEnd` once, with the failure if one cut it. */
  start(onChunk: (chunk: Buffer) => void, onEnd: (error?: Error) => void): void;
  pause(): void;
  resume(): void;
  /** Stops reading and closes the connection; a started consumer gets `onEnd` with an error. */
  destroy(): void;
}

/** The part of an HTTP response the downloader reads. */
export interface HttpResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string | undefined>;
  /** The body as a stream (created on first use where `direct` exists: use one or the other). */
  body: Readable;
  /**
   * The same body without a stream: the fast way to consume it, when the transport offers it. A wrapper that
   * replaces `body` must leave this out.
   */
  direct?: DirectBody;
  /** Gives a body chunk's memory back to the transport once it is written (lets it reuse read buffers). */
  recycle?: (chunk: Buffer) => void;
  /**
   * Gives up a body chunk's memory for good instead of recycling it: its ArrayBuffer (or SharedArrayBuffer), when
   * the chunk sits alone at the start of one (so another thread can take it without a copy); null otherwise.
   */
  release?: (chunk: Buffer) => ArrayBufferLike | null;
  /**
   * Writes the body into `handle` itself, where the transport lives (the worker transport receives and writes on
   * one thread, see worker-http.ts): the same contract as pumpBody. Absent: the caller pumps `direct`/`body`.
   */
  pump?: (options: PumpOptions) => Promise<PumpResult>;
}

/** Where a body goes and what the download hears of it: for pumpBody and for a transport's own pump. */
export interface PumpOptions {
  handle: FileHandle;
  position: number;
  /** Bytes received (not yet necessarily on disk). */
  onBytes: (n: number) => void;
  /** The file is written without holes up to `end`: what a reader following the file may read. */
  onWritten?: (end: number) => void;
  /**
   * Chunks just written at `start`: a follower may take them from memory (see PartReader.feed and `release`;
   * chunks it takes for good are not recycled).
   */
  onLanded?: (chunks: Buffer[], start: number) => void;
  /** The follower's line (PartReader.line): a transport on another thread feeds it there directly. */
  line?: MessagePort;
}

/** Result of streaming one response body into the file. */
export interface PumpResult {
  /** Bytes of this body now on disk, contiguous from the start position (flushed even when the connection was cut). */
  written: number;
  /** The body's failure (cut connection, abort), after everything received was written; null when it ended. */
  networkError: Error | null;
}

/**
 * Size of the lean transport's socket reads (and of the shared read slots). A read is written right after it lands,
 * while it is still in the core's cache: measured on loopback with the 172.8 MB WAV, 256 KiB reads ran at
 * 1.05-1.13x curl's pace where 1 MiB reads (which spill out of L2 before the write copies them) ran at 0.86-0.91x,
 * and 128 KiB reads (four times the messages) at 0.90-1.00x.
 */
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

/** One GET; the body must be destroyed by the caller if not consumed. */
export type HttpGet = (
  url: string,
  init: {
    headers: Record<string, string>;
    signal: AbortSignal;
    readBuffers?: ReadBufferPool;
    /**
     * Certificate authorities (PEM) trusted for HTTPS instead of the system's: the Sandbox profile's own
     * certificate. Absent: the system trust store.
     */
    ca?: string;
  },
) => Promise<HttpResponse>;

/** GET over node:http(s): the fallback of fastHttpGet for HTTPS and chunked answers. */
export const nodeHttpGet: HttpGet = (url, init) =>
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
      resolve({ status: response.statusCode ?? 0, headers, body: response });
    });
    request.setTimeout(30_000, () => request.destroy(new Error('No data from the server for 30 s')));
    request.on('error', reject);
  });

/**
 * A DirectBody over a Readable: what pumps a body from node:http or a test's wrapped stream. 'data' events, not the
 * async iterator: read() would concatenate buffered chunks into new buffers (a copy per MiB, and the transport's
 * read buffers could no longer be recycled).
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
export function withRedirects(get: HttpGet, max = 5): HttpGet {
  return async (url, init) => {
    let current = url;
    let headers = init.headers;
    for (let hop = 0; ; hop++) {
      const response = await get(current, { ...init, headers });
      const location = response.headers.location;
      if (!REDIRECTS.has(response.status) || !location) return response;
      response.body.resume();
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
