import { writeFileReplacing } from '../library';
import { encodePeaks, type PeaksData, type PeaksLevel } from '../../../shared/audio/peaks-format';

export { encodePeaks, decodePeaks, toWavesurferPeaks } from '../../../shared/audio/peaks-format';
export type { PeaksData, PeaksLevel } from '../../../shared/audio/peaks-format';

/** Default zoom levels, in samples per bucket: each is a multiple of the finest. */
export const DEFAULT_PEAK_LEVELS: readonly number[] = [256, 1024, 4096];

/** Options of createPeaksBuilder. */
export interface PeaksBuilderOptions {
  sampleRate: number;
  channels: number;
  /** Samples per bucket, ascending; every level must be a multiple of the first. */
  levels?: readonly number[];
}

/**
 * Least and greatest value of the channel mix over frames `from` to `to` (exclusive, from < to) of the block being
 * pushed, into out[0] and out[1]: a decoder that can find them faster than a scan here (mp3.ts's BlockMinMax).
 */
export type RangeMinMax = (from: number, to: number, out: { 0: number; 1: number }) => void;

/** Incremental min/max envelope of the channel mix. */
export interface PeaksBuilder {
  /** Adds a block; with `minMax` the builder asks it for each bucket's part of the block instead of scanning. */
  push(planar: readonly Float32Array[], frames?: number, minMax?: RangeMinMax): void;
  result(): PeaksData;
  /** The finest level's whole buckets from bucket `from` (at most the count built) on, a copy, while streaming. */
  since(from: number): { from: number; samplesPerBucket: number; frames: number; minMax: Float32Array };
}

/** Creates a peaks builder; coarser levels are folded from the finest one at the end (min/max is associative). */
export function createPeaksBuilder(options: PeaksBuilderOptions): PeaksBuilder {
  const { sampleRate, channels } = options;
  const levels = [...(options.levels ?? DEFAULT_PEAK_LEVELS)];
  const finest = levels[0];
  if (
    finest === undefined ||
    !(finest >= 1) ||
    levels.some((l, i) => l % finest !== 0 || (i > 0 && l <= (levels[i - 1] ?? 0)))
  )
    throw new RangeError('Peak levels must be ascending multiples of the finest level.');
  let minMax = new Float32Array(4096);
  let buckets = 0;
  let inBucket = 0;
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  let frames = 0;
  let mix = new Float32Array(0);
  const scale = 1 / channels;

  function closeBucket(): void {
    if (minMax.length < 2 * buckets + 2) {
      const next = new Float32Array(minMax.length * 2);
      next.set(minMax);
      minMax = next;
    }
    minMax[2 * buckets] = lo;
    minMax[2 * buckets + 1] = hi;
    buckets++;
    inBucket = 0;
    lo = Number.POSITIVE_INFINITY;
    hi = Number.NEGATIVE_INFINITY;
  }

  const range: [number, number] = [0, 0];

  function push(planar: readonly Float32Array[], frameCount?: number, minMax?: RangeMinMax): void {
    const n = frameCount ?? planar[0]?.length ?? 0;
    if (planar.length !== channels)
      throw new RangeError(`Expected ${channels} channels, got ${planar.length}.`);
    // Stereo (the common case) is mixed inside the min/max scan: no intermediate array, one pass over memory.
    // Math.min/max rather than comparisons: audio is branch-unfriendly, and V8 compiles these without branches.
    const a = planar[0] as Float32Array;
    const b = channels === 2 ? (planar[1] as Float32Array) : null;
    let x: Float32Array = a;
    if (channels > 2) {
      if (mix.length < n) mix = new Float32Array(n);
      x = mix;
      for (let i = 0; i < n; i++) x[i] = a[i] as number;
      for (let c = 1; c < channels; c++) {
        const p = planar[c] as Float32Array;
        for (let i = 0; i < n; i++) x[i] = (x[i] as number) + (p[i] as number);
      }
      for (let i = 0; i < n; i++) x[i] = (x[i] as number) * scale;
    }
    const size = finest as number;
    let i = 0;
    while (i < n) {
      const end = Math.min(n, i + size - inBucket);
      let l = lo;
      let h = hi;
      if (minMax) {
        minMax(i, end, range);
        l = Math.min(l, range[0]);
        h = Math.max(h, range[1]);
      } else if (b) {
        // Two independent min/max chains (the CPU runs them side by side) over a + b, halved once at the end:
        // exact, since the sum of two float32 values is exact in a double and halving commutes with min/max.
        let l0 = Number.POSITIVE_INFINITY;
        let h0 = Number.NEGATIVE_INFINITY;
        let l1 = l0;
        let h1 = h0;
        let k = i;
        for (; k + 1 < end; k += 2) {
          const v = (a[k] as number) + (b[k] as number);
          const w = (a[k + 1] as number) + (b[k + 1] as number);
          l0 = Math.min(l0, v);
          h0 = Math.max(h0, v);
          l1 = Math.min(l1, w);
          h1 = Math.max(h1, w);
        }
        if (k < end) {
          const v = (a[k] as number) + (b[k] as number);
          l0 = Math.min(l0, v);
          h0 = Math.max(h0, v);
        }
        l = Math.min(l, Math.min(l0, l1) * 0.5);
        h = Math.max(h, Math.max(h0, h1) * 0.5);
      } else {
        for (let k = i; k < end; k++) {
          const v = x[k] as number;
          l = Math.min(l, v);
          h = Math.max(h, v);
        }
      }
      lo = l;
      hi = h;
      inBucket += end - i;
      i = end;
      if (inBucket === size) closeBucket();
    }
    frames += n;
  }

  function since(from: number): ReturnType<PeaksBuilder['since']> {
    // Never past what is built: a caller ahead of this builder learns where it really stands.
    const start = Math.min(Math.max(0, Math.floor(from)), buckets);
    return { from: start, samplesPerBucket: finest!, frames, minMax: minMax.slice(2 * start, 2 * buckets) };
  }

  function result(): PeaksData {
    let base = minMax.subarray(0, 2 * buckets);
    if (inBucket > 0) {
      base = new Float32Array(2 * buckets + 2);
      base.set(minMax.subarray(0, 2 * buckets));
      base[2 * buckets] = lo;
      base[2 * buckets + 1] = hi;
    }
    const out: PeaksLevel[] = levels.map((spp) => {
      const ratio = spp / finest!;
      if (ratio === 1) return { samplesPerPixel: spp, minMax: Float32Array.from(base) };
      const nb = Math.ceil(base.length / 2 / ratio);
      const mm = new Float32Array(2 * nb);
      for (let j = 0; j < nb; j++) {
        let l = Number.POSITIVE_INFINITY;
        let h = Number.NEGATIVE_INFINITY;
        const end = Math.min(base.length / 2, (j + 1) * ratio);
        for (let k = j * ratio; k < end; k++) {
          l = Math.min(l, base[2 * k] as number);
          h = Math.max(h, base[2 * k + 1] as number);
        }
        mm[2 * j] = l;
        mm[2 * j + 1] = h;
      }
      return { samplesPerPixel: spp, minMax: mm };
    });
    return { sampleRate, channels, durationSeconds: frames / sampleRate, frames, levels: out };
  }

  return { push, result, since };
}

