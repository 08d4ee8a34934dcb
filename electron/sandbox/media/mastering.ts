import { createLoudnessMeter } from '../../../shared/audio/loudness';
import { DELIVERY_TARGETS, qaTargetForPurpose, type DeliveryTargetId } from '../../../shared/audio/qa';
import { createRng } from './prng';
import { softKnee, type AudioSource } from './synth';

// The limiter's ceiling sits 3 dB under full scale so that inter-sample peaks and the MP3 encoder's overshoot
// still leave the file under the -1 dBTP every delivery target asks for.
const KNEE = 0.56;
const CEILING = 0.708;
const BLOCK = 16_384;

const limit = (x: number): number => softKnee(x, KNEE, CEILING);

/** Applies gain and limiter to samples [0, n) in place. */
function master(samples: Float32Array, n: number, gain: number): void {
  for (let i = 0; i < n; i++) samples[i] = limit(samples[i]! * gain);
}

/** Integrated loudness (null for silence) after gain and limiter (none for a null gain), and the sample peak before. */
function measure(source: AudioSource, gain: number | null): { lufs: number | null; peak: number } {
  const meter = createLoudnessMeter({
    sampleRate: source.sampleRate,
    channels: source.channels,
    truePeak: false,
  });
  const block = Array.from({ length: source.channels }, () => new Float32Array(BLOCK));
  let peak = 0;
  for (let n = source.read(block); n > 0; n = source.read(block)) {
    for (const channel of block) {
      for (let i = 0; i < n; i++) peak = Math.max(peak, Math.abs(channel[i]!));
      if (gain !== null) master(channel, n, gain);
    }
    meter.push(block, n);
  }
  return { lufs: meter.result().integratedLufs, peak };
}

const dbToGain = (db: number): number => 10 ** (db / 20);

/**
 * The audio of `make()` mastered to `lufs` integrated loudness, as a mastering engineer would: measure, set the
 * gain, limit the peaks, and measure again where the limiter took some loudness away (it costs a pass or two
 * over the audio before the first block is served; deliverables are short). `make` must give the same audio on
 * every call (the generators are pure functions of their seed).
 */
export function createMasteredSource(make: () => AudioSource, lufs: number): AudioSource {
  let gain = 1;
  const raw = measure(make(), null);
  if (raw.lufs !== null) {
    gain = dbToGain(lufs - raw.lufs);
    for (let pass = 0; pass < 2 && raw.peak * gain > KNEE; pass++) {
      const limited = measure(make(), gain).lufs;
      if (limited === null || Math.abs(lufs - limited) < 0.1) break;
      gain *= dbToGain(lufs - limited);
    }
  }
  const source = make();
  return {
    sampleRate: source.sampleRate,
    channels: source.channels,
    frames: source.frames,
    read(out) {
      const n = source.read(out);
      for (const channel of out) master(channel, n, gain);
      return n;
    },
  };
}

/** Share of takes the sandbox's creatives master out of spec, so a failed QA check is the exception. */
export const OUT_OF_SPEC_RATE = 0.1;

/** The loudness a take is mastered to, and whether it meets the target its purpose calls for. */
export interface TakeLoudness {
  target: DeliveryTargetId;
  lufs: number;
  inSpec: boolean;
}

/**
 * The level a creative masters a take to: its purpose's target (shared/audio/qa.ts), except for a seeded share of
 * takes mastered to the other family's level — a broadcast spot at web loudness, a podcast at broadcast loudness,
 * the common real mistake. The same seed always gives the same answer.
 */
export function takeLoudness(
  purpose: string | undefined,
  seed: string,
  outOfSpecRate = OUT_OF_SPEC_RATE,
): TakeLoudness {
  const target = qaTargetForPurpose(purpose);
  const level = DELIVERY_TARGETS[target].integratedLufs;
  const inSpec = !(createRng(`out-of-spec:${seed}`).next() < outOfSpecRate);
  const wrong = level <= -20 ? DELIVERY_TARGETS.podcast : DELIVERY_TARGETS['ebu-r128'];
  return { target, lufs: inSpec ? level : wrong.integratedLufs, inSpec };
}
