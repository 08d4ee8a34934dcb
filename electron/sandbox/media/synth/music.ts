// The music bed: chord pads, bass and a beat on a looped four-bar progression, faded in and out.
import { createRng, type Rng } from '../prng';
import { blockSource, framesFor, putFrame, SAMPLE_RATE, softLimit, type AudioSource } from './source';
/** Options of the music bed. */
export interface MusicOptions {
  seed: string;
  seconds: number;
  channels?: number | undefined;
  sampleRate?: number | undefined;
  /** Mood word (calm, upbeat, dramatic, corporate, ...) that sets tempo and mode. */
  style?: string | undefined;
}

const MAJOR_PROGRESSIONS = [
  [0, 7, 9, 5],
  [9, 5, 0, 7],
  [0, 9, 5, 7],
  [2, 7, 0, 9],
] as const;
const MINOR_PROGRESSIONS = [
  [0, 8, 3, 10],
  [0, 5, 8, 7],
] as const;

const WAVE_SIZE = 4096;
// Soft pad waveform: a few harmonics falling off fast, so no aliasing at pad pitches.
const PAD_WAVE = ((): Float32Array => {
  const t = new Float32Array(WAVE_SIZE);
  for (let i = 0; i < WAVE_SIZE; i++) {
    let s = 0;
    for (let h = 1; h <= 6; h++) s += Math.sin((2 * Math.PI * h * i) / WAVE_SIZE) / Math.pow(h, 1.6);
    t[i] = s * 0.6;
  }
  return t;
})();
const SINE = ((): Float32Array => {
  const t = new Float32Array(WAVE_SIZE);
  for (let i = 0; i < WAVE_SIZE; i++) t[i] = Math.sin((2 * Math.PI * i) / WAVE_SIZE);
  return t;
})();

// Music alone measures about -16 LUFS at this gain.
const MUSIC_GAIN = 0.84;

const midiHz = (m: number): number => 440 * Math.pow(2, (m - 69) / 12);

/** Chord pads, bass and a simple kick/snare/hat beat, in stereo, unlimited and unfaded. */
class MusicEngine {
  private readonly noiseRng: Rng;
  /** Beats in one pass of the chord progression (four bars of four). */
  readonly loopBeats = 16;
  readonly samplesPerBeat: number;
  private readonly chords: number[][];
  private readonly bassHz: number[];
  private readonly beatLevel: number;
  private readonly padPhases = new Float64Array(8);
  private readonly padIncs = new Float64Array(8);
  private readonly noise = new Float32Array(4096);
  private bassPhase = 0;
  private kickPhase = 0;
  private lowL = 0;
  private lowR = 0;
  private lastNoise = 0;
  private pos = 0;

  constructor(
    seed: string,
    style: string | undefined,
    private readonly sr: number,
  ) {
    const r = createRng(`music:${seed}`);
    this.noiseRng = createRng(`music-noise:${seed}`);
    const mood = (style ?? '').toLowerCase();
    const minor = /dramatic|dark|cinematic|tense|sad/.test(mood) || (!mood && r.chance(0.25));
    const [lo, hi] = /calm|ambient|acoustic|soft|relax/.test(mood)
      ? [70, 86]
      : /upbeat|energetic|rock|pop|electronic|sport/.test(mood)
        ? [112, 128]
        : [90, 108];
    const bpm = r.int(lo, hi);
    this.beatLevel = /calm|ambient/.test(mood) ? 0.5 : 1;
    this.samplesPerBeat = Math.round((60 / bpm) * sr);
    const root = r.int(48, 55);
    const progression = r.pick<readonly number[]>(minor ? MINOR_PROGRESSIONS : MAJOR_PROGRESSIONS);
    const minorDegrees = new Set(minor ? [0, 5] : [2, 4, 9]);
    this.chords = progression.map((degree) => {
      const base = root + degree;
      const third = minorDegrees.has(degree) ? 3 : 4;
      // Voice each chord around middle C so the pads stay under the voice's formants.
      return [base, base + third, base + 7, base + 12].map((m) => (m > 67 ? m - 12 : m));
    });
    this.bassHz = progression.map((degree) => midiHz(root + degree - 24));
  }

