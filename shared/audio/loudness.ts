// ITU-R BS.1770-4 / EBU R128 loudness meter written for Takedesk (no loudness library):
// K-weighting for any sample rate, gated integrated loudness, EBU Tech 3342 loudness range,
// momentary/short-term maxima, sample peak and 4x oversampled true peak (BS.1770-4 Annex 2 style).

/** Normalised biquad coefficients (a0 = 1). */
export interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

// Analog prototypes of the two BS.1770 stages, fitted so that the bilinear transform at 48 kHz reproduces the
// published coefficient table; evaluating them at another rate gives that rate's K-weighting.
const SHELF_F0 = 1681.974450955533;
const SHELF_GAIN_DB = 3.999843853973347;
const SHELF_Q = 0.7071752369554196;
const SHELF_VB_EXP = 0.4996667741545416;
const HP_F0 = 38.13547087602444;
const HP_Q = 0.5003270373238773;

/** K-weighting filter (pre-filter high shelf, then RLB high-pass) for `sampleRate`. */
export function kWeightingCoefficients(sampleRate: number): { shelf: Biquad; highPass: Biquad } {
  let k = Math.tan((Math.PI * SHELF_F0) / sampleRate);
  const vh = 10 ** (SHELF_GAIN_DB / 20);
  const vb = vh ** SHELF_VB_EXP;
  let a0 = 1 + k / SHELF_Q + k * k;
  const shelf: Biquad = {
    b0: (vh + (vb * k) / SHELF_Q + k * k) / a0,
    b1: (2 * (k * k - vh)) / a0,
    b2: (vh - (vb * k) / SHELF_Q + k * k) / a0,
    a1: (2 * (k * k - 1)) / a0,
    a2: (1 - k / SHELF_Q + k * k) / a0,
  };
  k = Math.tan((Math.PI * HP_F0) / sampleRate);
  a0 = 1 + k / HP_Q + k * k;
  const highPass: Biquad = {
    b0: 1,
    b1: -2,
    b2: 1,
    a1: (2 * (k * k - 1)) / a0,
    a2: (1 - k / HP_Q + k * k) / a0,
  };
  return { shelf, highPass };
}

/**
 * BS.1770 channel weights for the usual WAV orders: mono; stereo L R; 3.0 L R C; quad L R Ls Rs;
 * 5.0 L R C Ls Rs; 5.1 L R C LFE Ls Rs (LFE excluded). Surrounds weigh 1.41 (+1.5 dB). Other counts: 1 each.
 */
export function defaultChannelWeights(channels: number): number[] {
  switch (channels) {
    case 4:
      return [1, 1, 1.41, 1.41];
    case 5:
      return [1, 1, 1, 1.41, 1.41];
    case 6:
      return [1, 1, 1, 0, 1.41, 1.41];
    default:
      return Array.from({ length: channels }, () => 1);
  }
}

/** Polyphase interpolator for true peak: `phases[p]` yields the value at n + (p+1)/factor from 2*half taps. */
export interface TruePeakInterpolator {
  factor: number;
  /** Samples on each side of the interpolated point. */
  half: number;
  phases: Float64Array[];
  /** max over phases of sum |h|: |interpolated| <= gainBound * max |x| over its taps (used to skip exactly). */
  gainBound: number;
}

function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 50; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return sum;
}

/**
 * Designs a Kaiser-windowed-sinc interpolator with its cut-off at the original Nyquist frequency. Because the
 * sinc is zero at integer offsets, phase 0 is the sample itself, so only factor-1 phases are computed.
 */
export function designTruePeakInterpolator(factor = 4, half = 8, beta = 7): TruePeakInterpolator {
  const phases: Float64Array[] = [];
  let gainBound = 1;
  for (let p = 1; p < factor; p++) {
    const f = p / factor;
    const h = new Float64Array(2 * half);
    let sum = 0;
    for (let j = 0; j < 2 * half; j++) {
      const tau = f + half - 1 - j; // distance from the interpolated point to tap sample n - half + 1 + j
      const sinc = Math.sin(Math.PI * tau) / (Math.PI * tau);
      const r = tau / half;
      h[j] = sinc * (besselI0(beta * Math.sqrt(Math.max(0, 1 - r * r))) / besselI0(beta));
      sum += h[j] as number;
    }
    let abs = 0;
    for (let j = 0; j < h.length; j++) {
      h[j] = (h[j] as number) / sum; // unity gain at DC for every phase
      abs += Math.abs(h[j] as number);
    }
    gainBound = Math.max(gainBound, abs);
    phases.push(h);
  }
  return { factor, half, phases, gainBound };
}

