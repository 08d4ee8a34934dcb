import { existsSync } from 'node:fs';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FollowReply, LineFeed } from './follow-thread.worker';
import { createSharedSlots } from './follow-threads';
import type { HttpGet, PumpOptions } from './transport';
import { serveOnLoopback } from './test-support/test-server';
import { createTransferThread } from './transfer-thread';

// The transfer worker against a real server on 127.0.0.1: what it writes, what it feeds, how it fails.

const big = Buffer.alloc(6_000_000);
for (let i = 0; i < big.length; i++) big[i] = (i * 31 + (i >> 9)) & 0xff;

let server: Awaited<ReturnType<typeof serveOnLoopback>>;
let base = '';
let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'takedesk-transfer-thread-'));
  server = await serveOnLoopback((req, res) => {
    if (req.url === '/big') {
      res.writeHead(200, { 'content-length': big.length, etag: '"v1"' });
      res.end(big);
    } else if (req.url === '/slow') {
      // The first 2 MB, then the rest only much later: time to abort in between.
      res.writeHead(200, { 'content-length': big.length });
      res.write(big.subarray(0, 2_000_000));
      setTimeout(() => res.end(big.subarray(2_000_000)), 3000).unref();
    } else {
      res.writeHead(404, { 'content-length': 9 });
      res.end('not found');
    }
  });
  base = server.base;
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const never = () => new AbortController().signal;

/** Pumps `path` into a new file; the line's feeds are collected and their slots given back at once. */
async function download(http: HttpGet, path: string, file = join(dir, 'out.bin')) {
  const response = await http(`${base}${path}`, { headers: {}, signal: never() });
  const handle = await open(file, 'w');
  const { port1, port2 } = new MessageChannel();
  const fed: Array<{ at: number; bytes: Buffer }> = [];
  const advances: number[] = [];
  port2.on('message', (feed: LineFeed) => {
    for (const chunk of feed.chunks) {
      const memory = chunk.memory ?? known.get(chunk.slot);
      expect(memory, 'a slot arrives with its memory the first time').toBeDefined();
      known.set(chunk.slot, memory!);
      fed.push({ at: chunk.at, bytes: Buffer.from(Buffer.from(memory!, 0, chunk.length)) });
    }
    advances.push(feed.advance);
    port2.postMessage({ type: 'slots', slots: feed.chunks.map((c) => c.slot) } satisfies FollowReply);
  });
  const known = new Map<number, SharedArrayBuffer>();
  let bytes = 0;
  const written: number[] = [];
  const options: PumpOptions = {
    handle,
    position: 0,
    onBytes: (n) => (bytes += n),
    follower: { advance: (end) => written.push(end), feed: () => undefined, line: () => port1 },
  };
  try {
    const result = await response.pump(options);
    // The line's last feeds may still be on their way.
    await vi.waitFor(() => expect(advances.at(-1)).toBe(result.written), { timeout: 2000 });
    return { response, result, bytes, written, fed, advances, onDisk: await readFile(file) };
  } finally {
    port2.close();
    await handle.close();
  }
}

