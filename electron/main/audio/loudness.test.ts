import { describe, expect, it } from 'vitest';
import {
  createLoudnessMeter,
  designTruePeakInterpolator,
  integratedLoudness,
  kWeightingCoefficients,
  loudnessRange,
  type LoudnessResult,
} from '../../../shared/audio/loudness';
import { pushInBlocks, stereoTones, toneSequence, type ToneSegment } from './test-support/test-signals';

function measure(
  planar: Float32Array[],
  sampleRate: number,
  block = 4096,
  weights?: number[],
): LoudnessResult {
  const meter = createLoudnessMeter({
    sampleRate,
    channels: planar.length,
    ...(weights ? { channelWeights: weights } : {}),
  });
  pushInBlocks(planar, (p, n) => meter.push(p, n), block);
  return meter.result();
}

describe('K-weighting coefficients', () => {
  // ITU-R BS.1770-4 Tables 1 and 2 (48 kHz).
  it('reproduce the published 48 kHz tables', () => {
    const { shelf, highPass } = kWeightingCoefficients(48000);
    expect(shelf.b0).toBeCloseTo(1.53512485958697, 12);
    expect(shelf.b1).toBeCloseTo(-2.69169618940638, 12);
    expect(shelf.b2).toBeCloseTo(1.19839281085285, 12);
    expect(shelf.a1).toBeCloseTo(-1.69065929318241, 12);
    expect(shelf.a2).toBeCloseTo(0.73248077421585, 12);
    expect(highPass.a1).toBeCloseTo(-1.99004745483398, 12);
    expect(highPass.a2).toBeCloseTo(0.99007225036621, 12);
  });

  it.each([22050, 44100, 88200, 96000, 192000])('are stable and unity-ish at 1 kHz for %i Hz', (fs) => {
    const { shelf, highPass } = kWeightingCoefficients(fs);
    for (const f of [shelf, highPass]) expect(Math.abs(f.a2)).toBeLessThan(1);
    // Response magnitude at 1 kHz ~ +0.69 dB at every rate (what makes a -23 dBFS stereo sine read -23 LUFS).
    const w = (2 * Math.PI * 1000) / fs;
    const mag = (q: typeof shelf): number => {
      const re = (c: number[]): number => c[0]! + c[1]! * Math.cos(-w) + c[2]! * Math.cos(-2 * w);
      const im = (c: number[]): number => c[1]! * Math.sin(-w) + c[2]! * Math.sin(-2 * w);
      const num = [q.b0, q.b1, q.b2];
      const den = [1, q.a1, q.a2];
      return Math.hypot(re(num), im(num)) / Math.hypot(re(den), im(den));
    };
    expect(20 * Math.log10(mag(shelf) * mag(highPass))).toBeCloseTo(0.69, 1);
  });
});

