import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnalyzer, resolveWorkerEntry } from './analyzer';
import { AudioDecodeError } from './errors';
import { peaksFromFile } from './file-analysis';
import { decodePeaks } from './peaks';
import { expectPeaksClose } from './test-support/expect-peaks';
import { encodeMp3, encodeWav, stereoTones, toneSequence } from './test-support/test-signals';

let dir: string;
let wav: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'takedesk-analyzer-'));
  wav = join(dir, 'tone.wav');
  writeFileSync(
    wav,
    encodeWav(stereoTones(48000, [{ dbfs: -23, seconds: 4 }]), { sampleRate: 48000, bits: 16 }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('createAnalyzer', () => {
  it('resolves the TypeScript entry from source and the bundled entry beside a built file', () => {
    expect(resolveWorkerEntry()?.pathname).toMatch(/electron\/main\/audio\/worker\.ts$/);
    const out = join(dir, 'out', 'main');
    const chunks = join(out, 'chunks');
    // Built layout: out/main/index.js (or out/main/chunks/x.js) next to out/main/audio-worker.js.
    mkdirSync(chunks, { recursive: true });
    writeFileSync(join(out, 'audio-worker.js'), '');
    expect(resolveWorkerEntry(pathToFileURL(join(out, 'index.js')).href)?.pathname).toBe(
      join(out, 'audio-worker.js'),
    );
    expect(resolveWorkerEntry(pathToFileURL(join(chunks, 'analyzer-x.js')).href)?.pathname).toBe(
      join(out, 'audio-worker.js'),
    );
    expect(resolveWorkerEntry(pathToFileURL(join(dir, 'elsewhere.js')).href)).toBeNull();
  });

  it('runs analyses in a worker thread from source, two at a time', async () => {
    const analyzer = createAnalyzer({
      poolSize: 2,
      onFallback: (e) => expect.fail(`fell back: ${e.message}`),
    });
    try {
      const [a, b] = await Promise.all([
        analyzer.analyze(wav, { target: 'ebu-r128' }),
        analyzer.analyze(wav, { writePeaks: true }),
      ]);
      expect(analyzer.mode).toBe('worker');
      expect(Math.abs(a.integratedLufs! + 23)).toBeLessThanOrEqual(0.1);
      expect(a.verdict?.pass).toBe(true);
      expect(b.peaksPath).toBe(`${wav}.peaks`);
    } finally {
      await analyzer.close();
    }
  });

  it('carries decode errors across the thread boundary with their code', async () => {
    const bad = join(dir, 'bad.wav');
    writeFileSync(bad, 'definitely not a wav file');
    const analyzer = createAnalyzer();
    try {
      const err = await analyzer.analyze(bad).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AudioDecodeError);
      expect(err).toMatchObject({ code: 'not-wav', message: expect.stringMatching(/RIFF\/WAVE/) });
      // The worker survives a failed job.
      expect((await analyzer.analyze(wav)).channels).toBe(2);
    } finally {
      await analyzer.close();
    }
  });

  it('falls back to the same thread when the worker entry cannot start', async () => {
    const errors: Error[] = [];
    const analyzer = createAnalyzer({
      workerEntry: pathToFileURL(join(dir, 'missing-worker.js')),
      onFallback: (e) => errors.push(e),
    });
    try {
      const a = await analyzer.analyze(wav);
      expect(analyzer.mode).toBe('inline');
      expect(errors).toHaveLength(1);
      expect(a.sampleRate).toBe(48000);
    } finally {
      await analyzer.close();
    }
  });

  it('inline mode and a closed analyzer behave', async () => {
    const analyzer = createAnalyzer({ inline: true });
    expect(analyzer.mode).toBe('inline');
    expect((await analyzer.analyze(wav)).durationSeconds).toBe(4);
    await analyzer.close();
    await expect(analyzer.analyze(wav)).rejects.toThrow(/closed/);
  });
});

describe('Analyzer.peaks', () => {
  it('decodes a long MP3 in parts on two workers and joins them into the peaks of one pass', async () => {
    // 30 s at 320 kb/s: over the 1 MiB below which an MP3 is decoded in one part.
    const x = toneSequence(44100, [
      { dbfs: -6, seconds: 10, frequency: 220 },
      { dbfs: -40, seconds: 10 },
      { dbfs: -12, seconds: 10, frequency: 5000 },
    ]);
    const mp3 = join(dir, 'long.mp3');
    writeFileSync(mp3, encodeMp3([x, x], 44100, 320));
    expect(statSync(mp3).size).toBeGreaterThan(1 << 20);
    const single = (await peaksFromFile(mp3)).peaks;
    const analyzer = createAnalyzer({
      poolSize: 2,
      onFallback: (e) => expect.fail(`fell back: ${e.message}`),
    });
    try {
      const split = await analyzer.peaks(mp3, { write: true });
      expect(analyzer.mode).toBe('worker');
      expect(split.peaks.frames).toBe(single.frames);
      expectPeaksClose(split.peaks.levels, single.levels); // float rounding at the seam only (see mp3.test.ts)
      expect(split.peaksPath).toBe(`${mp3}.peaks`);
      expect(decodePeaks(readFileSync(`${mp3}.peaks`)).frames).toBe(single.frames);
      // A WAV is one part; a missing file fails clearly.
      expect((await analyzer.peaks(wav)).peaks.frames).toBe(4 * 48000);
      await expect(analyzer.peaks(join(dir, 'nope.mp3'))).rejects.toThrow(/ENOENT|no such file/);
    } finally {
      await analyzer.close();
    }
  });
});
