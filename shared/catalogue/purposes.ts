/**
 * Voice-over purposes. `radioTvAds` (the create-project default) is from docs:projects/create; the
 * rest of the list and the numeric ids are sandbox choices (the live list was not found, and the
 * search page types `purpose` as a number, so each purpose also has a number).
 */
export interface Purpose {
  id: string;
  /** Numeric id accepted by `GET /search?purpose=`. */
  numericId: number;
  name: string;
}

/** All purposes; the first is the default. */
export const PURPOSES: readonly Purpose[] = [
  { id: 'radioTvAds', numericId: 1, name: 'Radio and TV ads' },
  { id: 'onlineAds', numericId: 2, name: 'Online ads' },
  { id: 'corporate', numericId: 3, name: 'Corporate and training' },
  { id: 'elearning', numericId: 4, name: 'E-learning' },
  { id: 'explainerVideo', numericId: 5, name: 'Explainer video' },
  { id: 'ivrPhone', numericId: 6, name: 'IVR and phone messages' },
  { id: 'audiobook', numericId: 7, name: 'Audiobook' },
  { id: 'podcast', numericId: 8, name: 'Podcast' },
  { id: 'documentary', numericId: 9, name: 'Documentary' },
  { id: 'videoGame', numericId: 10, name: 'Video game' },
];

/** Default purpose of a voice over service (`radioTvAds`, docs/service.md#services). */
export const DEFAULT_PURPOSE = 'radioTvAds';

/** A purpose by string id or numeric id (number or numeric string), or undefined. */
export function findPurpose(id: string | number): Purpose | undefined {
  if (typeof id === 'number') return PURPOSES.find((p) => p.numericId === id);
  if (/^\d+$/.test(id)) return PURPOSES.find((p) => p.numericId === Number(id));
  return PURPOSES.find((p) => p.id === id);
}
