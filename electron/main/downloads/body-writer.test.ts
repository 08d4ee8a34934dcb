import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DirectBody } from './body-writer';
import { pumpBody, writeChunks, type WriteChunks } from './body-writer';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'takedesk-transfer-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A body that delivers the given chunks one per tick, honouring pause/resume. */
function scripted(chunks: Buffer[]): DirectBody {
  let paused = false;
  let next = 0;
  let onChunk: (c: Buffer) => void = () => undefined;
  let onEnd: (e?: Error) => void = () => undefined;
  const step = () => {
    if (paused) return;
    if (next >= chunks.length) {
      onEnd();
      return;
    }
    onChunk(chunks[next++]!);
    setImmediate(step);
  };
  return {
    start(c, e) {
      onChunk = c;
      onEnd = e;
      setImmediate(step);
    },
    pause: () => (paused = true),
    resume: () => {
      if (!paused) return;
      paused = false;
      setImmediate(step);
    },
    destroy: () => {
      paused = true;
      onEnd(new Error('destroyed'));
    },
  };
}

describe('pumpBody', () => {
  it('reports only a hole-free prefix as written while writes finish out of order', async () => {
    const chunks = Array.from({ length: 6 }, (_, i) => Buffer.alloc(1000, i + 1));
    // The first write is the slowest: later ones land first, yet nothing past the first may be reported.
    const delays = [60, 5, 5, 30, 5, 5];
    let call = 0;
    const slowFirst: WriteChunks = async (handle, batch, position) => {
      const delay = delays[call++] ?? 0;
      await new Promise((r) => setTimeout(r, delay));
      await writeChunks(handle, batch, position);
    };
    const path = join(dir, 'out-of-order.bin');
    const handle = await open(path, 'w+');
    const reported: number[] = [];
    try {
      const result = await pumpBody({
        body: scripted(chunks),
        handle,
        position: 0,
        write: slowFirst,
        batchBytes: 1000,
        onBytes: () => undefined,
        onWritten: (end) => reported.push(end),
      });
      expect(result).toEqual({ written: 6000, networkError: null });
    } finally {
      await handle.close();
    }
    expect(reported.every((end, i) => i === 0 || end >= reported[i - 1]!)).toBe(true);
    expect(reported.at(-1)).toBe(6000);
    // While the first write (0..1000) was pending, no end above 0 was reported.
    expect(reported[0]).toBe(0);
    expect(await readFile(path)).toEqual(Buffer.concat(chunks));
  });

  it('after a failed write: cuts the file back to what certainly landed, and gives every chunk back', async () => {
    const chunks = Array.from({ length: 8 }, (_, i) => Buffer.alloc(1000, i + 1));
    let call = 0;
    const failThird: WriteChunks = async (handle, batch, position) => {
      if (++call === 3) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      await writeChunks(handle, batch, position);
    };
    const path = join(dir, 'failed-write.bin');
    const handle = await open(path, 'w+');
    const recycled = new Set<Buffer>();
    let delivered = 0;
    try {
      await expect(
        pumpBody({
          body: scripted(chunks),
          handle,
          position: 0,
          write: failThird,
          batchBytes: 1000,
          maxWrites: 1,
          onBytes: () => delivered++,
          recycle: (chunk) => recycled.add(chunk),
        }),
      ).rejects.toThrow(/ENOSPC/);
    } finally {
      await handle.close();
    }
    expect(await readFile(path)).toEqual(Buffer.concat(chunks.slice(0, 2)));
    // Written, failed or never written: each chunk received went back to the transport (its read buffers).
    expect(delivered).toBeGreaterThanOrEqual(3);
    expect(recycled).toEqual(new Set(chunks.slice(0, delivered)));
  });
});
