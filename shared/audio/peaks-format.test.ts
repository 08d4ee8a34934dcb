import { describe, expect, it } from 'vitest';
import {
  decodePeaks,
  encodePeaks,
  PeaksFormatError,
  toWavesurferPeaks,
  type PeaksData,
} from './peaks-format';

const sample: PeaksData = {
  sampleRate: 48000,
  channels: 2,
  durationSeconds: 1.5,
  frames: 72000,
  levels: [
    { samplesPerPixel: 256, minMax: Float32Array.from([-0.5, 0.25, -1, 1, -0.001, 0.001, 0, 0]) },
    { samplesPerPixel: 1024, minMax: Float32Array.from([-1, 1]) },
  ],
};

describe('peaks format', () => {
  it.each([16, 8] as const)(
    'round-trips header and %i-bit values, rounding the envelope outwards',
    (bits) => {
      const bytes = encodePeaks(sample, bits);
      expect(bytes.length).toBe(32 + 2 * 8 + (10 * bits) / 8);
      const back = decodePeaks(bytes);
      expect(back).toMatchObject({ sampleRate: 48000, channels: 2, durationSeconds: 1.5, frames: 72000 });
      expect(back.levels.map((l) => l.samplesPerPixel)).toEqual([256, 1024]);
      const q = bits === 16 ? 1 / 32767 : 1 / 127;
      back.levels.forEach((level, l) => {
        const orig = sample.levels[l]!.minMax;
        level.minMax.forEach((v, i) => {
          expect(Math.abs(v - orig[i]!)).toBeLessThanOrEqual(q);
          // min never rises, max never falls: quantisation cannot hide a peak.
          if (i % 2 === 0) expect(v).toBeLessThanOrEqual(orig[i]!);
          else expect(v).toBeGreaterThanOrEqual(orig[i]!);
        });
      });
    },
  );

  it('decodes from an ArrayBuffer and from a view at an offset', () => {
    const bytes = encodePeaks(sample);
    const padded = new Uint8Array(bytes.length + 5);
    padded.set(bytes, 5);
    expect(decodePeaks(padded.subarray(5)).frames).toBe(72000);
    expect(decodePeaks(bytes.slice().buffer).frames).toBe(72000);
  });

  it.each([
    ['bad magic', (b: Uint8Array) => b.fill(0x41, 0, 4), /bad magic/],
    ['future version', (b: Uint8Array) => b.set([9, 0], 4), /version 9/],
    ['truncated data', (b: Uint8Array) => b.subarray(0, b.length - 1), /truncated/],
    ['truncated header', (b: Uint8Array) => b.subarray(0, 10), /truncated/],
  ] as const)('rejects %s', (_name, corrupt, message) => {
    const bytes = encodePeaks(sample);
    const bad = corrupt(bytes) ?? bytes;
    expect(() => decodePeaks(bad)).toThrow(PeaksFormatError);
    expect(() => decodePeaks(bad)).toThrow(message);
  });

  it('shapes a level for wavesurfer: [max, min] channels and the duration', () => {
    const ws = toWavesurferPeaks(decodePeaks(encodePeaks(sample)), 2);
    expect(ws.duration).toBe(1.5);
    expect(ws.peaks).toHaveLength(2);
    expect(Array.from(ws.peaks[0]!)).toEqual([1]); // finest level with <= 2 buckets is the 1024 one
    expect(Array.from(ws.peaks[1]!)).toEqual([-1]);
    expect(toWavesurferPeaks(sample).peaks[0]).toHaveLength(4);
  });
});
