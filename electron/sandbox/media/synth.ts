import { voiceRange } from '../../../shared/catalogue/gender-and-age';
import { createRng, type Rng } from './prng';

/** Output rate of every generated file (issue 3 item 5: 48 kHz deliverables). */
export const SAMPLE_RATE = 48_000;
/** Reading pace used to turn a script's word count into a length. */
export const WORDS_PER_MINUTE = 150;
/** Silence before the first syllable of a voice over. */
export const VOICE_HEAD_SECONDS = 0.5;
/** Silence after the last syllable of a voice over. */
export const VOICE_TAIL_SECONDS = 0.7;

/**
 * Pull-based audio: planar float blocks, produced on demand so a ten-minute file never sits in
 * memory whole. `frames` is known up front so writers can size headers before generating.
 */
export interface AudioSource {
  readonly sampleRate: number;
  readonly channels: number;
  readonly frames: number;
  /** Fills out[c][0..n) with the next n = min(out[0].length, frames left) frames; returns n (0 at the end). */
  read(out: Float32Array[]): number;
}

/** Length of a voice over of `words` words at 150 wpm, with the head and tail silences. */
export function voiceOverSeconds(words: number): number {
  return VOICE_HEAD_SECONDS + (Math.max(0, words) * 60) / WORDS_PER_MINUTE + VOICE_TAIL_SECONDS;
}

/** Whole frames in `seconds` at `sampleRate` (at least one, so every file has audio). */
export function framesFor(seconds: number, sampleRate = SAMPLE_RATE): number {
  return Math.max(1, Math.round(seconds * sampleRate));
}

/** Soft-knee peak limiter: transparent up to `knee`, then bending (tanh) towards `ceiling`, never above it. */
export function softKnee(x: number, knee: number, ceiling: number): number {
  const a = x < 0 ? -x : x;
  if (a <= knee) return x;
  const y = knee + (ceiling - knee) * Math.tanh((a - knee) / (ceiling - knee));
  return x < 0 ? -y : y;
}

// Peaks are held below -1 dBFS (0.891) by a soft knee instead of a hard clip.
const softLimit = (x: number): number => softKnee(x, 0.75, 0.885);

/** Two-pole resonator (Klatt 1980 form, unity gain at DC): one formant of the vocal tract. */
class Resonator {
  a = 1;
  b = 0;
  c = 0;
  y1 = 0;
  y2 = 0;
  set(freq: number, bandwidth: number, sampleRate: number): void {
    const r = Math.exp((-Math.PI * bandwidth) / sampleRate);
    this.c = -r * r;
    this.b = 2 * r * Math.cos((2 * Math.PI * Math.min(freq, sampleRate * 0.45)) / sampleRate);
    this.a = 1 - this.b - this.c;
  }
  tick(x: number): number {
    const y = this.a * x + this.b * this.y1 + this.c * this.y2;
    this.y2 = this.y1;
    this.y1 = y;
    return y;
  }
}

// Glottal flow derivative (Rosenberg pulse, differentiated for lip radiation), one period.
const GLOTTAL_SIZE = 2048;
const GLOTTAL = ((): Float32Array => {
  const open = 0.42;
  const close = 0.14;
  const flow = (p: number): number =>
    p < open
      ? 0.5 * (1 - Math.cos((Math.PI * p) / open))
      : p < open + close
        ? Math.cos((Math.PI / 2) * ((p - open) / close))
        : 0;
  const t = new Float32Array(GLOTTAL_SIZE);
  let peak = 0;
  for (let i = 0; i < GLOTTAL_SIZE; i++) {
    const d = flow((i + 1) / GLOTTAL_SIZE) - flow(i / GLOTTAL_SIZE);
    t[i] = d;
    peak = Math.max(peak, Math.abs(d));
  }
  for (let i = 0; i < GLOTTAL_SIZE; i++) t[i]! /= peak;
  return t;
})();

// Adult male formants F1-F4 (Hz) of a few vowels (after Peterson & Barney 1952).
const VOWELS: readonly (readonly [number, number, number, number])[] = [
  [270, 2290, 3010, 3600],
  [390, 1990, 2550, 3600],
  [530, 1840, 2480, 3600],
  [660, 1720, 2410, 3600],
  [730, 1090, 2440, 3600],
  [570, 840, 2410, 3600],
  [440, 1020, 2240, 3600],
  [300, 870, 2240, 3600],
  [640, 1190, 2390, 3600],
  [500, 1500, 2500, 3600],
];
const SCHWA = VOWELS[9]!;
const BANDWIDTHS = [80, 110, 150, 220] as const;

