/**
 * What the review screen works out from the take in words and marks: the markers of the notes on the waveform,
 * and what picking a contest winner does to the other entries.
 */
import type { Deliverable } from '../../../../shared/api';
import { plural } from '../../../../shared/text/plural';
import type { WaveformMarker } from '../../composables/use-waveform';
import { formatClock, parseTimestamps } from '../../display-text';
import type { ReviewVersion } from '../../stores/review';

/**
 * Markers of the notes behind earlier versions and, when given, of the note being written (`draft`); a click plays
 * from there.
 */
export function noteMarkers(
  versions: readonly Pick<ReviewVersion, 'number' | 'instructions'>[],
  draft: string | null,
): WaveformMarker[] {
  const list: WaveformMarker[] = [];
  for (const v of versions) {
    // Version n's instructions are the notes on version n - 1.
    if (!v.instructions) continue;
    parseTimestamps(v.instructions).forEach((t, i) =>
      list.push({
        id: `v${v.number - 1}-${i}`,
        seconds: t.seconds,
        label: `v${v.number - 1} ${formatClock(t.seconds)}`,
        tone: 'earlier',
        title: `Note on version ${v.number - 1}: ${v.instructions}`,
      }),
    );
  }
  if (draft !== null) {
    parseTimestamps(draft).forEach((t, i) =>
      list.push({
        id: `draft-${i}`,
        seconds: t.seconds,
        label: formatClock(t.seconds),
        tone: 'draft',
        title: 'In the note you are writing',
      }),
    );
  }
  return list;
}

/**
 * What picking a winner does to the rest: the service rejects the other entries still in review, and orders no
 * replacement for them. Counted from `entries` (the project's deliverables) when known, otherwise said in general.
 */
export function winnerMessage(own: Deliverable | null, entries: readonly Deliverable[] | null): string {
  const others =
    own && entries
      ? entries.filter(
          (d) =>
            d.id !== own.id &&
            d.serviceSubCategory === own.serviceSubCategory &&
            (d.status === 'reviewable' || d.status === 'revisionRequested'),
        ).length
      : null;
  const losers =
    others === null
      ? 'The other entries still in review become rejected'
      : others === 0
        ? 'No other entry is still in review'
        : `The ${plural(others, 'other entry', 'other entries')} still in review become${others === 1 ? 's' : ''} rejected`;
  const tail = others === 0 ? '' : ' (no replacement is ordered for them)';
  return `${losers}${tail}. A contest has one winner; the choice cannot be changed afterwards.`;
}
