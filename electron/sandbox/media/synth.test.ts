import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  SAMPLE_RATE,
  createMusicSource,
  createPostMixSource,
  createVoiceSource,
  readAll,
  voiceOverSeconds,
  type AudioSource,
} from './synth';

function sha(chs: Float32Array[]): string {
  const h = createHash('sha256');
  for (const c of chs) h.update(Buffer.from(c.buffer, c.byteOffset, c.byteLength));
  return h.digest('hex');
}

function rms(x: Float32Array, from = 0, to = x.length): number {
  let s = 0;
  for (let i = from; i < to; i++) s += x[i]! * x[i]!;
  return Math.sqrt(s / Math.max(1, to - from));
}

function peak(x: Float32Array): number {
  let p = 0;
  for (const v of x) p = Math.max(p, Math.abs(v));
  return p;
}

/** RMS per 20 ms frame. */
function envelope(x: Float32Array, from: number, to: number): number[] {
  const frame = SAMPLE_RATE / 50;
  const out: number[] = [];
  for (let i = from; i + frame <= to; i += frame) out.push(rms(x, i, i + frame));
  return out;
}

describe('voice synth', () => {
  it('is deterministic: same seed, same samples; another seed, other samples', () => {
    const a = readAll(createVoiceSource({ seed: 's1', seconds: 5, genderAndAge: 'youngAdultMale' }));
    const b = readAll(createVoiceSource({ seed: 's1', seconds: 5, genderAndAge: 'youngAdultMale' }));
    const c = readAll(createVoiceSource({ seed: 's2', seconds: 5, genderAndAge: 'youngAdultMale' }));
    expect(sha(a)).toBe(sha(b));
    expect(sha(a)).not.toBe(sha(c));
  });

  it('does not depend on how reads are sliced', () => {
    const make = (): AudioSource => createPostMixSource({ seed: 'slices', seconds: 4, channels: 2 });
    expect(sha(readAll(make(), 777))).toBe(sha(readAll(make(), 65_536)));
  });

  it('has the exact length asked for and 150 wpm for word counts', () => {
    expect(voiceOverSeconds(150)).toBeCloseTo(60 + 0.5 + 0.7, 6);
    const src = createVoiceSource({ seed: 'len', seconds: voiceOverSeconds(25) });
    expect(src.frames).toBe(Math.round(voiceOverSeconds(25) * SAMPLE_RATE));
    expect(readAll(src)[0]!.length).toBe(src.frames);
  });

  it.each(['youngAdultMale', 'youngAdultFemale', 'child', 'seniorMale'])('sounds like speech (%s)', (g) => {
    const [x] = readAll(createVoiceSource({ seed: `speech-${g}`, seconds: 12, genderAndAge: g })) as [
      Float32Array,
    ];
    // Not silence, peaks under -1 dBFS, silent head.
    expect(rms(x)).toBeGreaterThan(0.03);
    expect(peak(x)).toBeLessThan(0.8913);
    expect(rms(x, 0, SAMPLE_RATE * 0.4)).toBe(0);
    // Speech-like: loud syllables and quiet gaps, several syllable onsets per second.
    const env = envelope(x, SAMPLE_RATE * 0.5, x.length - SAMPLE_RATE * 0.7);
    const sorted = [...env].sort((p, q) => p - q);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    const loud = sorted[Math.floor(sorted.length * 0.9)]!;
    const quiet = sorted[Math.floor(sorted.length * 0.1)]!;
    expect(loud / Math.max(quiet, 1e-6)).toBeGreaterThan(4);
    let onsets = 0;
    for (let i = 1; i < env.length; i++) if (env[i - 1]! < median * 0.5 && env[i]! >= median * 0.5) onsets++;
    const rate = onsets / (env.length / 50);
    expect(rate).toBeGreaterThan(1.5);
    expect(rate).toBeLessThan(7);
  });

  it('pitch follows genderAndAge: a child is higher than a man', () => {
    // Zero-crossing rate of the low band is a crude pitch proxy; compare medians over vowels.
    const zc = (g: string): number => {
      const [x] = readAll(createVoiceSource({ seed: 'pitch', seconds: 8, genderAndAge: g })) as [
        Float32Array,
      ];
      let lp = 0;
      let prev = 0;
      let crossings = 0;
      for (let i = 0; i < x.length; i++) {
        lp += (x[i]! - lp) * 0.02;
        if (prev < 0 && lp >= 0) crossings++;
        prev = lp;
      }
      return crossings;
    };
    expect(zc('child')).toBeGreaterThan(zc('middleAgeMale'));
  });
});

describe('music bed and post mix', () => {
  it('music is stereo, not silent, under -1 dBFS, with fades', () => {
    const [l, r] = readAll(createMusicSource({ seed: 'm', seconds: 10, style: 'upbeat' })) as [
      Float32Array,
      Float32Array,
    ];
    expect(rms(l)).toBeGreaterThan(0.05);
    expect(sha([l])).not.toBe(sha([r]));
    expect(Math.max(peak(l), peak(r))).toBeLessThan(0.8913);
    expect(rms(l, 0, 480)).toBeLessThan(rms(l, SAMPLE_RATE * 4, SAMPLE_RATE * 5) / 4);
  });

  it('post mix ducks the music under the voice', () => {
    const [l] = readAll(createPostMixSource({ seed: 'duck', seconds: 12, channels: 2 })) as [Float32Array];
    expect(peak(l)).toBeLessThan(0.8913);
    // Head (music alone) vs middle (voice over ducked music) are both clearly audible.
    expect(rms(l, SAMPLE_RATE * 0.5, SAMPLE_RATE * 1.5)).toBeGreaterThan(0.03);
    expect(rms(l, SAMPLE_RATE * 3, SAMPLE_RATE * 9)).toBeGreaterThan(0.03);
  });

  it('mono music is the downmix', () => {
    const src = createMusicSource({ seed: 'mono', seconds: 2, channels: 1 });
    expect(src.channels).toBe(1);
    expect(rms(readAll(src)[0]!)).toBeGreaterThan(0.03);
  });
});