type Onset =
  | { type: 'none' }
  | { type: 'fricative'; centre: number; width: number; level: number; voiced: boolean }
  | { type: 'stop'; centre: number; voiced: boolean }
  | { type: 'sonorant'; locus: readonly [number, number, number, number] };

const ONSETS: readonly Onset[] = [
  { type: 'none' },
  { type: 'none' },
  { type: 'fricative', centre: 6200, width: 2200, level: 0.5, voiced: false }, // s
  { type: 'fricative', centre: 2800, width: 1400, level: 0.45, voiced: false }, // sh
  { type: 'fricative', centre: 5000, width: 5000, level: 0.18, voiced: false }, // f
  { type: 'fricative', centre: 5600, width: 2400, level: 0.3, voiced: true }, // z
  { type: 'stop', centre: 1400, voiced: false }, // p
  { type: 'stop', centre: 3800, voiced: false }, // t
  { type: 'stop', centre: 2200, voiced: false }, // k
  { type: 'stop', centre: 3000, voiced: true }, // d
  { type: 'stop', centre: 1800, voiced: true }, // g
  { type: 'sonorant', locus: [280, 1100, 2300, 3600] }, // m
  { type: 'sonorant', locus: [280, 1600, 2600, 3600] }, // n
  { type: 'sonorant', locus: [360, 1200, 2700, 3600] }, // l
  { type: 'sonorant', locus: [420, 1250, 1700, 3600] }, // r
  { type: 'sonorant', locus: [300, 700, 2200, 3600] }, // w
];

interface Syllable {
  kind: 'syllable';
  length: number;
  onset: Onset;
  onsetLength: number;
  from: readonly number[];
  vowel: readonly number[];
  f0Start: number;
  f0End: number;
  accent: number;
  level: number;
}
interface Pause {
  kind: 'pause';
  length: number;
  breath: boolean;
}
type Unit = Syllable | Pause;

const CONTROL = 64; // samples between formant/pitch updates

/** Options of the speech-like voice. */
export interface VoiceOptions {
  seed: string;
  seconds: number;
  /** genderAndAge id: picks the pitch range and formant scale. */
  genderAndAge?: string | undefined;
  channels?: number | undefined;
  sampleRate?: number | undefined;
  /** Silence before speech; default VOICE_HEAD_SECONDS. */
  headSeconds?: number | undefined;
  /** Silence after speech; default VOICE_TAIL_SECONDS. */
  tailSeconds?: number | undefined;
}

/**
 * Formant speech synthesiser: a glottal pulse train with a wandering, declining pitch contour,
 * through four cascaded formant resonators that glide between vowels, syllables with consonant
 * onsets at 4-5 per second, word gaps, sentence pauses with breaths. Mono.
 */
class VoiceEngine {
  private readonly rng: Rng;
  private readonly noiseRng: Rng;
  private noise = new Float32Array(CONTROL);
  private f0 = 100;
  private readonly sr: number;
  private readonly pitchLo: number;
  private readonly pitchHi: number;
  private readonly scale: number;
  private readonly formants = [new Resonator(), new Resonator(), new Resonator(), new Resonator()];
  private readonly fric = new Resonator();
  private readonly breathRes = new Resonator();
  private unit: Unit | null = null;
  private unitPos = 0;
  private cursor = 0;
  private phase = 0;
  private periodGain = 1;
  private periodF0Jitter = 1;
  private lastNoise = 0;
  private prevVowel: readonly number[];
  private wordsLeft = 0;
  private syllablesLeft = 0;
  private sentenceWords = 0;
  private sentenceF0: [number, number] = [0, 0];
  private question = false;
  private wordSyllables = 0;
  private wander = 0;
  private drift = 0;
  /** Sum of squares and count of vowel-nucleus output, for calibration. */
  vowelEnergy = 0;
  vowelSamples = 0;

  constructor(
    seed: string,
    genderAndAge: string | undefined,
    sampleRate: number,
    private readonly speechStart: number,
    private readonly speechEnd: number,
    private readonly voicedGain: number,
  ) {
    this.rng = createRng(`voice:${seed}`);
    this.noiseRng = createRng(`voice-noise:${seed}`);
    this.sr = sampleRate;
    const range = voiceRange(genderAndAge);
    this.pitchLo = range.pitchHz[0];
    this.pitchHi = range.pitchHz[1];
    this.scale = range.formantScale;
    this.prevVowel = this.scaled(SCHWA);
    this.breathRes.set(1500, 1800, sampleRate);
  }