describe('EBU Tech 3341 minimum requirements', () => {
  it.each([44100, 48000, 96000])(
    'case 1: stereo 1 kHz at -23 dBFS reads -23.0 LUFS (M, S, I) at %i Hz',
    (fs) => {
      const r = measure(stereoTones(fs, [{ dbfs: -23, seconds: 20 }]), fs);
      expect(r.integratedLufs).toBeCloseTo(-23, 1);
      expect(Math.abs(r.integratedLufs! + 23)).toBeLessThanOrEqual(0.1);
      expect(Math.abs(r.maxMomentaryLufs! + 23)).toBeLessThanOrEqual(0.1);
      expect(Math.abs(r.maxShortTermLufs! + 23)).toBeLessThanOrEqual(0.1);
    },
  );

  it('case 2: stereo 1 kHz at -33 dBFS reads -33.0 LUFS', () => {
    const r = measure(stereoTones(48000, [{ dbfs: -33, seconds: 20 }]), 48000);
    expect(Math.abs(r.integratedLufs! + 33)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(r.maxShortTermLufs! + 33)).toBeLessThanOrEqual(0.1);
  });

  // Stereo 1 kHz sequences that must gate to -23.0 LUFS integrated.
  it.each<[string, ToneSegment[]]>([
    [
      'case 3: -36 / -23 / -36 dBFS (10 s, 60 s, 10 s) gates to -23.0 LUFS',
      [
        { dbfs: -36, seconds: 10 },
        { dbfs: -23, seconds: 60 },
        { dbfs: -36, seconds: 10 },
      ],
    ],
    [
      'case 4: -72 / -36 / -23 / -36 / -72 dBFS gates to -23.0 LUFS',
      [
        { dbfs: -72, seconds: 10 },
        { dbfs: -36, seconds: 10 },
        { dbfs: -23, seconds: 60 },
        { dbfs: -36, seconds: 10 },
        { dbfs: -72, seconds: 10 },
      ],
    ],
    [
      'case 5: -26 / -20 / -26 dBFS (20 s, 20.1 s, 20 s) reads -23.0 LUFS',
      [
        { dbfs: -26, seconds: 20 },
        { dbfs: -20, seconds: 20.1 },
        { dbfs: -26, seconds: 20 },
      ],
    ],
  ])('%s', (_name, segments) => {
    const r = measure(stereoTones(48000, segments), 48000);
    expect(Math.abs(r.integratedLufs! + 23)).toBeLessThanOrEqual(0.1);
  });

  it('case 6: 5.0 (L R -28, C -24, Ls Rs -30 dBFS) reads -23.0 LUFS with 1.41 surround weights', () => {
    const fs = 48000;
    const t = (db: number): Float32Array => toneSequence(fs, [{ dbfs: db, seconds: 20 }]);
    const r = measure([t(-28), t(-28), t(-24), t(-30), t(-30)], fs);
    expect(Math.abs(r.integratedLufs! + 23)).toBeLessThanOrEqual(0.1);
  });

  it('5.1 in L R C LFE Ls Rs order excludes the LFE channel', () => {
    const fs = 48000;
    const t = (db: number): Float32Array => toneSequence(fs, [{ dbfs: db, seconds: 10 }]);
    const withLfe = measure([t(-28), t(-28), t(-24), t(-6), t(-30), t(-30)], fs);
    expect(Math.abs(withLfe.integratedLufs! + 23)).toBeLessThanOrEqual(0.1);
    // The same six channels weighted equally would read far louder: the weighting really is applied.
    const flat = measure([t(-28), t(-28), t(-24), t(-6), t(-30), t(-30)], fs, 4096, [1, 1, 1, 1, 1, 1]);
    expect(flat.integratedLufs!).toBeGreaterThan(-10);
  });

  it('mono: a -23 dBFS 1 kHz sine reads -26.0 LUFS (one channel, weight 1)', () => {
    const r = measure([toneSequence(48000, [{ dbfs: -23, seconds: 10 }])], 48000);
    expect(Math.abs(r.integratedLufs! + 26)).toBeLessThanOrEqual(0.1);
  });

  it('results do not depend on how the stream is split into blocks', () => {
    const x = stereoTones(44100, [
      { dbfs: -30, seconds: 4 },
      { dbfs: -18, seconds: 5.37 },
    ]);
    const a = measure(x, 44100, 1000003);
    const b = measure(x, 44100, 777);
    expect(b.integratedLufs).toBeCloseTo(a.integratedLufs!, 9);
    expect(b.loudnessRangeLu).toBeCloseTo(a.loudnessRangeLu, 9);
    expect(b.truePeakDbtp).toBeCloseTo(a.truePeakDbtp!, 9);
    expect(b.maxMomentaryLufs).toBeCloseTo(a.maxMomentaryLufs!, 9);
  });
});

describe('gates and edge cases', () => {
  it('digital silence yields null levels, not -Infinity', () => {
    const r = measure([new Float32Array(48000 * 5), new Float32Array(48000 * 5)], 48000);
    expect(r).toMatchObject({
      integratedLufs: null,
      truePeakDbtp: null,
      samplePeakDbfs: null,
      loudnessRangeLu: 0,
    });
  });

  it('a signal below -70 LUFS is removed by the absolute gate', () => {
    const r = measure(stereoTones(48000, [{ dbfs: -80, seconds: 5 }]), 48000);
    expect(r.integratedLufs).toBeNull();
    expect(r.maxMomentaryLufs!).toBeLessThan(-70);
  });

  it('shorter than 400 ms: no gating block, no integrated loudness', () => {
    const r = measure(stereoTones(48000, [{ dbfs: -20, seconds: 0.3 }]), 48000);
    expect(r.integratedLufs).toBeNull();
    expect(r.maxShortTermLufs).toBeNull();
    expect(r.samplePeakDbfs!).toBeCloseTo(-20, 2);
  });

  it.each([
    // energies in LUFS -> expected integrated (relative gate at mean - 10 LU)
    [[-20, -20, -20, -20], -20],
    [[-20, -20, -40, -40], -20], // -40 is > 10 LU below the abs-gated mean (-22.7): gated out
    [[-20, -25], -21.8], // power mean, not the mean of the LUFS values
    [[-75, -80], null], // all below the absolute gate
  ] as Array<[number[], number | null]>)('integratedLoudness(%j) = %s', (levels, expected) => {
    const e = Float64Array.from(levels, (l) => 10 ** ((l + 0.691) / 10));
    const got = integratedLoudness(e);
    if (expected === null) expect(got).toBeNull();
    else expect(got!).toBeCloseTo(expected, 1);
  });

  it('loudnessRange is 0 for fewer than two gated short-term values', () => {
    expect(loudnessRange(new Float64Array([0.01]))).toBe(0);
  });
});

