// The speech-like voice: a formant synthesiser reading syllables at 150 words a minute, its loudness calibrated
// so every voice lands near the same level.
import { voiceRange } from '../../../../shared/catalogue/gender-and-age';
import { createRng, type Rng } from '../prng';
import {
  blockSource,
  framesFor,
  SAMPLE_RATE,
  softLimit,
  VOICE_HEAD_SECONDS,
  VOICE_TAIL_SECONDS,
  type AudioSource,
} from './source';
import {
  BANDWIDTHS,
  CONTROL,
  GLOTTAL,
  GLOTTAL_SIZE,
  ONSETS,
  Resonator,
  SCHWA,
  VOWELS,
  type Pause,
  type Syllable,
  type Unit,
} from './vocal-tract';

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