  render(left: Float32Array, right: Float32Array, n: number): void {
    let k = 0;
    while (k < n) {
      // Work one piece at a time that stays inside a beat, so beat-level values are constants.
      const spb = this.samplesPerBeat;
      const beat = Math.floor(this.pos / spb);
      const inBeat = this.pos - beat * spb;
      const count = Math.min(n - k, spb - inBeat, this.noise.length);
      this.renderPiece(left, right, k, count, beat, inBeat);
      this.pos += count;
      k += count;
    }
  }

  private renderPiece(
    left: Float32Array,
    right: Float32Array,
    at: number,
    n: number,
    beat: number,
    inBeat0: number,
  ): void {
    const sr = this.sr;
    const spb = this.samplesPerBeat;
    const chordLen = spb * 4;
    const chordIndex = Math.floor(beat / 4);
    const beatInBar = beat % 4;
    const chord = this.chords[chordIndex % this.chords.length]!;
    const incs = this.padIncs;
    for (let v = 0; v < 4; v++) {
      const hz = midiHz(chord[v]!);
      // Two slightly detuned oscillators per note, one per side, give the pad its width.
      incs[v * 2] = (hz * 1.0035 * WAVE_SIZE) / sr;
      incs[v * 2 + 1] = (hz * 0.9965 * WAVE_SIZE) / sr;
    }
    const ph = this.padPhases;
    const noise = this.noise;
    this.noiseRng.fillNoise(noise, n);
    const padRamp = 0.25 * sr;
    const mask = WAVE_SIZE - 1;
    const bassInc = (this.bassHz[chordIndex % this.bassHz.length]! * WAVE_SIZE) / sr;
    const onBeat = beatInBar % 2 === 0;
    const level = this.beatLevel;
    const half = spb >> 1;
    const chordStart = chordIndex * chordLen;
    let lowL = this.lowL;
    let lowR = this.lowR;
    let bassPhase = this.bassPhase;
    let kickPhase = this.kickPhase;
    let lastNoise = this.lastNoise;
    // Exponential envelopes run as per-sample products, started from their value at the piece's start.
    const t0 = inBeat0 / sr;
    let bassEnv = Math.exp(-(onBeat ? t0 : t0 + spb / sr) * 2.5);
    const bassDecay = Math.exp(-2.5 / sr);
    let sweep = Math.exp(-t0 * 30);
    const sweepDecay = Math.exp(-30 / sr);
    let kickEnv = Math.exp(-t0 * 12) * 0.55 * level;
    const kickDecay = Math.exp(-12 / sr);
    let snareEnv = Math.exp(-t0 * 25) * 0.22 * level;
    const snareDecay = Math.exp(-25 / sr);
    const kickEnd = 0.3 * sr;
    const snareEnd = 0.2 * sr;
    const hatLen = 0.05 * sr;
    const hatDecay = Math.exp(-90 / sr);
    const hatLevel = 0.07 * level;
    let hatEnv = hatLevel * Math.exp((-90 * (inBeat0 < half ? inBeat0 : inBeat0 - half)) / sr);
    const kickScale = WAVE_SIZE / sr;
    for (let k = 0; k < n; k++) {
      const p = this.pos + k;
      const inBeat = inBeat0 + k;
      const inChord = p - chordStart;
      const rise = inChord / padRamp;
      const fall = (chordLen - inChord) / padRamp;
      const padEnv = (rise < fall ? (rise < 1 ? rise : 1) : fall < 1 ? fall : 1) * 0.6 + 0.4;
      let sa = 0;
      let sb = 0;
      for (let o = 0; o < 8; o++) {
        let p = ph[o]! + incs[o]!;
        if (p >= WAVE_SIZE) p -= WAVE_SIZE;
        ph[o] = p;
        // Of each note's two detuned oscillators the first leans left, the second right.
        if (o % 2 === 0) sa += PAD_WAVE[p & mask]!;
        else sb += PAD_WAVE[p & mask]!;
      }
      // Gentle low-pass keeps the pads soft.
      lowL += ((sa * 0.7 + sb * 0.3) * padEnv - lowL) * 0.12;
      lowR += ((sa * 0.3 + sb * 0.7) * padEnv - lowR) * 0.12;
      // Bass struck on beats 1 and 3, ringing through 2 and 4.
      bassPhase += bassInc;
      if (bassPhase >= WAVE_SIZE) bassPhase -= WAVE_SIZE;
      let centre = SINE[bassPhase & mask]! * bassEnv * 0.32;
      bassEnv *= bassDecay;
      const nz = noise[k]!;
      if (onBeat) {
        // Kick: a sine falling from 125 to 45 Hz.
        if (inBeat < kickEnd) {
          kickPhase += (45 + 80 * sweep) * kickScale;
          if (kickPhase >= WAVE_SIZE) kickPhase -= WAVE_SIZE;
          centre += SINE[kickPhase & mask]! * kickEnv;
          sweep *= sweepDecay;
          kickEnv *= kickDecay;
        } else kickPhase = 0;
      } else if (inBeat < snareEnd) {
        centre += nz * snareEnv;
        snareEnv *= snareDecay;
      }
      // Hats on every eighth: differentiated noise is bright.
      if (inBeat === half) hatEnv = hatLevel;
      const inEighth = inBeat < half ? inBeat : inBeat - half;
      const hat = inEighth < hatLen ? (nz - lastNoise) * hatEnv : 0;
      hatEnv *= hatDecay;
      lastNoise = nz;
      left[at + k] = lowL * 0.16 + centre + hat * 0.6;
      right[at + k] = lowR * 0.16 + centre + hat;
    }
    this.lowL = lowL;
    this.lowR = lowR;
    this.bassPhase = bassPhase;
    this.kickPhase = kickPhase;
    this.lastNoise = lastNoise;
  }
}

