import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { analyzeFile, peaksFromFile } from '../audio/file-analysis';
import { encodeWav, toneSequence } from '../audio/test-support/test-signals';
import type { FollowReply, LineFeed } from './follow-thread.worker';
import { createSharedSlots, createFollowThreads, followInline, type SharedSlots } from './follow-threads';
import { READ_BUFFER_BYTES } from './transport';
import { createPartReader } from './part-reader';

let dir: string;
let wav: Buffer;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'takedesk-part-reader-'));
  const left = toneSequence(48_000, [
    { dbfs: -30, seconds: 3 },
    { dbfs: -18, seconds: 3 },
  ]);
  const right = toneSequence(48_000, [{ dbfs: -24, seconds: 6 }], 0.3);
  wav = Buffer.from(encodeWav([left, right], { sampleRate: 48_000, bits: 24 }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const tick = () => new Promise((r) => setTimeout(r, 5));

describe('createPartReader', () => {
  it('reads a growing file behind the writer and ends with the checksum, loudness and peaks of the whole', async () => {
    const path = join(dir, 'growing.wav');
    writeFileSync(path, '');
    let read = 0;
    const reader = createPartReader({ path, format: 'wav', analyze: true, onProgress: (n) => (read = n) });
    const pieces = 5;
    const step = Math.ceil(wav.length / pieces);
    for (let at = 0; at < wav.length; at += step) {
      const end = Math.min(wav.length, at + step);
      appendFileSync(path, wav.subarray(at, end));
      reader.advance(end);
      // It keeps up: each piece is read before the next one is written (analysis as the file streams).
      for (let i = 0; i < 400 && read < end; i++) await tick();
      expect(read).toBe(end);
    }
    const result = await reader.finish(wav.length);
    expect(result.sha256).toBe(sha(wav));
    const reference = await analyzeFile(path);
    expect(result.analysis?.integratedLufs).toBeCloseTo(reference.integratedLufs!, 9);
    expect(result.analysis?.truePeakDbtp).toBeCloseTo(reference.truePeakDbtp!, 9);
    expect(result.analysis).toMatchObject({
      sampleRate: 48_000,
      channels: 2,
      bitDepth: 24,
      durationSeconds: 6,
    });
    expect(result.peaks).toEqual((await peaksFromFile(path)).peaks);
  });

  it('never reads past what was advanced', async () => {
    const path = join(dir, 'bounded.wav');
    writeFileSync(path, wav); // the whole file is there, but only 1000 bytes are final
    let read = 0;
    const reader = createPartReader({ path, format: 'wav', onProgress: (n) => (read = n) });
    reader.advance(1000);
    for (let i = 0; i < 100 && read < 1000; i++) await tick();
    await tick();
    expect(read).toBe(1000);
    reader.close();
  });

  it('keeps the checksum when the audio does not decode, and analyses nothing it was not asked to', async () => {
    const path = join(dir, 'not-audio.wav');
    const junk = Buffer.from('this is not a RIFF file at all, just text '.repeat(100));
    writeFileSync(path, junk);
    const reader = createPartReader({ path, format: 'wav', analyze: true });
    reader.advance(junk.length);
    expect(await reader.finish(junk.length)).toEqual({ sha256: sha(junk), analysis: null, peaks: null });
    const pdf = createPartReader({ path, format: 'pdf', analyze: true });
    expect((await pdf.finish(junk.length)).analysis).toBeNull();
  });

  it('fails clearly when the file is shorter than what was written, and close() rejects a pending finish', async () => {
    const path = join(dir, 'short.bin');
    writeFileSync(path, Buffer.alloc(100));
    const reader = createPartReader({ path, format: 'pdf' });
    await expect(reader.finish(500)).rejects.toThrow(/shorter than the 500 bytes/);

    const past = createPartReader({ path, format: 'pdf' });
    past.advance(100);
    for (let i = 0; i < 50; i++) await tick();
    await expect(past.finish(60)).rejects.toThrow(/Read 100 bytes of a file said to have 60/);

    writeFileSync(path, Buffer.alloc(100));
    const waiting = createPartReader({ path, format: 'pdf' });
    waiting.advance(50);
    const pending = waiting.finish(100);
    waiting.close();
    await expect(pending).rejects.toThrow(/closed/);
  });
});

describe('createPartReader fed from memory', () => {
  /** 1 MiB pieces of `bytes`, each in an ArrayBuffer of its own, as the transport's read buffers are. */
  const pieces = (bytes: Buffer) => {
    const out: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += 1 << 20) {
      const piece = Buffer.from(new ArrayBuffer(1 << 20));
      const n = bytes.copy(piece, 0, at, Math.min(bytes.length, at + (1 << 20)));
      out.push(piece.subarray(0, n));
    }
    return out;
  };

  it('takes fed bytes instead of reading them back, and gives every buffer back once read', async () => {
    const bytes = Buffer.concat([wav, wav, wav]);
    // The file on disk holds zeros: a checksum of the real bytes proves nothing was read back.
    const path = join(dir, 'fed.wav');
    writeFileSync(path, Buffer.alloc(bytes.length));
    const given: ArrayBufferLike[] = [];
    const reader = createPartReader({ path, format: 'wav', analyze: true, onDone: (b) => given.push(b) });
    const chunks = pieces(bytes);
    // Batches land out of order, as parallel writes do; each is advanced only once all before it landed.
    const order = chunks.map((_, i) => i).reverse();
    for (const i of order) reader.feed([chunks[i]!], i << 20);
    reader.advance(bytes.length);
    const result = await reader.finish(bytes.length);
    expect(result.sha256).toBe(sha(bytes));
    expect(result.analysis?.durationSeconds).toBeGreaterThan(0); // the decoder saw a WAV, not zeros
    expect(new Set(given)).toEqual(new Set(chunks.map((c) => c.buffer)));
  });

  it('reads from disk what was not fed or did not fit, and never keeps more than 32 MiB ahead', async () => {
    const bytes = Buffer.alloc(40 << 20);
    for (let i = 0; i < bytes.length; i += 4096) bytes[i] = i & 0xff;
    const path = join(dir, 'partly-fed.bin');
    writeFileSync(path, bytes);
    const given: ArrayBufferLike[] = [];
    const reader = createPartReader({ path, format: 'pdf', onDone: (b) => given.push(b) });
    const chunks = pieces(bytes);
    // All but the first MiB arrive before anything is advanced: 32 are kept, the other 7 go back at once.
    chunks.slice(1).forEach((c, i) => reader.feed([c], (i + 1) << 20));
    expect(given).toHaveLength(7);
    reader.advance(bytes.length);
    expect((await reader.finish(bytes.length)).sha256).toBe(sha(bytes));
    expect(given).toHaveLength(39);
  });
});

describe('follow', () => {
  it('a worker thread gives the same checksum, figures and peaks as reading on this thread', async () => {
    const path = join(dir, 'worker.wav');
    writeFileSync(path, wav);
    const inWorker = createFollowThreads({ analyze: true })(path, 'wav');
    inWorker.advance(wav.length / 2);
    const viaWorker = await inWorker.finish(wav.length);
    inWorker.close();
    const here = createPartReader({ path, format: 'wav', analyze: true });
    const local = await here.finish(wav.length);
    expect(viaWorker.sha256).toBe(local.sha256);
    expect(viaWorker.analysis?.integratedLufs).toBeCloseTo(local.analysis!.integratedLufs!, 9);
    expect(viaWorker.peaks).toEqual(local.peaks);
  });

  it('reuses one worker for download after download without piling up listeners', async () => {
    const path = join(dir, 'reused.bin');
    const bytes = Buffer.alloc(300_000, 7);
    writeFileSync(path, bytes);
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    const follow = createFollowThreads({ analyze: false, keep: 1 });
    try {
      for (let i = 0; i < 15; i++) {
        const reader = follow(path, 'pdf');
        reader.advance(bytes.length);
        expect((await reader.finish(bytes.length)).sha256).toBe(sha(bytes));
        reader.close();
      }
      // A reader closed before it finishes frees the worker for the next one.
      const abandoned = follow(path, 'pdf');
      abandoned.close();
      expect((await follow(path, 'pdf').finish(bytes.length)).sha256).toBe(sha(bytes));
    } finally {
      process.off('warning', onWarning);
      await follow.close();
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('shares read slots with the worker: it hashes the fed bytes, not the file, and gives every slot back', async () => {
    const S = READ_BUFFER_BYTES;
    const bytes = Buffer.alloc(4 * S);
    for (let i = 0; i < bytes.length; i += 512) bytes[i] = (i >> 9) & 0xff;
    // On disk only the first slot's worth is right (it is not in a slot, so the worker reads it back); the rest is
    // zeros, so a checksum of the real bytes proves the worker used the slots.
    const path = join(dir, 'slots.bin');
    writeFileSync(path, Buffer.concat([bytes.subarray(0, S), Buffer.alloc(3 * S)]));
    const follow = createFollowThreads({ analyze: false, keep: 1 });
    const slots = follow.readBuffers as SharedSlots;
    try {
      // Twice through the same worker: the second time the slots go by number only.
      for (let round = 0; round < 2; round++) {
        const reader = follow(path, 'pdf');
        const released: number[] = [];
        const first = Buffer.from(bytes.subarray(0, S)); // memory of its own, not a slot
        reader.feed([first], 0, () => {
          throw new Error('a chunk outside the slots is never taken from the transport');
        });
        const chunks = [1, 2, 3].map((i) => {
          const chunk = slots.take()!;
          bytes.copy(chunk, 0, i * S, (i + 1) * S);
          return chunk;
        });
        reader.feed(chunks, S, (c) => (released.push(slots.slotOf(c.buffer)!), c.buffer));
        expect(released).toHaveLength(3);
        expect(slots.stats().free).toBe(0);
        reader.advance(bytes.length);
        expect((await reader.finish(bytes.length)).sha256).toBe(sha(bytes));
        reader.close();
        await vi.waitFor(() => expect(slots.stats()).toEqual({ created: 3, free: 3 }), { timeout: 2000 });
      }
      // A worker that dies holding slots frees them: nothing reads them any more.
      const reader = follow(path, 'pdf');
      const chunk = slots.take()!;
      reader.feed([chunk], S, (c) => c.buffer);
      expect(slots.stats().free).toBe(2);
      await follow.close();
      await vi.waitFor(() => expect(slots.stats().free).toBe(3), { timeout: 2000 });
    } finally {
      await follow.close();
    }
  });

  it("takes a transfer thread's feeds over its line: the slots' bytes (not the file's), slots back over the line", async () => {
    const bytes = Buffer.alloc(3 << 20);
    for (let i = 0; i < bytes.length; i += 256) bytes[i] = (i >> 8) & 0xff;
    const path = join(dir, 'line.bin');
    writeFileSync(path, Buffer.alloc(bytes.length)); // zeros: only the fed bytes give the right checksum
    const follow = createFollowThreads({ analyze: false });
    try {
      const reader = follow(path, 'pdf');
      const line = reader.line!()!;
      const memory = [0, 1, 2].map((i) => {
        const shared = new SharedArrayBuffer(1 << 20);
        bytes.copy(Buffer.from(shared), 0, i << 20, (i + 1) << 20);
        return shared;
      });
      const back: number[] = [];
      line.on('message', (reply: FollowReply) => {
        if ('type' in reply && reply.type === 'slots') back.push(...reply.slots);
      });
      const closed = new Promise<void>((resolve) => line.once('close', () => resolve()));
      // Slot numbers 5, 6, 7 of the sender's pool; the memory comes along once.
      line.postMessage({
        chunks: memory.map((m, i) => ({ slot: 5 + i, at: i << 20, length: 1 << 20, memory: m })),
        advance: bytes.length,
      } satisfies LineFeed);
      // Hashed and given back, all but the last, which the reader keeps until its next chunk or its end (finish()
      // comes through the parent and may overtake the line: then the bytes are read from the file, which the
      // transfer thread has written by then).
      await vi.waitFor(() => expect(back.sort()).toEqual([5, 6]), { timeout: 2000 });
      expect((await reader.finish(bytes.length)).sha256).toBe(sha(bytes));
      reader.close();
      await closed; // the session's end closes the line: the sender frees whatever is still on it
    } finally {
      await follow.close();
    }
  });

  it('shared slots: a fixed number, each given back once, foreign memory refused', () => {
    const slots = createSharedSlots(2);
    const a = slots.take()!;
    const b = slots.take()!;
    expect(a.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(a.length).toBe(READ_BUFFER_BYTES);
    expect(slots.take()).toBeUndefined(); // all in use: the transport reads into memory of its own
    expect(slots.slotOf(b.buffer)).toBe(1);
    expect(slots.slotOf(new ArrayBuffer(1 << 20))).toBeUndefined();
    expect(slots.give(new ArrayBuffer(1 << 20))).toBe(false);
    expect(slots.give(a.buffer)).toBe(true);
    expect(slots.give(a.buffer)).toBe(true); // twice is once
    expect(slots.stats()).toEqual({ created: 2, free: 1 });
    expect(slots.take()!.buffer).toBe(a.buffer);
    expect(slots.take()).toBeUndefined();
  });

  it("the inline reader reads back instead of keeping the transport's chunks", async () => {
    const path = join(dir, 'inline-fed.bin');
    const bytes = Buffer.alloc(3 << 20, 5);
    writeFileSync(path, bytes);
    const reader = followInline(path, 'pdf');
    const chunk = Buffer.alloc(1 << 20, 9); // not what is on disk
    reader.feed([chunk], 0, () => null);
    reader.advance(bytes.length);
    expect((await reader.finish(bytes.length)).sha256).toBe(sha(bytes));
  });

  it('without a worker entry it checksums on this thread (no analysis there)', async () => {
    const path = join(dir, 'inline.wav');
    writeFileSync(path, wav);
    const reader = createFollowThreads({ analyze: true, entry: null })(path, 'wav');
    expect(await reader.finish(wav.length)).toEqual({ sha256: sha(wav), analysis: null, peaks: null });
    expect((await followInline(path, 'wav').finish(wav.length)).sha256).toBe(sha(readFileSync(path)));
  });
});
