// Pure data, no node:* or sandbox imports, so e2e specs and the bench can share it with the unit tests.

/** The two-part script of the sample voice over. */
export const SAMPLE_SCRIPT: readonly string[] = [
  'Hello and welcome to the spring sale.',
  'Everything must go, today only.',
];

/** A valid voice over service reading `parts` as part001, part002, ... */
export function voiceOverService(parts: readonly string[] = SAMPLE_SCRIPT) {
  return {
    subCategory: 'voice_over',
    language: 'eng-us',
    genderAndAge: 'youngAdultFemale',
    script: parts.map((text, i) => ({ [`part${String(i + 1).padStart(3, '0')}`]: text })),
  };
}

/** The valid services of a 30-second audio ad: scriptwriting, voice over and post production. */
export function audioAdsServices() {
  return [
    {
      subCategory: 'scriptwriting',
      seconds: 30,
      language: 'eng-us',
      topic: 'Fresh bread delivered',
      purpose: 'Sell more bread',
      targetAudience: 'Busy parents',
    },
    { subCategory: 'voice_over', language: 'eng-us', genderAndAge: 'middleAgeMale' },
    { subCategory: 'post-production', seconds: 30, trackId: 20 },
  ];
}
