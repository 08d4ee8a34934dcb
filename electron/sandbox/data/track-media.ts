import type { LibraryTrack } from '../../../shared/catalogue/tracks';
import type { MediaDescriptor } from '../media/media-store';

/** Media descriptor of a track's 30-second preview, for the store (format wav or mp3). */
export function trackMedia(track: LibraryTrack, format: 'wav' | 'mp3'): MediaDescriptor {
  return { kind: 'track', seed: `track-${track.id}`, style: track.subType, seconds: 30, channels: 2, format };
}
