/**
 * The music library. Track shape, type `mood`, and track 20 = Casual1 mood/casual:
 * docs/service.md#categories-attributes-and-tracks (docs:tracks/getAll, docs:tracks/get). The other 23
 * tracks, the genre type and the subtypes:
 * sandbox choices. The sandbox adds `url: { wav, mp3 }` from its media store
 * (electron/sandbox/data/track-media.ts); Takedesk's fallbacks leave them empty.
 */
export interface LibraryTrack {
  id: number;
  fileName: string;
  type: string;
  typeLabel: string;
  subType: string;
  subTypeLabel: string;
}

const SUBTYPES: readonly (readonly [type: string, subType: string, label: string])[] = [
  ['mood', 'casual', 'Casual'],
  ['mood', 'corporate', 'Corporate'],
  ['mood', 'upbeat', 'Upbeat'],
  ['mood', 'dramatic', 'Dramatic'],
  ['mood', 'calm', 'Calm'],
  ['mood', 'inspiring', 'Inspiring'],
  ['genre', 'pop', 'Pop'],
  ['genre', 'rock', 'Rock'],
  ['genre', 'electronic', 'Electronic'],
  ['genre', 'acoustic', 'Acoustic'],
  ['genre', 'jazz', 'Jazz'],
  ['genre', 'cinematic', 'Cinematic'],
];

const TYPE_LABELS: Record<string, string> = { mood: 'Mood', genre: 'Genre' };

// Ids start at 20 so that Casual1 is track 20, as in the live docs' example.
const FIRST_ID = 20;

/** The 24 tracks: two per subtype ("Casual1", "Casual2", ...). */
export const TRACKS: readonly LibraryTrack[] = [0, 1].flatMap((round) =>
  SUBTYPES.map(([type, subType, label], i) => ({
    id: FIRST_ID + round * SUBTYPES.length + i,
    fileName: `${label}${round + 1}`,
    type,
    typeLabel: TYPE_LABELS[type]!,
    subType,
    subTypeLabel: label,
  })),
);

/** The track with this id (number or numeric string), or undefined. */
export function findTrack(id: number | string): LibraryTrack | undefined {
  const n = typeof id === 'number' ? id : /^\d+$/.test(id) ? Number(id) : NaN;
  return TRACKS.find((t) => t.id === n);
}

/** GET /tracks?typeId=&subtypeId=: filters by type and subtype id (case-insensitive); empty means any. */
export function filterTracks(query: {
  typeId?: string | undefined;
  subtypeId?: string | undefined;
}): LibraryTrack[] {
  const type = query.typeId?.trim().toLowerCase() || undefined;
  const sub = query.subtypeId?.trim().toLowerCase() || undefined;
  return TRACKS.filter((t) => (!type || t.type === type) && (!sub || t.subType === sub));
}
