// The speech synthesis tables: a formant resonator, the glottal pulse, vowel formants and consonant onsets, and the
// units (syllables and pauses) a voice is planned in.

/** Two-pole resonator (Klatt 1980 form, unity gain at DC): one formant of the vocal tract. */
export class Resonator {
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
export const GLOTTAL_SIZE = 2048;
export const GLOTTAL = ((): Float32Array => {
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
export const VOWELS: readonly (readonly [number, number, number, number])[] = [
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
export const SCHWA = VOWELS[9]!;
export const BANDWIDTHS = [80, 110, 150, 220] as const;

export type Onset =
  | { type: 'none' }
  | { type: 'fricative'; centre: number; width: number; level: number; voiced: boolean }
  | { type: 'stop'; centre: number; voiced: boolean }
  | { type: 'sonorant'; locus: readonly [number, number, number, number] };

export const ONSETS: readonly Onset[] = [
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

export interface Syllable {
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
export interface Pause {
  kind: 'pause';
  length: number;
  breath: boolean;
}
export type Unit = Syllable | Pause;

export const CONTROL = 64; // samples between formant/pitch updates
