/**
 * Gender-and-age options. Ids and order: LEGACY list (docs/service.md#allowed-values, VoiceBunny ruby-carrot
 * mock);
 * display names, `active` flags and voice ranges: sandbox choice. `baby` is inactive so
 * GENDER_AND_AGE_NOT_ACTIVE is reachable.
 */
export interface GenderAndAge {
  id: string;
  name: string;
  active: boolean;
  /** Fundamental-frequency range of the synthetic voice, Hz. */
  pitchHz: readonly [number, number];
  /** Formant scale against an adult male vocal tract (shorter tract, higher formants). */
  formantScale: number;
}

/** All gender-and-age options, active or not. */
export const GENDER_AND_AGES: readonly GenderAndAge[] = [
  { id: 'baby', name: 'Baby', active: false, pitchHz: [300, 500], formantScale: 1.45 },
  { id: 'child', name: 'Child', active: true, pitchHz: [230, 360], formantScale: 1.32 },
  { id: 'teenageGirl', name: 'Teenage girl', active: true, pitchHz: [190, 300], formantScale: 1.2 },
  { id: 'teenageBoy', name: 'Teenage boy', active: true, pitchHz: [120, 200], formantScale: 1.08 },
  {
    id: 'youngAdultFemale',
    name: 'Young adult female',
    active: true,
    pitchHz: [175, 270],
    formantScale: 1.17,
  },
  { id: 'youngAdultMale', name: 'Young adult male', active: true, pitchHz: [95, 160], formantScale: 1.0 },
  { id: 'middleAgeFemale', name: 'Middle age female', active: true, pitchHz: [165, 250], formantScale: 1.15 },
  { id: 'middleAgeMale', name: 'Middle age male', active: true, pitchHz: [88, 150], formantScale: 0.98 },
  { id: 'seniorFemale', name: 'Senior female', active: true, pitchHz: [155, 235], formantScale: 1.12 },
  { id: 'seniorMale', name: 'Senior male', active: true, pitchHz: [90, 145], formantScale: 0.97 },
];

/** The option with this id, or undefined. */
export function findGenderAndAge(id: string): GenderAndAge | undefined {
  return GENDER_AND_AGES.find((g) => g.id === id);
}

/** Voice range for the synth; unknown ids fall back to a young adult female voice. */
export function voiceRange(id: string | undefined): {
  pitchHz: readonly [number, number];
  formantScale: number;
} {
  const g = (id && findGenderAndAge(id)) || findGenderAndAge('youngAdultFemale')!;
  return { pitchHz: g.pitchHz, formantScale: g.formantScale };
}
