import { describe, expect, it } from 'vitest';
import { dbToAmplitude, formatGainDb, matchGainDb, MATCH_GAIN_LIMIT_DB } from './match-gain';

describe('matchGainDb', () => {
  it('brings takes 6 dB apart to the same target', () => {
    expect(matchGainDb(-25.4, -23)).toBe(2.4);
    expect(matchGainDb(-17, -23)).toBe(-6);
    expect(matchGainDb(-23, -23)).toBe(0);
    // Two takes 6 dB apart, after their gains, play at the same level.
    const quiet = -29;
    const loud = -23;
    expect(quiet + matchGainDb(quiet, -16)!).toBe(loud + matchGainDb(loud, -16)!);
  });

  it('has no gain for a take without a figure', () => {
    expect(matchGainDb(null, -23)).toBeNull();
    expect(matchGainDb(undefined, -23)).toBeNull();
    expect(matchGainDb(Number.NEGATIVE_INFINITY, -23)).toBeNull();
    expect(matchGainDb(Number.NaN, -23)).toBeNull();
  });

  it('limits the boost and the cut', () => {
    expect(matchGainDb(-70, -23)).toBe(MATCH_GAIN_LIMIT_DB);
    expect(matchGainDb(0, -23)).toBe(-MATCH_GAIN_LIMIT_DB);
  });

  it('rounds to the tenth shown', () => {
    expect(matchGainDb(-25.44, -23)).toBe(2.4);
    expect(Object.is(matchGainDb(-23.01, -23), 0)).toBe(true);
  });
});

describe('formatGainDb', () => {
  it('signs the figure', () => {
    expect(formatGainDb(2.4)).toBe('+2.4 dB');
    expect(formatGainDb(-6)).toBe('−6.0 dB');
    expect(formatGainDb(0)).toBe('0.0 dB');
  });
});

describe('dbToAmplitude', () => {
  it('turns -6.02 dB into half the amplitude', () => {
    expect(dbToAmplitude(-6.0206)).toBeCloseTo(0.5, 4);
    expect(dbToAmplitude(0)).toBe(1);
  });
});
