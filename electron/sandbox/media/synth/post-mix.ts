// The post-production mix: a voice over on a music bed that ducks under the voice.
import { createMusicSource } from './music';
import { blockSource, framesFor, putFrame, SAMPLE_RATE, softLimit, type AudioSource } from './source';
import { createVoiceSource } from './voice';
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
