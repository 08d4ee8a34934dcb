import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rawGet } from './lean-http';
import { createSharedSlots } from './follow-threads';
import { withRedirects } from './transport';
import { readRawBody, serveOnLoopback } from './test-support/test-server';

// Edge cases of the lean HTTP path against a real server on 127.0.0.1 (the sandbox only ever sends
// Content-Length bodies, so chunked, close-delimited, split heads and redirects are exercised here).

const big = Buffer.alloc(3_000_000);
for (let i = 0; i < big.length; i++) big[i] = (i * 31 + (i >> 9)) & 0xff;

let server: Awaited<ReturnType<typeof serveOnLoopback>>;
let base = '';

beforeAll(async () => {
  server = await serveOnLoopback((req, res) => {
    const path = req.url ?? '/';
    if (path === '/big') {
      res.writeHead(200, { 'content-length': big.length, etag: '"v1"' });
      res.end(big);
    } else if (path === '/chunked') {
      res.writeHead(200, { 'content-type': 'audio/wav' });
      res.write(big.subarray(0, 1000));
      res.end(big.subarray(1000, 5000));
    } else if (path === '/echo') {
      const body = Buffer.from(JSON.stringify(req.headers));
      res.writeHead(206, { 'content-length': body.length, 'content-range': 'bytes 0-1/2' });
      res.end(body);
    } else if (path === '/redirect') {
      res.writeHead(302, { location: '/big', 'content-length': 0 });
      res.end();
    } else if (path === '/short') {
      // Announces more than it sends, then drops the connection.
      res.writeHead(200, { 'content-length': 10_000 });
      res.write(big.subarray(0, 4000), () => res.socket?.destroy());
    } else {
      res.writeHead(404, { 'content-length': 0 });
      res.end();
    }
  });
  base = server.base;
});
afterAll(() => server.close());

async function read(get: typeof rawGet, path: string, headers: Record<string, string> = {}) {
  const response = await get(`${base}${path}`, { headers, signal: new AbortController().signal });
  return { ...response, bytes: await readRawBody(response) };
}

describe('rawGet', () => {
  it('reads a Content-Length body byte-exact with status and lower-case headers', async () => {
    const r = await read(rawGet, '/big');
    expect(r.status).toBe(200);
    expect(r.headers.etag).toBe('"v1"');
    expect(r.bytes.equals(big)).toBe(true);
  });

  it('sends our headers (Range, If-Range)', async () => {
    const r = await read(rawGet, '/echo', { range: 'bytes=5-', 'if-range': '"v1"' });
    expect(r.status).toBe(206);
    expect(JSON.parse(r.bytes.toString())).toMatchObject({ range: 'bytes=5-', 'if-range': '"v1"' });
  });

  it('falls back to node:http for a chunked body', async () => {
    const r = await read(rawGet, '/chunked');
    expect(r.bytes.equals(big.subarray(0, 5000))).toBe(true);
  });

  it('reports a body cut short as an error', async () => {
    await expect(read(rawGet, '/short')).rejects.toThrow(/closed early|aborted/);
  });

  it('refuses header injection', async () => {
    await expect(read(rawGet, '/big', { range: 'bytes=0-\r\nx-evil: 1' })).rejects.toThrow(/Invalid header/);
  });

  it('aborts through the signal', async () => {
    const controller = new AbortController();
    const response = await rawGet(`${base}/big`, { headers: {}, signal: controller.signal });
    controller.abort();
    await expect(
      new Promise<void>((resolve, reject) =>
        response.body.start(
          () => undefined,
          (error) => (error ? reject(error) : resolve()),
        ),
      ),
    ).rejects.toThrow();
  });

  it('withRedirects follows a 302 to the file', async () => {
    const r = await read(withRedirects(rawGet), '/redirect');
    expect(r.status).toBe(200);
    expect(r.bytes.length).toBe(big.length);
  });
});

describe('rawGet body pushed from the read callback', () => {
  const get = (path: string) =>
    rawGet(`${base}${path}`, { headers: {}, signal: new AbortController().signal });

  it('hands every byte from the read callback to the consumer, then ends once', async () => {
    const response = await get('/big');
    const chunks: Buffer[] = [];
    let ends = 0;
    const ended = new Promise<Error | undefined>((resolve) =>
      response.body.start(
        (chunk) => chunks.push(Buffer.from(chunk)),
        (error) => {
          ends++;
          resolve(error);
        },
      ),
    );
    expect(await ended).toBeUndefined();
    expect(Buffer.concat(chunks).equals(big)).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(ends).toBe(1);
  });

  it('reads into a shared pool while it has free buffers, gives back what is written, and gives up released ones', async () => {
    const pool = createSharedSlots(2);
    const response = await rawGet(`${base}/big`, {
      headers: {},
      signal: new AbortController().signal,
      readBuffers: pool,
    });
    const released: ArrayBufferLike[] = [];
    const copies: Buffer[] = [];
    let inPool = 0;
    const ended = new Promise<Error | undefined>((resolve) =>
      response.body.start((chunk) => {
        copies.push(Buffer.from(chunk));
        if (pool.slotOf(chunk.buffer) !== undefined) inPool++;
        // The first whole pool buffer is given up for good; every other chunk is written and given back.
        const buffer =
          released.length === 0 && pool.slotOf(chunk.buffer) !== undefined ? response.release(chunk) : null;
        if (buffer) {
          released.push(buffer);
          expect(response.release(chunk)).toBeNull(); // once only
        } else response.recycle(chunk);
      }, resolve),
    );
    expect(await ended).toBeUndefined();
    expect(Buffer.concat(copies).equals(big)).toBe(true);
    // 3 MB arrive in reads of up to 1 MiB: some landed in the pool's two buffers, one of them was given up.
    expect(inPool).toBeGreaterThan(1);
    expect(released).toHaveLength(1);
    expect(released[0]).toBeInstanceOf(SharedArrayBuffer);
    // Once the connection is closed, all but the given-up buffer are back in the pool.
    await vi.waitFor(() => expect(pool.stats()).toEqual({ created: 2, free: 1 }), { timeout: 2000 });
  });

  it('pauses and resumes the socket for a slow consumer without losing bytes', async () => {
    const response = await get('/big');
    const direct = response.body;
    let received = 0;
    const ended = new Promise<Error | undefined>((resolve) =>
      direct.start((chunk) => {
        received += chunk.length;
        direct.pause();
        setTimeout(() => direct.resume(), 2);
      }, resolve),
    );
    expect(await ended).toBeUndefined();
    expect(received).toBe(big.length);
  });

  it('reports a cut body and a destroyed one as errors, and refuses a second consumer', async () => {
    const short = await get('/short');
    await expect(new Promise((_, reject) => short.body.start(() => undefined, reject))).rejects.toThrow(
      /closed early/,
    );
    const response = await get('/big');
    const ended = new Promise<Error | undefined>((resolve) => response.body.start(() => undefined, resolve));
    expect(() =>
      response.body.start(
        () => undefined,
        () => undefined,
      ),
    ).toThrow(/already being read/);
    response.body.destroy();
    expect((await ended)?.message).toMatch(/destroyed|aborted/);
  });
});
