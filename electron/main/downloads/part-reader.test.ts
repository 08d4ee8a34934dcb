import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeFile, peaksFromFile } from '../audio/analyze';
import { encodeWav, toneSequence } from '../audio/test-signals';
import { createWorkerFollow, followInline } from './follower';
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

describe('follow', () => {
  it('a worker thread gives the same checksum, figures and peaks as reading on this thread', async () => {
    const path = join(dir, 'worker.wav');
    writeFileSync(path, wav);
    const inWorker = createWorkerFollow({ analyze: true })(path, 'wav');
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
    const follow = createWorkerFollow({ analyze: false, keep: 1 });
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

  it('without a worker entry it checksums on this thread (no analysis there)', async () => {
    const path = join(dir, 'inline.wav');
    writeFileSync(path, wav);
    const reader = createWorkerFollow({ analyze: true, entry: null })(path, 'wav');
    expect(await reader.finish(wav.length)).toEqual({ sha256: sha(wav), analysis: null, peaks: null });
    expect((await followInline(path, 'wav').finish(wav.length)).sha256).toBe(sha(readFileSync(path)));
  });
});