describe('EBU Tech 3342 loudness range', () => {
  it.each([
    [[-20, -30], 10],
    [[-20, -15], 5],
    [[-40, -20], 20],
    [[-50, -35, -20, -35, -50], 15],
  ])('stereo 1 kHz segments of 20 s at %j dBFS give LRA %i LU ±1', (levels, expected) => {
    const r = measure(
      stereoTones(
        48000,
        levels.map((dbfs) => ({ dbfs, seconds: 20 })),
      ),
      48000,
    );
    expect(Math.abs(r.loudnessRangeLu - expected)).toBeLessThanOrEqual(1);
  });
});

describe('true peak', () => {
  it('the interpolator is flat to 0.01 dB up to 0.25 fs and its skip bound holds', () => {
    const tp = designTruePeakInterpolator();
    for (const [p, h] of tp.phases.entries()) {
      const f = (p + 1) / tp.factor;
      for (const fr of [0.05, 0.15, 0.25]) {
        let re = 0;
        let im = 0;
        h.forEach((c, j) => {
          const tau = f + tp.half - 1 - j;
          re += c * Math.cos(2 * Math.PI * fr * tau);
          im += c * Math.sin(2 * Math.PI * fr * tau);
        });
        expect(Math.abs(20 * Math.log10(Math.hypot(re, im)))).toBeLessThan(0.01);
      }
      const l1 = h.reduce((s, c) => s + Math.abs(c), 0);
      expect(l1).toBeLessThanOrEqual(tp.gainBound + 1e-12);
    }
  });

  it.each([
    [45, -9.03],
    [60, -7.25],
  ])(
    'a -6 dBFS sine at fs/4 with %i° phase: sample peak %f dBFS, true peak -6.0 (+0.2/-0.4) dBTP',
    (deg, sp) => {
      const fs = 48000;
      const a = 10 ** (-6 / 20);
      const x = new Float32Array(fs * 2);
      for (let i = 0; i < x.length; i++) x[i] = a * Math.sin((Math.PI / 2) * i + (deg * Math.PI) / 180);
      const r = measure([x, x], fs);
      expect(r.samplePeakDbfs!).toBeCloseTo(sp, 1);
      expect(r.truePeakDbtp!).toBeGreaterThanOrEqual(-6.4);
      expect(r.truePeakDbtp!).toBeLessThanOrEqual(-5.8);
    },
  );

  it('matches the sample peak for a low-frequency sine (no inter-sample overshoot)', () => {
    const r = measure(stereoTones(48000, [{ dbfs: -3, seconds: 3 }]), 48000);
    expect(r.truePeakDbtp!).toBeCloseTo(-3, 1);
    expect(r.truePeakDbtp!).toBeGreaterThanOrEqual(r.samplePeakDbfs!);
  });

  it('catches a peak that arrives in the last samples of the stream', () => {
    const x = new Float32Array(48000);
    x[x.length - 2] = 0.5;
    x[x.length - 1] = 0.5;
    const r = measure([x], 48000);
    expect(r.truePeakDbtp!).toBeGreaterThan(r.samplePeakDbfs!);
  });

  it('true peak can be switched off', () => {
    const meter = createLoudnessMeter({ sampleRate: 48000, channels: 1, truePeak: false });
    meter.push([toneSequence(48000, [{ dbfs: -10, seconds: 1 }])]);
    expect(meter.result().truePeakDbtp).toBeNull();
  });

  it('rejects a wrong channel count', () => {
    const meter = createLoudnessMeter({ sampleRate: 48000, channels: 2 });
    expect(() => meter.push([new Float32Array(10)])).toThrow(/Expected 2 channels/);
  });
});
