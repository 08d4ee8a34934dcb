import type { TONE_KEYS } from '../api/schemas';

/** One tone slider of script writing, by its API key. */
export type ToneKey = (typeof TONE_KEYS)[number];

/** The words at the two ends of each tone slider: negative leans to the first, positive to the second. */
export const TONE_POLES: Readonly<Record<ToneKey, readonly [string, string]>> = {
  seriousHumorous: ['Serious', 'Humorous'],
  conciseWordy: ['Concise', 'Wordy'],
  objectiveOpinionated: ['Objective', 'Opinionated'],
  sincereSarcastic: ['Sincere', 'Sarcastic'],
  journalisticCreative: ['Journalistic', 'Creative'],
};
