import net from 'node:net';
import tls from 'node:tls';
import { readableBody, writeChunks, type DirectBody, type WriteChunks } from './body-writer';
import {
  directResponse,
  READ_BUFFER_BYTES,
  streamGet,
  type Get,
  type GetInit,
  type HttpGet,
  type LentBuffers,
} from './transport';

// Socket reads land in buffers this large (see READ_BUFFER_BYTES); loopback and fast links fill most of one per read.
const READ_BUFFER = READ_BUFFER_BYTES;
// Reads smaller than this are copied out so the big buffer can be reused instead of pinned.
const COPY_BELOW = READ_BUFFER / 4;
// Read buffers kept for reuse per connection: recycled memory avoids fresh pages (and their faults) per MiB.
const POOL_SIZE = 8;

const HEADER_LIMIT = 64 * 1024;
// A TLS read buffer that stops filling goes on after this long (a slow link still shows progress).
const TRICKLE_MS = 10;

/** Falls back to node:http(s) for what the lean path does not do (chunked bodies). */
class Unsupported extends Error {}

/** An answer as the lean reader gives it: the body pushed from the read callback, in read buffers it lends out. */
export interface RawResponse extends LentBuffers {
  status: number;
  headers: Record<string, string | undefined>;
  body: DirectBody;
}

/**
 * GET for media with Content-Length, over HTTP or HTTPS alike: one socket, a minimal HTTP/1.1 response-head parser,
 * and the body read straight into recycled 256 KiB buffers (`onread`, for TCP and for TLS), so no buffer is
 * allocated per read. Why, with figures: README.md in this folder. Chunked answers go through node:http(s).
 */
export const rawGet: Get<RawResponse & { discard(): void }> = async (url, init) => {
  const target = new URL(url);
  try {
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Unsupported();
    const raw = await leanGet(target, init);
    return { ...raw, discard: () => raw.body.destroy() };
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    const answer = await streamGet(url, init);
    return {
      ...answer,
      body: readableBody(answer.body),
      recycle: () => undefined,
      release: () => null,
    };
  }
};

/** The lean reader as a download's transport on this thread; `write`: tests inject a full disk. */
export function createLeanHttpGet(write: WriteChunks = writeChunks): HttpGet {
  return async (url, init) => {
    const raw = await rawGet(url, init);
    return directResponse(raw, write, raw);
  };
}

/** The lean reader on this thread, writing with positional writev. */
export const leanHttpGet: HttpGet = createLeanHttpGet();

/** Where body chunks go: set once, by `body.start`. */
interface Consumer {
  onChunk(chunk: Buffer): void;
  onEnd(error?: Error): void;
}