  private scaled(f: readonly number[]): number[] {
    // F4 depends less on tract length than F1-F3.
    return f.map((v, i) => v * (i === 3 ? 1 + (this.scale - 1) * 0.5 : this.scale));
  }

  private seconds(s: number): number {
    return Math.max(1, Math.round(s * this.sr));
  }

  private nextUnit(): Unit {
    const r = this.rng;
    if (this.cursor < this.speechStart)
      return { kind: 'pause', length: this.speechStart - this.cursor, breath: false };
    const left = this.speechEnd - this.cursor;
    if (left <= 0) return { kind: 'pause', length: this.sr, breath: false };
    if (this.wordsLeft === 0 && this.syllablesLeft === 0) {
      this.sentenceWords = r.int(6, 15);
      this.wordsLeft = this.sentenceWords;
      const span = this.pitchHi - this.pitchLo;
      this.sentenceF0 = [
        this.pitchLo + span * r.range(0.42, 0.62),
        this.pitchLo + span * r.range(0.12, 0.25),
      ];
      this.question = r.chance(0.12);
    }
    if (this.syllablesLeft === 0) {
      this.wordSyllables = r.pick([1, 1, 1, 1, 2, 2, 2, 3]);
      this.syllablesLeft = this.wordSyllables;
      this.wordsLeft--;
    }
    const length = this.seconds(r.range(0.15, 0.27));
    if (length > left) return { kind: 'pause', length: left, breath: false };
    const onset = r.pick(ONSETS);
    const onsetLength =
      onset.type === 'none'
        ? 0
        : this.seconds(onset.type === 'stop' ? r.range(0.05, 0.08) : r.range(0.04, 0.085));
    const vowel = this.scaled(r.pick(VOWELS));
    const from = onset.type === 'sonorant' ? this.scaled(onset.locus) : this.prevVowel;
    // Pitch follows the sentence's declination line; the word's first syllable carries the accent.
    const done = (this.sentenceWords - this.wordsLeft - 1) / Math.max(1, this.sentenceWords);
    const lastWord = this.wordsLeft === 0;
    const lastSyllable = lastWord && this.syllablesLeft === 1;
    this.wander += (r.next() - 0.5) * 0.06 - this.wander * 0.2;
    const line = (t: number): number => this.sentenceF0[0] + (this.sentenceF0[1] - this.sentenceF0[0]) * t;
    const step = 1 / Math.max(1, this.sentenceWords * 1.6);
    let f0Start = line(done) * (1 + this.wander);
    let f0End = line(done + step) * (1 + this.wander);
    if (lastSyllable) f0End = this.question ? f0Start * 1.3 : f0Start * 0.85;
    const stressed = this.syllablesLeft === this.wordSyllables;
    const accent = stressed ? r.range(0.06, 0.16) : 0;
    f0Start = Math.max(50, f0Start);
    f0End = Math.max(50, f0End);
    this.syllablesLeft--;
    this.prevVowel = vowel;
    return {
      kind: 'syllable',
      length,
      onset,
      onsetLength,
      from,
      vowel,
      f0Start,
      f0End,
      accent,
      level: stressed ? 1 : r.range(0.62, 0.85),
    };
  }

  private nextAfterSyllable(): Unit | null {
    // Gaps between words and sentences, decided when a word or sentence ends.
    const r = this.rng;
    if (this.syllablesLeft > 0) return null;
    const left = this.speechEnd - this.cursor;
    if (left <= 0) return null;
    if (this.wordsLeft === 0) {
      return {
        kind: 'pause',
        length: Math.min(left, this.seconds(r.range(0.35, 0.6))),
        breath: r.chance(0.6),
      };
    }
    if (r.chance(0.08))
      return { kind: 'pause', length: Math.min(left, this.seconds(r.range(0.15, 0.25))), breath: false };
    if (r.chance(0.7))
      return { kind: 'pause', length: Math.min(left, this.seconds(r.range(0.02, 0.08))), breath: false };
    return null;
  }

  private pending: Unit | null = null;

