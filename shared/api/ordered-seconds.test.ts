import { describe, expect, it } from 'vitest';
import { orderedSecondsOf } from './ordered-seconds';

type Service = { subCategory: string; seconds?: number; units?: number; unitType?: string };
const ad = (...services: Service[]) => ({ mainService: 'audio_ads', services }) as never;

describe('orderedSecondsOf', () => {
  it.each<[string, unknown, string | null, number | null]>([
    ['post production seconds', ad({ subCategory: 'post-production', seconds: 30 }), 'post-production', 30],
    ['voice over seconds of the same ad', ad({ subCategory: 'voice_over', seconds: 25 }), 'voice_over', 25],
    [
      'units counted in seconds (live shape)',
      ad({ subCategory: 'post-production', units: 45, unitType: 'seconds' }),
      'post-production',
      45,
    ],
    [
      'seconds win over units',
      ad({ subCategory: 'post-production', seconds: 30, units: 60, unitType: 'seconds' }),
      'post-production',
      30,
    ],
    [
      'units counted in words are no length',
      ad({ subCategory: 'voice_over', units: 120, unitType: 'words' }),
      'voice_over',
      null,
    ],
    [
      'zero is no ordered length',
      ad({ subCategory: 'post-production', seconds: 0 }),
      'post-production',
      null,
    ],
    [
      'negative units are no ordered length',
      ad({ subCategory: 'post-production', units: -5, unitType: 'seconds' }),
      'post-production',
      null,
    ],
    [
      'scriptwriting has none',
      ad({ subCategory: 'scriptwriting' }, { subCategory: 'post-production', seconds: 30 }),
      'scriptwriting',
      null,
    ],
    ['a service the project lacks', ad({ subCategory: 'voice_over', seconds: 30 }), 'post-production', null],
    [
      'a voice over project has none',
      { mainService: 'voice_over', services: [{ subCategory: 'voice_over', seconds: 30 }] },
      'voice_over',
      null,
    ],
    ['no project', null, 'post-production', null],
    ['no service named', ad({ subCategory: 'post-production', seconds: 30 }), null, null],
  ])('%s', (_name, project, subCategory, expected) => {
    expect(orderedSecondsOf(project as never, subCategory)).toBe(expected);
  });
});
