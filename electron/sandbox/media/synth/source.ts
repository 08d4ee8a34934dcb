// Pull-based audio sources and the pieces every generator shares: the output rate, lengths in frames, the soft
// limiter, a source rendered block by block, and reading a whole source (tests).

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
export const softLimit = (x: number): number => softKnee(x, 0.75, 0.885);

/**
 * A source rendered block by block: `render` writes frames [done, done + n) into `first`, and for a stereo renderer
 * into `second` too (null on a mono output, where it writes the mean of the pair: `putFrame`). Output channels past
 * the rendered ones repeat the first.
 */
export function blockSource(
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
export function putFrame(
  first: Float32Array,
  second: Float32Array | null,
  k: number,
  l: number,
  r: number,
): void {
  if (second) {
    first[k] = l;
    second[k] = r;
  } else first[k] = (l + r) * 0.5;
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
