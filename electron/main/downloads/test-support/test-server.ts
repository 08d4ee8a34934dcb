import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Transform } from 'node:stream';
import { writeChunks, type WriteChunks } from '../body-writer';
import type { RawResponse } from '../lean-http';
import { streamGet, streamResponse, type HttpGet } from '../transport';

/** A node:http server on 127.0.0.1 for the transport tests; `close` also drops connections left open. */
export async function serveOnLoopback(
  handler: RequestListener,
): Promise<{ base: string; close(): Promise<void> }> {
  const server = createServer(handler);
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A real HTTP GET whose body is slowed down, so a transfer can be caught in the middle or two overlap. */
export function throttledGet(bytesPerSecond: number): HttpGet {
  return async (url, init) => {
    const answer = await streamGet(url, init);
    // The pace is kept on average: a wait once 20 ms are owed, not a timer per (16 KiB) TLS record.
    let owedMs = 0;
    const paced = new Transform({
      transform(chunk: Buffer, _enc, done) {
        owedMs += (chunk.length / bytesPerSecond) * 1000;
        if (owedMs < 20) return done(null, chunk);
        const wait = owedMs;
        owedMs = 0;
        setTimeout(() => done(null, chunk), wait);
      },
    });
    answer.body.on('error', (error) => paced.destroy(error));
    answer.body.pipe(paced);
    return streamResponse({ ...answer, body: paced });
  };
}

/** Reads a lean reader's answer to the end, giving each read buffer back as the app's writer does. */
export function readRawBody(response: RawResponse): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise<Buffer>((resolve, reject) =>
    response.body.start(
      (chunk) => {
        chunks.push(Buffer.from(chunk));
        response.recycle(chunk);
      },
      (error) => (error ? reject(error) : resolve(Buffer.concat(chunks))),
    ),
  );
}

/**
 * A disk with room for `budget` more bytes, as a download's writer: the write that overflows it lands what fits and
 * then fails as the kernel does (ENOSPC, reporting the bytes written); `free()` makes room for everything after.
 */
export function fillingDisk(budget: number): { write: WriteChunks; free(): void } {
  let room = budget;
  let full = true;
  return {
    async write(handle, chunks, position) {
      if (!full) return writeChunks(handle, chunks, position);
      const size = chunks.reduce((n, c) => n + c.length, 0);
      if (size <= room) {
        room -= size;
        return writeChunks(handle, chunks, position);
      }
      const fit = Buffer.concat(chunks).subarray(0, room);
      await writeChunks(handle, [fit], position);
      room = 0;
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
        code: 'ENOSPC',
        errno: -28,
        bytesWritten: fit.length, // what landed before the disk filled, as writeChunks reports it
      });
    },
    free() {
      full = false;
    },
  };
}