  private advance(): Unit {
    if (this.pending) {
      const p = this.pending;
      this.pending = null;
      return p;
    }
    const u = this.nextUnit();
    if (u.kind === 'syllable') this.pending = this.nextAfterSyllable();
    return u;
  }

  /** Writes n mono samples into out starting at offset. */
  render(out: Float32Array, offset: number, n: number): void {
    let i = 0;
    while (i < n) {
      if (!this.unit || this.unitPos >= this.unit.length) {
        this.unit = this.advance();
        this.unitPos = 0;
      }
      const u = this.unit;
      // Blocks never cross a control tick, so the output does not depend on how callers slice reads.
      const count = Math.min(n - i, u.length - this.unitPos, CONTROL - (this.unitPos % CONTROL));
      // Silent pauses draw no noise; which units are silent depends only on the seed.
      if (u.kind === 'syllable' || u.breath) this.noiseRng.fillNoise(this.noise, count);
      if (u.kind === 'pause') this.renderPause(u, out, offset + i, count);
      else this.renderSyllable(u, out, offset + i, count);
      this.unitPos += count;
      this.cursor += count;
      i += count;
    }
  }

  private renderPause(u: Pause, out: Float32Array, at: number, n: number): void {
    const r1 = this.formants[0]!;
    const r2 = this.formants[1]!;
    const r3 = this.formants[2]!;
    const r4 = this.formants[3]!;
    if (!u.breath && Math.abs(r4.y1) + Math.abs(r4.y2) + Math.abs(r1.y1) < 1e-7) {
      out.fill(0, at, at + n);
      return;
    }
    const br = this.breathRes;
    const noise = this.noise;
    const gain = this.voicedGain;
    for (let k = 0; k < n; k++) {
      let s = r4.tick(r3.tick(r2.tick(r1.tick(0)))) * gain;
      if (u.breath) {
        const t = (this.unitPos + k) / u.length;
        const env = t > 0.15 && t < 0.85 ? Math.sin((Math.PI * (t - 0.15)) / 0.7) : 0;
        s += br.tick(noise[k]!) * env * 0.02;
      }
      out[at + k] = softLimit(s);
    }
  }

  /** Pitch and formant targets at a control tick. */
  private control(u: Syllable, pos: number): void {
    const t = pos / u.length;
    this.drift += (this.rng.next() - 0.5) * 0.004 - this.drift * 0.05;
    this.f0 = (u.f0Start + (u.f0End - u.f0Start) * t) * (1 + u.accent * Math.sin(Math.PI * t) + this.drift);
    // Formants glide from the onset locus to the vowel over its first 35 %, then drift to schwa.
    const vowelLen = u.length - u.onsetLength;
    const v = pos >= u.onsetLength ? (pos - u.onsetLength) / Math.max(1, vowelLen) : 0;
    const g = v < 0.35 ? v / 0.35 : 1;
    const late = v > 0.8 ? (v - 0.8) / 0.2 : 0;
    for (let f = 0; f < 4; f++) {
      const target = u.vowel[f]! + (SCHWA[f]! * this.scale - u.vowel[f]!) * 0.25 * late;
      const freq = u.from[f]! + (target - u.from[f]!) * g;
      this.formants[f]!.set(freq, BANDWIDTHS[f]! * (0.85 + 0.15 * this.scale), this.sr);
    }
  }

