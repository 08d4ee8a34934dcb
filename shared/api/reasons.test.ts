import { describe, expect, it } from 'vitest';
import {
  cancelFeePercent,
  isRevisionCodeFor,
  REVISION_CODES,
  revisionCodesFor,
  revisionFeePercent,
} from './reasons';

// docs/service.md#revision-codes: three codes for every service, more per service; only these are accepted.
const EVERY = ['quality_issues', 'pro_didnt_follow_instructions', 'change_specifications'];

describe('revision codes (docs/service.md#revision-codes)', () => {
  it.each([
    [
      'scriptwriting',
      [
        ...EVERY,
        'spelling_or_grammar',
        'tone_of_voice',
        'continuity',
        'call_to_action',
        'brand_issues',
        'hierarchy_issues',
      ],
    ],
    ['voice_over', [...EVERY, 'incorrect_pro']],
    ['post-production', [...EVERY, 'change_background', 'change_sfx']],
    ['some_new_service', EVERY],
  ])('%s offers exactly the live list', (service, codes) => {
    expect(revisionCodesFor(service).map((r) => r.code)).toEqual(codes);
  });

  it('holds no invented code', () => {
    for (const invented of [
      'pronunciation',
      'pacing',
      'tone',
      'script_change',
      'timing',
      'audio_quality',
      'other',
    ])
      expect(REVISION_CODES.some((r) => r.code === invented)).toBe(false);
  });

  it('refuses a code of another service', () => {
    expect(isRevisionCodeFor('incorrect_pro', 'voice_over')).toBe(true);
    expect(isRevisionCodeFor('incorrect_pro', 'scriptwriting')).toBe(false);
    expect(isRevisionCodeFor('change_sfx', 'voice_over')).toBe(false);
  });

  it('no code costs what change_specifications costs: 15 %; the other codes are free', () => {
    expect(revisionFeePercent(undefined)).toBe(15);
    expect(revisionFeePercent('')).toBe(15);
    expect(revisionFeePercent('change_specifications')).toBe(15);
    expect(revisionFeePercent('quality_issues')).toBe(0);
    expect(revisionFeePercent('incorrect_pro')).toBe(0);
  });
});

describe('cancel fees (docs/service.md#cancel-reasons)', () => {
  it.each([
    ['no_longer_needed', true, 30],
    ['no_longer_needed.duplicated', true, 30],
    ['other_alternative_selected.lower_price_competitor', true, 30],
    ['change_specifications', true, 30],
    [undefined, true, 30],
    ['no_longer_needed', false, 0],
    ['late_delivery.1_2', true, 0],
    ['quality_issues', true, 0],
  ] as const)('%s with deliverables in review: %s -> %d %', (code, inReview, fee) => {
    expect(cancelFeePercent(code, inReview)).toBe(fee);
  });
});
