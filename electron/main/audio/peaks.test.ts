import { lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { concatPeaks, createPeaksBuilder, decodePeaks, writePeaksFile } from './peaks';
import { pushInBlocks } from './test-support/test-signals';

describe('createPeaksBuilder', () => {
  it('computes min/max of the channel mix per bucket and folds coarser levels exactly', () => {
    const n = 10000;
    const l = new Float32Array(n);
    const r = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      l[i] = Math.sin(i / 50) * 0.8;
      r[i] = Math.cos(i / 37) * 0.4;
    }
    l[5000] = 1;
    r[5000] = 1; // a full-scale click in both channels
    const builder = createPeaksBuilder({ sampleRate: 8000, channels: 2, levels: [100, 400, 1600] });
    pushInBlocks([l, r], (p, m) => builder.push(p, m), 333);
    const peaks = builder.result();
    expect(peaks).toMatchObject({ frames: n, durationSeconds: 1.25 });
    const [fine, mid, coarse] = peaks.levels;
    expect(fine!.minMax.length).toBe(2 * 100);
    expect(mid!.minMax.length).toBe(2 * 25);
    expect(coarse!.minMax.length).toBe(2 * 7); // partial last bucket kept
    // Brute-force reference for the finest level.
    for (let b = 0; b < 100; b++) {
      let lo = Infinity;
      let hi = -Infinity;
      for (let i = b * 100; i < (b + 1) * 100; i++) {
        const m = Math.fround((l[i]! + r[i]!) * 0.5);
        lo = Math.min(lo, m);
        hi = Math.max(hi, m);
      }
      expect(fine!.minMax[2 * b]).toBe(lo);
      expect(fine!.minMax[2 * b + 1]).toBe(hi);
    }
    expect(coarse!.minMax[2 * 3 + 1]).toBe(1); // bucket 3 of 1600 holds sample 5000
  });

  it('hands out its whole finest buckets while streaming, from any bucket on, never past what is built', () => {
    const x = new Float32Array(1050).map((_, i) => Math.sin(i / 7) * (i / 1050));
    const builder = createPeaksBuilder({ sampleRate: 8000, channels: 1, levels: [100, 400] });
    builder.push([x.subarray(0, 250)]);
    const first = builder.since(0);
    expect(first).toMatchObject({ from: 0, samplesPerBucket: 100, frames: 250 });
    expect(first.minMax.length).toBe(2 * 2); // the half-filled third bucket waits
    builder.push([x.subarray(250)]);
    const next = builder.since(2);
    expect(next.from).toBe(2);
    expect(next.minMax.length).toBe(2 * 8);
    const whole = builder.result().levels[0]!.minMax;
    expect([...first.minMax, ...next.minMax]).toEqual([...whole.subarray(0, 20)]);
    // Asked beyond what exists (another reader's count), it says where it stands.
    expect(builder.since(50)).toMatchObject({ from: 10, minMax: new Float32Array(0) });
  });

  it('handles mono and 6 channels, and rejects levels that do not nest', () => {
    const mono = createPeaksBuilder({ sampleRate: 48000, channels: 1, levels: [4] });
    mono.push([Float32Array.from([0.1, -0.2, 0.3, 0, 0.5])]);
    expect(Array.from(mono.result().levels[0]!.minMax)).toEqual([
      Math.fround(-0.2),
      Math.fround(0.3),
      Math.fround(0.5),
      Math.fround(0.5),
    ]);
    const six = createPeaksBuilder({ sampleRate: 48000, channels: 6, levels: [2] });
    six.push(Array.from({ length: 6 }, () => Float32Array.from([0.6, -0.6])));
    expect(six.result().levels[0]!.minMax[1]).toBeCloseTo(0.6, 6);
    expect(() => createPeaksBuilder({ sampleRate: 1, channels: 1, levels: [256, 1000] })).toThrow(RangeError);
  });

  it('replaces a link planted at <file>.peaks instead of writing through it (issue 13, item 5)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'takedesk-peaks-'));
    try {
      writeFileSync(join(dir, 'outside.txt'), 'keep me');
      symlinkSync(join(dir, 'outside.txt'), join(dir, 'take.wav.peaks'));
      const builder = createPeaksBuilder({ sampleRate: 48000, channels: 1 });
      builder.push([new Float32Array(4800)]);
      const path = await writePeaksFile(join(dir, 'take.wav'), builder.result());
      expect(readFileSync(join(dir, 'outside.txt'), 'utf8')).toBe('keep me');
      expect(lstatSync(path).isSymbolicLink()).toBe(false);
      expect(decodePeaks(readFileSync(path)).sampleRate).toBe(48000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes <file>.peaks that decodes to the same envelope', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'takedesk-peaks-'));
    try {
      const builder = createPeaksBuilder({ sampleRate: 48000, channels: 1 });
      builder.push([Float32Array.from({ length: 5000 }, (_, i) => Math.sin(i / 10) * 0.5)]);
      const data = builder.result();
      const path = await writePeaksFile(join(dir, 'take.wav'), data);
      expect(path).toBe(join(dir, 'take.wav.peaks'));
      const back = decodePeaks(readFileSync(path));
      expect(back.levels.map((x) => x.minMax.length)).toEqual(data.levels.map((x) => x.minMax.length));
      expect(back.levels[0]!.minMax[1]).toBeCloseTo(data.levels[0]!.minMax[1]!, 4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('concatPeaks', () => {
  const signal = (n: number) => Float32Array.from({ length: n }, (_, i) => Math.sin(i / 7) * (i / n));
  const peaksOf = (x: Float32Array) => {
    const b = createPeaksBuilder({ sampleRate: 8000, channels: 1, levels: [10, 40] });
    b.push([x]);
    return b.result();
  };

  it('joins parts cut on whole coarsest buckets into exactly the peaks of the whole', () => {
    const x = signal(1000 + 7);
    const joined = concatPeaks([
      peaksOf(x.subarray(0, 400)),
      peaksOf(x.subarray(400, 800)),
      peaksOf(x.subarray(800)),
    ]);
    const whole = peaksOf(x);
    expect(joined.frames).toBe(whole.frames);
    expect(joined.durationSeconds).toBe(whole.durationSeconds);
    expect(joined.levels.map((l) => [l.samplesPerPixel, [...l.minMax]])).toEqual(
      whole.levels.map((l) => [l.samplesPerPixel, [...l.minMax]]),
    );
  });

  it('refuses parts that would put a bucket across a seam, or that do not match', () => {
    const x = signal(1000);
    expect(() => concatPeaks([peaksOf(x.subarray(0, 410)), peaksOf(x.subarray(410))])).toThrow(
      /inside a bucket/,
    );
    const other = createPeaksBuilder({ sampleRate: 8000, channels: 1, levels: [10, 80] });
    other.push([x.subarray(400)]);
    expect(() => concatPeaks([peaksOf(x.subarray(0, 400)), other.result()])).toThrow(/different levels/);
    expect(() => concatPeaks([])).toThrow(RangeError);
  });
});