function leanGet(target: URL, init: GetInit): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    if (init.signal.aborted) {
      reject(init.signal.reason ?? new Error('aborted'));
      return;
    }
    const pool: Buffer[] = [];
    const lent = new Map<ArrayBufferLike, Buffer>();
    const shared = init.readBuffers;
    const take = () => shared?.take() ?? pool.pop() ?? Buffer.allocUnsafe(READ_BUFFER);
    // A written buffer goes back where it came from: the shared pool's to it, the others to this connection's.
    const giveBack = (parent: Buffer) => {
      if (!shared?.give(parent.buffer) && pool.length < POOL_SIZE) pool.push(parent);
    };
    const recycle = (chunk: Buffer) => {
      const parent = lent.get(chunk.buffer);
      if (!parent) return;
      lent.delete(chunk.buffer);
      giveBack(parent);
    };
    const release = (chunk: Buffer): ArrayBufferLike | null => {
      if (chunk.byteOffset !== 0 || !lent.delete(chunk.buffer)) return null;
      return chunk.buffer;
    };
    let buffer = take();
    let head: Buffer | null = Buffer.alloc(0);
    let remaining = Infinity;
    let settled = false;
    let consumer: Consumer | null = null;
    // Chunks read before a consumer attaches (the rest of the head's read); the socket waits meanwhile.
    let early: Buffer[] = [];
    // The body's end before a consumer attached: undefined while open, null when complete, else the failure.
    let outcome: Error | null | undefined;

    /** One socket read of `length` bytes at the start of `chunk` (the current buffer); false pauses the socket. */
    const onRead = (length: number, chunk: Uint8Array): boolean => {
      let data = Buffer.from(chunk.buffer, chunk.byteOffset, length);
      if (head !== null) {
        head = Buffer.concat([head, data]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) {
          if (head.length > HEADER_LIMIT) fail(new Error('Response head too large'));
          return true;
        }
        const response = parseHead(head.subarray(0, end).toString('latin1'));
        data = head.subarray(end + 4);
        head = null;
        if (response instanceof Error || response.headers['transfer-encoding']) {
          fail(response instanceof Error ? response : new Unsupported());
          return false;
        }
        const length = Number(response.headers['content-length'] ?? NaN);
        remaining = Number.isFinite(length) ? length : Infinity;
        settled = true;
        resolve({
          ...response,
          body: { start: attach, pause: () => socket.pause(), resume: () => socket.resume(), destroy },
          recycle,
          release,
        });
        if (data.length > 0) deliver(data);
        else if (remaining === 0) finish(null);
        return consumer !== null;
      } else if (length < COPY_BELOW) {
        data = Buffer.from(data); // small read: copy, keep reusing the big buffer
      } else {
        lent.set(buffer.buffer, buffer); // big read: hand it on as is, read into another buffer
        buffer = take();
      }
      deliver(data);
      return consumer !== null;
    };

    const host = target.hostname.replace(/^\[|\]$/gu, '');
    const secure = target.protocol === 'https:';
    // TLS decrypts one record (16 KiB) per callback, each at the end of what the read buffer holds (node asks for
    // the next target right after the callback, so a full buffer is swapped there). A fresh buffer per record, as
    // 'data' gives, cost twice the CPU. What a pause in the stream leaves in the buffer goes on as a copy.
    let fill = 0;
    let handed = 0;
    let idle: NodeJS.Timeout | null = null;
    const handOnCopy = () => {
      idle = null;
      if (fill === handed) return;
      const piece = Buffer.from(buffer.subarray(handed, fill));
      handed = fill;
      deliver(piece);
      if (consumer === null) socket.pause();
    };
    const onRecord = (length: number): boolean => {
      fill += length;
      if (head === null && fill < buffer.length && fill - handed < remaining) {
        idle ??= setTimeout(handOnCopy, TRICKLE_MS);
        return true;
      }
      const start = handed;
      const end = fill;
      fill = 0;
      handed = 0;
      return onRead(end - start, buffer.subarray(start));
    };
    // node reads TLS into a given buffer too, though its types only list `onread` for net.connect.
    const tlsOptions: tls.ConnectionOptions & { onread: net.OnReadOpts } = {
      host,
      port: Number(target.port || 443),
      // SNI takes a host name, never an address.
      ...(net.isIP(host) ? {} : { servername: host }),
      // A profile's own trust (the sandbox's certificate) replaces the system's for its connections.
      ...(init.ca ? { ca: init.ca } : {}),
      ALPNProtocols: ['http/1.1'],
      onread: { buffer: () => buffer.subarray(fill), callback: onRecord },
    };
    const socket: net.Socket = secure
      ? tls.connect(tlsOptions)
      : net.connect({
          host,
          port: Number(target.port || 80),
          onread: { buffer: () => buffer, callback: onRead },
        });

    function attach(onChunk: Consumer['onChunk'], onEnd: Consumer['onEnd']) {
      if (consumer) throw new Error('The body is already being read.');
      consumer = { onChunk, onEnd };
      const queued = early;
      early = [];
      for (const chunk of queued) onChunk(chunk);
      if (outcome !== undefined) onEnd(outcome ?? undefined);
      else socket.resume();
    }

    function deliver(data: Buffer) {
      if (outcome !== undefined) return;
      const part = data.length > remaining ? data.subarray(0, remaining) : data;
      remaining -= part.length;
      if (consumer) consumer.onChunk(part);
      else early.push(part);
      if (remaining === 0) {
        socket.end();
        finish(null);
      }
    }

    /** Ends the body once: complete (null) or with its failure. */
    function finish(error: Error | null) {
      if (outcome !== undefined) return;
      outcome = error;
      consumer?.onEnd(error ?? undefined);
    }

    function destroy() {
      socket.destroy();
      finish(new Error('aborted: body destroyed'));
    }

    function fail(error: Error) {
      socket.destroy();
      if (!settled) {
        settled = true;
        reject(error);
      } else finish(error);
    }

    const onAbort = () =>
      fail(init.signal.reason instanceof Error ? init.signal.reason : new Error('aborted'));
    init.signal.addEventListener('abort', onAbort, { once: true });
    socket.setNoDelay(true);
    socket.setTimeout(30_000, () => fail(new Error('No data from the server for 30 s')));
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      const lines = [
        `GET ${target.pathname}${target.search} HTTP/1.1`,
        `Host: ${target.host}`,
        'Connection: close',
      ];
      for (const [name, value] of Object.entries(init.headers)) {
        if (/[\r\n]/u.test(name) || /[\r\n]/u.test(value)) {
          fail(new Error('Invalid header'));
          return;
        }
        lines.push(`${name}: ${value}`);
      }
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
    socket.once('error', (error) => fail(certificateError(error) ?? error));
    socket.once('close', () => {
      init.signal.removeEventListener('abort', onAbort);
      if (idle) clearTimeout(idle);
      handOnCopy();
      // No read lands after this: the buffer that waited for the next one is free (lent ones come back by recycle).
      giveBack(buffer);
      if (!settled) fail(new Error('Connection closed before the response'));
      else if (remaining > 0 && remaining !== Infinity) fail(new Error('aborted: connection closed early'));
      else finish(null);
    });
  });
}

// OpenSSL's verification failures (node's tls error codes) and node's host-name check.
const CERTIFICATE_CODES =
  /^(ERR_TLS_CERT_ALTNAME_INVALID|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_.*|CERT_.*)$/u;

/** Thrown when the server's certificate is not trusted: the same answer on every try, so not worth retrying. */
export class UntrustedCertificateError extends Error {
  override name = 'UntrustedCertificateError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A TLS verification failure as an UntrustedCertificateError with a message the user can act on; else null. */
export function certificateError(error: unknown): UntrustedCertificateError | null {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (!code || !CERTIFICATE_CODES.test(code)) return null;
  return new UntrustedCertificateError(
    code,
    `The server's certificate is not trusted (${code}: ${(error as Error).message}).`,
  );
}

function parseHead(text: string): Pick<RawResponse, 'status' | 'headers'> | Error {
  const [statusLine = '', ...lines] = text.split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})/u.exec(statusLine);
  if (!match) return new Error(`Not an HTTP/1.1 response: ${JSON.stringify(statusLine.slice(0, 40))}`);
  const headers: Record<string, string | undefined> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return { status: Number(match[1]), headers };
}