/** Path of the peaks file stored beside an audio file. */
export const peaksPathFor = (audioPath: string): string => `${audioPath}.peaks`;

/** Writes `<audioPath>.peaks` (16-bit pairs) and returns its path. */
export async function writePeaksFile(audioPath: string, data: PeaksData): Promise<string> {
  const path = peaksPathFor(audioPath);
  // Atomic: a reader never sees a half-written peaks file; a link planted at the sidecar's name is replaced, never
  // written through (write-file-atomic would follow it out of the library).
  await writeFileReplacing(path, encodePeaks(data));
  return path;
}

/**
 * Joins the peaks of consecutive parts of one stream (e.g. the halves two threads decoded). Every part but the
 * last must hold a whole number of the coarsest buckets, so that no bucket straddles a seam: the result is then
 * exactly the peaks of the whole.
 */
export function concatPeaks(parts: readonly PeaksData[]): PeaksData {
  const first = parts[0];
  if (!first) throw new RangeError('No peaks to join.');
  const spps = first.levels.map((l) => l.samplesPerPixel);
  const coarsest = spps[spps.length - 1] ?? 1;
  parts.forEach((p, i) => {
    if (p.sampleRate !== first.sampleRate || p.channels !== first.channels)
      throw new RangeError('Peaks of different formats cannot be joined.');
    if (p.levels.length !== spps.length || p.levels.some((l, j) => l.samplesPerPixel !== spps[j]))
      throw new RangeError('Peaks with different levels cannot be joined.');
    if (i < parts.length - 1 && p.frames % coarsest !== 0)
      throw new RangeError(`Part ${i} ends inside a bucket (${p.frames} frames, buckets of ${coarsest}).`);
  });
  const frames = parts.reduce((sum, p) => sum + p.frames, 0);
  const levels = spps.map((samplesPerPixel, j) => {
    const minMax = new Float32Array(
      parts.reduce((sum, p) => sum + (p.levels[j] as PeaksLevel).minMax.length, 0),
    );
    let at = 0;
    for (const p of parts) {
      const mm = (p.levels[j] as PeaksLevel).minMax;
      minMax.set(mm, at);
      at += mm.length;
    }
    return { samplesPerPixel, minMax };
  });
  return {
    sampleRate: first.sampleRate,
    channels: first.channels,
    durationSeconds: frames / first.sampleRate,
    frames,
    levels,
  };
}