describe('createTransferThread', () => {
  it('receives and writes on the worker: the file, the progress and the fed slots all hold the served bytes', async () => {
    const slots = createSharedSlots();
    const http = createTransferThread({ slots });
    try {
      for (let round = 0; round < 2; round++) {
        const { response, result, bytes, written, fed, advances, onDisk } = await download(http, '/big');
        expect(response.status).toBe(200);
        expect(response.headers.etag).toBe('"v1"');
        expect(result).toEqual({ written: big.length, networkError: null });
        expect(onDisk.equals(big)).toBe(true);
        expect(bytes).toBe(big.length);
        expect(written.at(-1)).toBe(big.length);
        // Most of the body went over the line in slots (reused as they came back), each exactly the bytes at its
        // offset; the written end it announced only grew.
        expect(fed.reduce((n, f) => n + f.bytes.length, 0)).toBeGreaterThan(big.length / 2);
        for (const { at, bytes: chunk } of fed)
          expect(chunk.equals(big.subarray(at, at + chunk.length))).toBe(true);
        expect(advances.every((a, i) => i === 0 || a >= advances[i - 1]!)).toBe(true);
      }
      // This thread's pool gave its slots to the worker: nothing is read into them here any more.
      expect(slots.take()).toBeUndefined();
    } finally {
      await http.close();
    }
  });

  it('an answer that is not the body is dropped, and the worker goes on with the next request', async () => {
    const http = createTransferThread({ slots: createSharedSlots() });
    try {
      const missing = await http(`${base}/nothing`, { headers: {}, signal: never() });
      expect(missing.status).toBe(404);
      missing.discard();
      const { onDisk } = await download(http, '/big');
      expect(onDisk.equals(big)).toBe(true);
    } finally {
      await http.close();
    }
  });

  it('an abort mid-body ends the pump with a network error; the file holds exactly the bytes it reports', async () => {
    const http = createTransferThread({ slots: createSharedSlots() });
    const abort = new AbortController();
    const file = join(dir, 'aborted.bin');
    const handle = await open(file, 'w');
    try {
      const response = await http(`${base}/slow`, { headers: {}, signal: abort.signal });
      let bytes = 0;
      const pumped = response.pump({
        handle,
        position: 0,
        onBytes: (n) => {
          bytes += n;
          if (bytes >= 1_000_000) abort.abort();
        },
      });
      const result = await pumped;
      expect(result.networkError?.message).toMatch(/abort/);
      expect(result.written).toBeGreaterThan(0);
      expect(result.written).toBeLessThan(big.length);
      await handle.sync();
      const onDisk = await readFile(file);
      expect(onDisk.length).toBe(result.written);
      expect(onDisk.equals(big.subarray(0, result.written))).toBe(true);
    } finally {
      await handle.close();
      await http.close();
    }
  });

  it.runIf(existsSync('/dev/full'))('a write that fails (a full disk) rejects with its code', async () => {
    const http = createTransferThread({ slots: createSharedSlots() });
    const handle = await open('/dev/full', 'w');
    try {
      const response = await http(`${base}/big`, { headers: {}, signal: never() });
      await expect(response.pump({ handle, position: 0, onBytes: () => undefined })).rejects.toMatchObject({
        code: 'ENOSPC',
      });
      // The worker is still there for the next download.
      const { onDisk } = await download(http, '/big');
      expect(onDisk.equals(big)).toBe(true);
    } finally {
      await handle.close();
      await http.close();
    }
  });

  it('a worker that stops fails the pump in progress; later requests go through the fallback', async () => {
    const fallback = vi.fn<HttpGet>((url, init) =>
      import('./lean-http').then((m) => m.leanHttpGet(url, init)),
    );
    const http = createTransferThread({ slots: createSharedSlots(), fallback });
    const handle = await open(join(dir, 'stopped.bin'), 'w');
    try {
      const response = await http(`${base}/slow`, { headers: {}, signal: never() });
      const pumped = response.pump({ handle, position: 0, onBytes: () => undefined });
      await new Promise((r) => setTimeout(r, 50));
      await http.close();
      await expect(pumped).rejects.toThrow(/transfer worker/);
      expect(fallback).not.toHaveBeenCalled();
      const after = await http(`${base}/big`, { headers: {}, signal: never() });
      expect(after.status).toBe(200);
      after.discard();
      expect(fallback).toHaveBeenCalledTimes(1);
    } finally {
      await handle.close();
    }
  });

  it('without a worker entry every request goes through the fallback', async () => {
    const fallback = vi.fn<HttpGet>((url, init) =>
      import('./lean-http').then((m) => m.leanHttpGet(url, init)),
    );
    const http = createTransferThread({ slots: createSharedSlots(), entry: null, fallback });
    const response = await http(`${base}/big`, { headers: {}, signal: never() });
    expect(response.status).toBe(200);
    response.discard();
    expect(fallback).toHaveBeenCalledTimes(1);
    await http.close();
  });
});
