import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileAnswer, fileResponse, parseRange, sendAnswer } from './file-response';

describe('parseRange', () => {
  it.each([
    [null, 100, null],
    ['bytes=0-9', 100, [0, 9]],
    ['bytes=90-', 100, [90, 99]],
    ['bytes=-10', 100, [90, 99]],
    ['bytes=-1000', 100, [0, 99]],
    ['bytes=50-1000', 100, [50, 99]],
    ['bytes=100-', 100, 'unsatisfiable'],
    ['bytes=-0', 100, 'unsatisfiable'],
    ['bytes=9-3', 100, null],
    ['bytes=0-1,5-6', 100, null],
    ['items=0-1', 100, null],
    ['bytes=-', 100, null],
  ] as const)('%s of %i bytes -> %j', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});

describe('fileResponse', () => {
  let dir: string;
  let file: string;
  const body = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'takedesk-fr-'));
    file = join(dir, 'a.wav');
    await writeFile(file, body);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const get = (headers: Record<string, string> = {}, method = 'GET') =>
    fileResponse(new Request('http://x/a.wav', { headers, method }), file, {
      contentType: 'audio/wav',
      etag: '"e1"',
    });

  it('serves the whole file with length, type and validator', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('1000');
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(res.headers.get('etag')).toBe('"e1"');
    expect(Buffer.from(await res.arrayBuffer()).equals(body)).toBe(true);
  });

  it('serves a byte range as 206 with Content-Range', async () => {
    const res = await get({ range: 'bytes=100-199' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 100-199/1000');
    expect(Buffer.from(await res.arrayBuffer()).equals(body.subarray(100, 200))).toBe(true);
  });

  it('answers 416 past the end', async () => {
    const res = await get({ range: 'bytes=5000-' });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe('bytes */1000');
  });

  it('ignores the range when If-Range does not match (the file changed)', async () => {
    const res = await get({ range: 'bytes=0-9', 'if-range': '"other"' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('1000');
  });

  it('answers 304 to a matching If-None-Match and HEAD without a body', async () => {
    expect((await get({ 'if-none-match': '"e1"' })).status).toBe(304);
    const head = await get({}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('1000');
    expect(head.body).toBeNull();
  });

  it('answers 404 for a missing file or a folder', async () => {
    const missing = await fileResponse(new Request('http://x/'), join(dir, 'nope'), { contentType: 'x/y' });
    expect(missing.status).toBe(404);
    const folder = await fileResponse(new Request('http://x/'), dir, { contentType: 'x/y' });
    expect(folder.status).toBe(404);
  });
});

describe('sendAnswer (straight to a node:http response)', () => {
  let dir: string;
  let file: string;
  let server: Server;
  let base = '';
  // Larger than two pump buffers, and not a multiple of them.
  const body = Buffer.from(
    Array.from({ length: 5 * 1024 * 1024 + 12_345 }, (_, i) => (i * 7 + (i >> 12)) % 251),
  );
  const closed: Array<Promise<void>> = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'takedesk-fr-node-'));
    file = join(dir, 'big.wav');
    await writeFile(file, body);
    server = createServer((req, res) => {
      closed.push(new Promise((resolve) => res.once('close', () => resolve())));
      const request = new Request(`http://x${req.url}`, {
        method: req.method ?? 'GET',
        headers: req.headers as Record<string, string>,
      });
      const path = req.url === '/missing' ? join(dir, 'nope') : file;
      void fileAnswer(request, path, { contentType: 'audio/wav', etag: '"e1"' }).then((a) =>
        sendAnswer(a, res),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('sends the whole file and a range byte-exact, with the same headers as the web Response', async () => {
    const whole = await fetch(`${base}/big.wav`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-length')).toBe(String(body.length));
    expect(whole.headers.get('etag')).toBe('"e1"');
    expect(Buffer.from(await whole.arrayBuffer()).equals(body)).toBe(true);
    const part = await fetch(`${base}/big.wav`, { headers: { range: 'bytes=1048570-3145740' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1048570-3145740/${body.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(body.subarray(1048570, 3145741))).toBe(true);
  });

  it('answers HEAD, 416 and 404 without a file body', async () => {
    const head = await fetch(`${base}/big.wav`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length')]).toEqual([200, String(body.length)]);
    const past = await fetch(`${base}/big.wav`, { headers: { range: `bytes=${body.length}-` } });
    expect(past.status).toBe(416);
    const missing = await fetch(`${base}/missing`);
    expect([missing.status, await missing.text()]).toEqual([404, 'Not found']);
  });

  it('lets a client go mid-file: the server stays up and serves the next request', async () => {
    const controller = new AbortController();
    const res = await fetch(`${base}/big.wav`, { signal: controller.signal });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await Promise.all(closed); // every response so far has closed
    const again = await fetch(`${base}/big.wav`, { headers: { range: 'bytes=0-9' } });
    expect(Buffer.from(await again.arrayBuffer()).equals(body.subarray(0, 10))).toBe(true);
  });
});