  private renderSyllable(u: Syllable, out: Float32Array, at: number, n: number): void {
    const sr = this.sr;
    const pos0 = this.unitPos;
    if (pos0 === 0) {
      const onset = u.onset;
      if (onset.type === 'fricative') this.fric.set(onset.centre, onset.width, sr);
      else if (onset.type === 'stop') this.fric.set(onset.centre, 2000, sr);
    }
    if (pos0 % CONTROL === 0) this.control(u, pos0);
    const r1 = this.formants[0]!;
    const r2 = this.formants[1]!;
    const r3 = this.formants[2]!;
    const r4 = this.formants[3]!;
    const fr = this.fric;
    const noise = this.noise;
    const onset = u.onset;
    const attack = 0.018 * sr;
    const release = 0.05 * sr;
    const aspirationLen = 0.025 * sr;
    const burstAt = Math.round(u.onsetLength * 0.7);
    const gain = this.voicedGain;
    const inc = this.f0 / sr;
    let phase = this.phase;
    let jitter = this.periodF0Jitter;
    let shimmer = this.periodGain;
    let lastNoise = this.lastNoise;
    let energy = 0;
    let counted = 0;
    // Plain locals for the per-sample branch: the onset objects have several shapes.
    const kind =
      onset.type === 'fricative' ? 1 : onset.type === 'stop' ? 2 : onset.type === 'sonorant' ? 3 : 0;
    const voicedOnset = (onset.type === 'fricative' || onset.type === 'stop') && onset.voiced;
    const fricLevel = onset.type === 'fricative' ? onset.level : 0;
    const onsetLength = u.onsetLength;
    const length = u.length;
    const level = u.level;
    const fricIn = 0.012 * sr;
    const fricOut = 0.01 * sr;
    const burstTau = 0.006 * sr;
    for (let k = 0; k < n; k++) {
      const pos = pos0 + k;
      let voice = 0;
      let fricEnv = 0;
      let aspiration = 0;
      const inVowel = pos >= onsetLength;
      if (inVowel) {
        const v = pos - onsetLength;
        const e = v < attack ? v / attack : 1;
        const r = (length - pos) / release;
        voice = level * (r < e ? r : e);
        if (kind === 2 && !voicedOnset && v < aspirationLen) aspiration = 0.35 * (1 - v / aspirationLen);
      } else if (kind === 1) {
        const a = pos / fricIn;
        const b = (onsetLength - pos) / fricOut;
        const e = a < b ? (a < 1 ? a : 1) : b < 1 ? b : 1;
        fricEnv = fricLevel * e;
        if (voicedOnset) voice = 0.3 * e;
      } else if (kind === 2) {
        if (pos >= burstAt) fricEnv = 0.9 * Math.exp(-(pos - burstAt) / burstTau);
        else if (voicedOnset) voice = 0.12;
      } else if (kind === 3) {
        voice = 0.45 * level * (pos < attack ? pos / attack : 1);
      }
      // Glottal source: one pulse per period, with a little jitter and shimmer.
      phase += inc * jitter;
      if (phase >= 1) {
        phase -= 1;
        jitter = 1 + (this.rng.next() - 0.5) * 0.02;
        shimmer = 1 + (this.rng.next() - 0.5) * 0.1;
      }
      const nz = noise[k]!;
      const pulse = GLOTTAL[(phase * GLOTTAL_SIZE) | 0]!;
      const source = (pulse * shimmer + (phase < 0.5 ? nz * 0.06 : 0)) * voice + nz * aspiration;
      const tract = r4.tick(r3.tick(r2.tick(r1.tick(source))));
      const fricative = fr.tick(nz - lastNoise);
      lastNoise = nz;
      const voiced = tract * gain;
      if (inVowel) {
        energy += voiced * voiced;
        counted++;
      }
      out[at + k] = softLimit(voiced + fricative * fricEnv * 0.25);
    }
    this.phase = phase;
    this.periodF0Jitter = jitter;
    this.periodGain = shimmer;
    this.lastNoise = lastNoise;
    this.vowelEnergy += energy;
    this.vowelSamples += counted;
  }
}

// Vowel nuclei at this RMS put the whole voice near -18 LUFS (checked with ffmpeg ebur128 in the tests).
const VOWEL_RMS_TARGET = 0.178;

/** Gain that brings this voice's vowel nuclei to the target RMS, measured on a short private render. */
function calibrate(seed: string, genderAndAge: string | undefined, sampleRate: number): number {
  const probe = new VoiceEngine(`${seed}:calibration`, genderAndAge, sampleRate, 0, sampleRate * 4, 1);
  const scratch = new Float32Array(sampleRate * 4);
  probe.render(scratch, 0, scratch.length);
  const rms = Math.sqrt(probe.vowelEnergy / Math.max(1, probe.vowelSamples));
  return rms > 0 ? VOWEL_RMS_TARGET / rms : 1;
}

/**
 * A source rendered block by block: `render` writes frames [done, done + n) into `first`, and for a stereo renderer
 * into `second` too (null on a mono output, where it writes the mean of the pair: `putFrame`). Output channels past
 * the rendered ones repeat the first.
 */
function blockSource(
  channels: number,
  sampleRate: number,
  frames: number,
  rendered: 1 | 2,
  render: (first: Float32Array, second: Float32Array | null, n: number, done: number) => void,
): AudioSource {
  let done = 0;
  return {
    sampleRate,
    channels,
    frames,
    read(out) {
      const first = out[0];
      if (!first) return 0;
      const n = Math.min(first.length, frames - done);
      if (n <= 0) return 0;
      render(first, rendered === 2 && channels >= 2 ? out[1]! : null, n, done);
      for (let c = rendered; c < channels; c++) out[c]!.set(first.subarray(0, n));
      done += n;
      return n;
    },
  };
}