/** Options of createLoudnessMeter. */
export interface LoudnessMeterOptions {
  sampleRate: number;
  channels: number;
  /** Per-channel weights; defaults to defaultChannelWeights(channels). */
  channelWeights?: number[];
  /** Measure true peak (default true); the costliest part of the meter. */
  truePeak?: boolean;
}

/** Figures of a loudness measurement; -inf levels are reported as null. */
export interface LoudnessResult {
  frames: number;
  integratedLufs: number | null;
  loudnessRangeLu: number;
  maxMomentaryLufs: number | null;
  maxShortTermLufs: number | null;
  truePeakDbtp: number | null;
  samplePeakDbfs: number | null;
}

/** Incremental meter: push planar blocks in order, read result() at any time. */
export interface LoudnessMeter {
  push(planar: readonly Float32Array[], frames?: number): void;
  result(): LoudnessResult;
}

const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = -10;
const LRA_RELATIVE_GATE_LU = -20;
// True peak skips whole segments whose taps cannot beat the peak so far; a power of two, so cells are t >> shift.
const TP_SEGMENT_SHIFT = 5;
const TP_SEGMENT = 1 << TP_SEGMENT_SHIFT;

const energyToLufs = (z: number): number => -0.691 + 10 * Math.log10(z);
const lufsToEnergy = (l: number): number => 10 ** ((l + 0.691) / 10);
const toDb = (linear: number): number | null => (linear > 0 ? 20 * Math.log10(linear) : null);
const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** Growable Float64 list without per-item allocation. */
class Float64List {
  data = new Float64Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  view(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}

/** Gated mean energy per BS.1770-4 section 2.8: -70 LUFS absolute gate, then `relativeLu` below the mean. */
function gatedEnergies(energies: Float64Array, relativeLu: number): { kept: Float64Array; mean: number } {
  const absGate = lufsToEnergy(ABSOLUTE_GATE_LUFS);
  let sum = 0;
  let n = 0;
  for (const z of energies) {
    if (z > absGate) {
      sum += z;
      n++;
    }
  }
  if (n === 0) return { kept: new Float64Array(0), mean: 0 };
  const relGate = (sum / n) * 10 ** (relativeLu / 10);
  const kept = new Float64Array(n);
  let k = 0;
  sum = 0;
  for (const z of energies) {
    if (z > absGate && z > relGate) {
      kept[k++] = z;
      sum += z;
    }
  }
  return { kept: kept.subarray(0, k), mean: k > 0 ? sum / k : 0 };
}

/** Integrated loudness of 400 ms gating-block energies (null when nothing passes the gates). */
export function integratedLoudness(blockEnergies: Float64Array): number | null {
  const { mean } = gatedEnergies(blockEnergies, RELATIVE_GATE_LU);
  return mean > 0 ? energyToLufs(mean) : null;
}

/** EBU Tech 3342 loudness range from 3 s short-term energies: P95 - P10 of the gated loudness values. */
export function loudnessRange(shortTermEnergies: Float64Array): number {
  const { kept } = gatedEnergies(shortTermEnergies, LRA_RELATIVE_GATE_LU);
  if (kept.length < 2) return 0;
  const sorted = Float64Array.from(kept).sort();
  const at = (q: number): number => energyToLufs(sorted[Math.round((sorted.length - 1) * q)] as number);
  return Math.max(0, at(0.95) - at(0.1));
}

/** Stores a filter's state, tiny values flushed to zero so digital silence never runs on denormals. */
function keepState(s: Float64Array, z1: number, z2: number, z3: number, z4: number): void {
  s[0] = Math.abs(z1) < 1e-30 ? 0 : z1;
  s[1] = Math.abs(z2) < 1e-30 ? 0 : z2;
  s[2] = Math.abs(z3) < 1e-30 ? 0 : z3;
  s[3] = Math.abs(z4) < 1e-30 ? 0 : z4;
}

/** Creates a BS.1770-4 / EBU R128 meter for one stream. */
export function createLoudnessMeter(options: LoudnessMeterOptions): LoudnessMeter {
  const { sampleRate, channels } = options;
  if (!(sampleRate > 0) || !Number.isInteger(channels) || channels < 1)
    throw new RangeError(`Invalid meter format: ${sampleRate} Hz, ${channels} channels.`);
  const weights = options.channelWeights ?? defaultChannelWeights(channels);
  if (weights.length !== channels) throw new RangeError('channelWeights must have one entry per channel.');
  const measureTruePeak = options.truePeak ?? true;
  const { shelf, highPass } = kWeightingCoefficients(sampleRate);
  // The filter's taps in the order the loops read them (locals there, not closure loads per sample).
  const taps = [shelf.b0, shelf.b1, shelf.b2, shelf.a1, shelf.a2, highPass.a1, highPass.a2] as const;
  // Gating blocks are 400 ms with 75 % overlap, short-term 3 s: both are sums of 100 ms sub-blocks.
  const step = Math.max(1, Math.round(sampleRate / 10));
  const state = Array.from({ length: channels }, () => new Float64Array(4));
  const acc = new Float64Array(channels);
  const recent = new Float64Array(30); // ring of the last 30 sub-block energies
  let subBlocks = 0;
  let pos = 0;
  let frames = 0;
  const blocks = new Float64List();
  const shortTerms = new Float64List();
  let maxMomentary = 0;
  let maxShortTerm = 0;
  let samplePeak = 0;
  let truePeak = 0;

  const tp = designTruePeakInterpolator();
  const tail = 2 * tp.half - 1;
  const history = Array.from({ length: channels }, () => new Float64Array(tail));
  let work = new Float64Array(tail + 16384);
  let cells = new Float64Array(0);

  function filterSegment(c: number, x: Float32Array, from: number, to: number): void {
    const s = state[c] as Float64Array;
    let [z1, z2, z3, z4] = s as unknown as [number, number, number, number];
    const [b0, b1, b2, a1, a2, h1, h2] = taps;
    let sum = 0;
    for (let i = from; i < to; i++) {
      const v = x[i] as number;
      const y = b0 * v + z1;
      z1 = b1 * v - a1 * y + z2;
      z2 = b2 * v - a2 * y;
      const w = y + z3;
      z3 = -2 * y - h1 * w + z4;
      z4 = y - h2 * w;
      sum += w * w;
    }
    keepState(s, z1, z2, z3, z4);
    acc[c] = (acc[c] as number) + sum;
  }

  function closeSubBlock(): void {
    let z = 0;
    for (let c = 0; c < channels; c++) {
      z += (weights[c] as number) * (acc[c] as number);
      acc[c] = 0;
    }
    recent[subBlocks % 30] = z / step;
    subBlocks++;
    if (subBlocks >= 4) {
      let e = 0;
      for (let k = 1; k <= 4; k++) e += recent[(subBlocks - k) % 30] as number;
      e /= 4;
      blocks.push(e);
      if (e > maxMomentary) maxMomentary = e;
    }
    if (subBlocks >= 30) {
      let e = 0;
      for (let k = 0; k < 30; k++) e += recent[k] as number;
      e /= 30;
      shortTerms.push(e);
      if (e > maxShortTerm) maxShortTerm = e;
    }
  }

  /**
   * Interpolates intervals [from, to) of `w` (interval i lies between w[i] and w[i+1]); returns the max |y|.
   * `cells[k]`, when given, is max |w| over w[TP_SEGMENT*k, TP_SEGMENT*(k+1)) and `from` is half - 1, so the taps
   * of segment k lie in cells k and k+1.
   */
  function interpolate(
    w: Float64Array,
    from: number,
    to: number,
    floor: number,
    cells: Float64Array | null,
  ): number {
    const half = tp.half;
    const taps = 2 * half;
    let peak = floor;
    for (let seg = from, k = 0; seg < to; seg += TP_SEGMENT, k++) {
      const end = Math.min(to, seg + TP_SEGMENT);
      // Exact shortcut: no interpolated value in this segment can exceed gainBound * max|x| of its taps.
      let localMax = 0;
      if (cells) localMax = Math.max(cells[k] as number, cells[k + 1] as number);
      else
        for (let j = seg - half + 1; j < end + half; j++) {
          const a = Math.abs(w[j] as number);
          if (a > localMax) localMax = a;
        }
      if (localMax * tp.gainBound <= peak) continue;
      for (const h of tp.phases) {
        for (let i = seg; i < end; i++) {
          const base = i - half + 1;
          let y = 0;
          for (let j = 0; j < taps; j++) y += (h[j] as number) * (w[base + j] as number);
          const a = Math.abs(y);
          if (a > peak) peak = a;
        }
      }
    }
    return peak;
  }

  /** Interpolates each channel's new samples (after its history); the sample peak falls out of the same pass. */
  function pushTruePeak(planar: readonly Float32Array[], n: number): void {
    const size = tail + n;
    if (work.length < size) work = new Float64Array(size);
    const cellCount = Math.ceil(size / TP_SEGMENT) + 1;
    if (cells.length < cellCount) cells = new Float64Array(cellCount);
    let m = samplePeak;
    for (let c = 0; c < channels; c++) {
      const hist = history[c] as Float64Array;
      const x = planar[c] as Float32Array;
      work.set(hist, 0);
      cells.fill(0, 0, cellCount);
      for (let t = 0; t < tail; t++) {
        const a = Math.abs(hist[t] as number);
        const k = t >> TP_SEGMENT_SHIFT;
        if (a > (cells[k] as number)) cells[k] = a;
      }
      for (let i = 0; i < n; i++) {
        const v = x[i] as number;
        const t = tail + i;
        work[t] = v;
        const a = Math.abs(v);
        const k = t >> TP_SEGMENT_SHIFT;
        if (a > (cells[k] as number)) cells[k] = a;
        if (a > m) m = a;
      }
      samplePeak = m;
      if (m > truePeak) truePeak = m; // phase 0 of the interpolator is the sample itself
      truePeak = interpolate(work, tp.half - 1, n + tp.half - 1, truePeak, cells);
      hist.set(work.subarray(n, n + tail));
    }
  }

  /** K-weights two channels in one loop: their filters are independent chains the CPU can run side by side. */
  function filterStereo(l: Float32Array, r: Float32Array, from: number, to: number): void {
    const s = state[0] as Float64Array;
    const t = state[1] as Float64Array;
    let [z1, z2, z3, z4] = s as unknown as [number, number, number, number];
    let [q1, q2, q3, q4] = t as unknown as [number, number, number, number];
    const [b0, b1, b2, a1, a2, h1, h2] = taps;
    let sumL = 0;
    let sumR = 0;
    for (let i = from; i < to; i++) {
      const v = l[i] as number;
      const u = r[i] as number;
      const y = b0 * v + z1;
      const p = b0 * u + q1;
      z1 = b1 * v - a1 * y + z2;
      q1 = b1 * u - a1 * p + q2;
      z2 = b2 * v - a2 * y;
      q2 = b2 * u - a2 * p;
      const w = y + z3;
      const o = p + q3;
      z3 = -2 * y - h1 * w + z4;
      q3 = -2 * p - h1 * o + q4;
      z4 = y - h2 * w;
      q4 = p - h2 * o;
      sumL += w * w;
      sumR += o * o;
    }
    keepState(s, z1, z2, z3, z4);
    keepState(t, q1, q2, q3, q4);
    acc[0] = (acc[0] as number) + sumL;
    acc[1] = (acc[1] as number) + sumR;
  }

  function push(planar: readonly Float32Array[], frameCount?: number): void {
    const n = frameCount ?? planar[0]?.length ?? 0;
    if (planar.length !== channels)
      throw new RangeError(`Expected ${channels} channels, got ${planar.length}.`);
    if (n === 0) return;
    if (!measureTruePeak) {
      for (let c = 0; c < channels; c++) {
        const x = planar[c] as Float32Array;
        let m = samplePeak;
        for (let i = 0; i < n; i++) {
          const a = Math.abs(x[i] as number);
          if (a > m) m = a;
        }
        samplePeak = m;
      }
    }
    let i = 0;
    while (i < n) {
      const m = Math.min(n - i, step - pos);
      if (channels === 2) filterStereo(planar[0] as Float32Array, planar[1] as Float32Array, i, i + m);
      else for (let c = 0; c < channels; c++) filterSegment(c, planar[c] as Float32Array, i, i + m);
      pos += m;
      i += m;
      if (pos === step) {
        closeSubBlock();
        pos = 0;
      }
    }
    if (measureTruePeak) pushTruePeak(planar, n);
    frames += n;
  }

  function result(): LoudnessResult {
    let tpFinal = truePeak;
    if (measureTruePeak) {
      // Interpolate the last intervals against trailing silence without disturbing the stream state.
      const w = new Float64Array(tail + tp.half);
      for (const hist of history) {
        w.fill(0);
        w.set(hist, 0);
        tpFinal = interpolate(w, tp.half - 1, tail - 1, tpFinal, null);
      }
    }
    return {
      frames,
      integratedLufs: integratedLoudness(blocks.view()),
      loudnessRangeLu: loudnessRange(shortTerms.view()),
      maxMomentaryLufs: blocks.length > 0 ? finite(energyToLufs(maxMomentary)) : null,
      maxShortTermLufs: shortTerms.length > 0 ? finite(energyToLufs(maxShortTerm)) : null,
      truePeakDbtp: measureTruePeak ? toDb(tpFinal) : null,
      samplePeakDbfs: toDb(samplePeak),
    };
  }

  return { push, result };
}
