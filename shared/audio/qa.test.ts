import { describe, expect, it } from 'vitest';
import { PURPOSES } from '../catalogue/purposes';
import {
  DELIVERY_TARGETS,
  defaultQaTarget,
  isDeliveryTargetId,
  qaBadgeText,
  qaTargetForPurpose,
  qaVerdict,
} from './qa';

const analysis = (integratedLufs: number | null, truePeakDbtp: number | null, durationSeconds = 30) => ({
  integratedLufs,
  truePeakDbtp,
  durationSeconds,
});

describe('qaVerdict', () => {
  it.each([
    ['ebu-r128', -23, -3, true],
    ['ebu-r128', -22.04, -3, true], // rounds to -22.0: on the edge of ±1, passes
    ['ebu-r128', -21.9, -3, false],
    ['ebu-r128', -24.2, -3, false],
    ['atsc-a85', -26, -3, true], // ±2 dB
    ['atsc-a85', -26.3, -3, false],
    ['podcast', -16.4, -1.0, true],
    ['podcast', -16, -0.9, false], // true peak over -1 dBTP
    ['streaming', -14, -1.5, true],
    ['streaming', null, null, false], // silence cannot pass a loudness target
  ] as const)('%s: I=%s LUFS, TP=%s dBTP -> pass=%s', (target, lufs, tp, pass) => {
    expect(qaVerdict(analysis(lufs, tp), target).pass).toBe(pass);
  });

  it('checks the duration against the ordered seconds of an audio ad', () => {
    const ok = qaVerdict(analysis(-23, -2, 30.3), 'ebu-r128', { orderedSeconds: 30 });
    expect(ok.checks.map((c) => c.id)).toEqual(['integrated', 'truePeak', 'duration']);
    expect(ok.pass).toBe(true);
    const long = qaVerdict(analysis(-23, -2, 31.2), 'ebu-r128', { orderedSeconds: 30 });
    expect(long.pass).toBe(false);
    expect(long.checks[2]).toMatchObject({
      id: 'duration',
      pass: false,
      measured: 31.2,
      expected: '30 ±0.5 s',
    });
    expect(long.checks[2]?.message).toMatch(/1\.20 s longer than the ordered 30 s/);
    expect(
      qaVerdict(analysis(-23, -2, 31.2), 'ebu-r128', { orderedSeconds: 30, durationToleranceSeconds: 2 })
        .pass,
    ).toBe(true);
  });

  it('explains a failure in the producer’s terms', () => {
    const v = qaVerdict(analysis(-18.26, 0.4), 'ebu-r128');
    expect(v.checks[0]?.message).toBe('Integrated -18.3 LUFS is 4.7 LU too loud for -23 ±1 LUFS.');
    expect(v.checks[1]?.message).toBe('True peak 0.4 dBTP exceeds the -1 dBTP ceiling.');
  });

  it('accepts a custom target object', () => {
    const v = qaVerdict(analysis(-20, -3), { ...DELIVERY_TARGETS.podcast, integratedLufs: -20 });
    expect(v).toMatchObject({ target: 'podcast', pass: true });
  });

  it('isDeliveryTargetId guards CLI/IPC input', () => {
    expect(isDeliveryTargetId('atsc-a85')).toBe(true);
    expect(isDeliveryTargetId('toString')).toBe(false);
  });
});

describe('QA target by purpose', () => {
  it.each([
    ['radioTvAds', 'ebu-r128'],
    ['documentary', 'ebu-r128'],
    ['videoGame', 'atsc-a85'],
    ['onlineAds', 'podcast'],
    ['podcast', 'podcast'],
    ['elearning', 'podcast'],
    [undefined, 'ebu-r128'], // the service's default purpose is radio and TV
    ['noSuchPurpose', 'ebu-r128'],
    ['__proto__', 'ebu-r128'],
  ] as const)('%s -> %s', (purpose, target) => {
    expect(qaTargetForPurpose(purpose)).toBe(target);
  });

  it('has a target for every catalogue purpose', () => {
    for (const p of PURPOSES) expect(isDeliveryTargetId(qaTargetForPurpose(p.id))).toBe(true);
    expect(new Set(PURPOSES.map((p) => qaTargetForPurpose(p.id))).size).toBeGreaterThan(1);
  });

  it("takes a project's purpose from its voice-over service", () => {
    const services = [
      { subCategory: 'scriptwriting', purpose: 'Sell more bread' },
      { subCategory: 'voice_over', purpose: 'onlineAds' },
      { subCategory: 'post-production' },
    ];
    expect(defaultQaTarget({ services })).toBe('podcast');
    expect(defaultQaTarget({ services: [{ subCategory: 'scriptwriting', purpose: 'podcast' }] })).toBe(
      'ebu-r128',
    );
  });
});

describe('qaBadgeText', () => {
  it('names the target a file passes', () => {
    expect(qaBadgeText(qaVerdict(analysis(-16.2, -1.5), 'podcast'))).toBe(
      '-16 LUFS podcast and online: pass',
    );
    expect(qaBadgeText(qaVerdict(analysis(-23, -3), 'ebu-r128'))).toBe('-23 LUFS EBU R128: pass');
  });

  it('names the target a file fails and what missed it', () => {
    expect(qaBadgeText(qaVerdict(analysis(-18.24, -3), 'ebu-r128'))).toBe('fails EBU R128 -23: -18.2 LUFS');
    expect(qaBadgeText(qaVerdict(analysis(-16, -0.4), 'podcast'))).toBe(
      'fails Podcast and online -16: true peak -0.4 dBTP',
    );
    expect(qaBadgeText(qaVerdict(analysis(null, null), 'streaming'))).toBe(
      'fails Streaming -14: not measurable',
    );
  });
});