/** Writes stereo frame k: both channels, or their mean when the output is mono (`second` null). */
function putFrame(first: Float32Array, second: Float32Array | null, k: number, l: number, r: number): void {
  if (second) {
    first[k] = l;
    second[k] = r;
  } else first[k] = (l + r) * 0.5;
}

/** Speech-like voice of exactly `seconds`, speech between the head and tail silences. */
export function createVoiceSource(opts: VoiceOptions): AudioSource {
  const sr = opts.sampleRate ?? SAMPLE_RATE;
  const channels = opts.channels ?? 1;
  const frames = framesFor(opts.seconds, sr);
  const head = Math.min(frames, Math.round((opts.headSeconds ?? VOICE_HEAD_SECONDS) * sr));
  const tail = Math.round((opts.tailSeconds ?? VOICE_TAIL_SECONDS) * sr);
  const end = Math.max(head, frames - tail);
  const engine = new VoiceEngine(
    opts.seed,
    opts.genderAndAge,
    sr,
    head,
    end,
    calibrate(opts.seed, opts.genderAndAge, sr),
  );
  return blockSource(channels, sr, frames, 1, (first, _second, n) => engine.render(first, 0, n));
}

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

/** Options of the post-production mix. */
export interface PostMixOptions {
  seed: string;
  seconds: number;
  genderAndAge?: string | undefined;
  channels?: number | undefined;
  sampleRate?: number | undefined;
  style?: string | undefined;
}

/** Post-production mix: a voice over on a music bed that ducks under the voice and plays alone at head and tail. */
export function createPostMixSource(opts: PostMixOptions): AudioSource {
  const sr = opts.sampleRate ?? SAMPLE_RATE;
  const channels = opts.channels ?? 2;
  const frames = framesFor(opts.seconds, sr);
  const lead = Math.min(1.5, opts.seconds / 6);
  const voice = createVoiceSource({
    seed: `${opts.seed}:voice`,
    seconds: opts.seconds,
    genderAndAge: opts.genderAndAge,
    sampleRate: sr,
    channels: 1,
    headSeconds: lead,
    tailSeconds: lead,
  });
  const music = createMusicSource({
    seed: `${opts.seed}:music`,
    seconds: opts.seconds,
    sampleRate: sr,
    channels: 2,
    style: opts.style,
  });
  let v = new Float32Array(0);
  let ml = new Float32Array(0);
  let mr = new Float32Array(0);
  let env = 0;
  let duck = 1;
  const attack = 1 - Math.exp(-1 / (0.01 * sr));
  const releaseEnv = 1 - Math.exp(-1 / (0.25 * sr));
  const duckSpeed = 1 - Math.exp(-1 / (0.12 * sr));
  return blockSource(channels, sr, frames, 2, (first, second, n) => {
    if (v.length < n) {
      v = new Float32Array(n);
      ml = new Float32Array(n);
      mr = new Float32Array(n);
    }
    voice.read([v.subarray(0, n)]);
    music.read([ml.subarray(0, n), mr.subarray(0, n)]);
    for (let k = 0; k < n; k++) {
      const x = v[k]!;
      const a = x < 0 ? -x : x;
      env += (a - env) * (a > env ? attack : releaseEnv);
      // Music sits at -6 dB alone and about -18 dB under speech.
      const target = env > 0.02 ? 0.125 : 0.5;
      duck += (target - duck) * duckSpeed;
      putFrame(first, second, k, softLimit(x * 0.9 + ml[k]! * duck), softLimit(x * 0.9 + mr[k]! * duck));
    }
  });
}

/** Reads a whole source into memory (tests and short files only). */
export function readAll(source: AudioSource, blockFrames = 16_384): Float32Array[] {
  const out = Array.from({ length: source.channels }, () => new Float32Array(source.frames));
  const block = Array.from({ length: source.channels }, () => new Float32Array(blockFrames));
  let at = 0;
  for (let n = source.read(block); n > 0; n = source.read(block)) {
    for (let c = 0; c < source.channels; c++) out[c]!.set(block[c]!.subarray(0, n), at);
    at += n;
  }
  return out;
}
