import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileResponse, parseRange } from './file-response';

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