/**
 * Music bed of exactly `seconds`: chord progression on soft pads with bass and a beat; fades in
 * and out. The four-bar progression is rendered once with a crossfaded seam and then looped, as
 * library beds are, which keeps a ten-minute bed as cheap as a copy.
 */
export function createMusicSource(opts: MusicOptions): AudioSource {
  const sr = opts.sampleRate ?? SAMPLE_RATE;
  const channels = opts.channels ?? 2;
  const frames = framesFor(opts.seconds, sr);
  const engine = new MusicEngine(opts.seed, opts.style, sr);
  const loop = engine.samplesPerBeat * engine.loopBeats;
  const seam = Math.round(0.05 * sr);
  const left = new Float32Array(loop + seam);
  const right = new Float32Array(loop + seam);
  engine.render(left, right, loop + seam);
  // What would have followed the last bar fades into the first, so the wrap is seamless.
  for (let i = 0; i < seam; i++) {
    const w = i / seam;
    left[i] = left[i]! * w + left[loop + i]! * (1 - w);
    right[i] = right[i]! * w + right[loop + i]! * (1 - w);
  }
  const fadeIn = Math.max(1, Math.min(sr, Math.floor(frames / 4)));
  const fadeOut = Math.max(1, Math.min(2 * sr, Math.floor(frames / 4)));
  return blockSource(channels, sr, frames, 2, (first, second, n, done) => {
    let at = done % loop;
    for (let k = 0; k < n; k++) {
      const p = done + k;
      const fi = (p + 1) / fadeIn;
      const fo = (frames - p) / fadeOut;
      const g = (fi < 1 ? fi : fo < 1 ? fo : 1) * MUSIC_GAIN;
      putFrame(first, second, k, softLimit(left[at]! * g), softLimit(right[at]! * g));
      if (++at === loop) at = 0;
    }
  });
}
