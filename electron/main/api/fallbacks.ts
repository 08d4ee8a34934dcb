/**
 * Built-in lists for services without the endpoints of the live pages (categories, attributes, values, tracks;
 * docs/service.md#categories-attributes-and-tracks):
 * the catalogue seed data the sandbox serves too (shared/catalogue), so the forms still offer choices.
 */
import type { AttributeValue, Category, CategoryAttribute, Track } from '../../../shared/api';
import { CATEGORIES, listAttributes, listAttributeValues } from '../../../shared/catalogue/categories';
import { filterTracks, findTrack, type LibraryTrack } from '../../../shared/catalogue/tracks';

/** What the client answers when a facts endpoint is missing; undefined means "no fallback, keep the error". */
export interface ApiFallbacks {
  categories(): Category[];
  attributes(categoryId: string): CategoryAttribute[];
  attributeValues(categoryId: string, attributeId: string): AttributeValue[];
  tracks(query: { typeId?: string; subtypeId?: string }): Track[];
  track(id: number): Track | undefined;
}

// Built-in tracks have no files behind them on a foreign service: ids and labels only, empty links.
const withoutMedia = (track: LibraryTrack): Track => ({ ...track, url: { wav: '', mp3: '' } });

/** The sandbox seed data as fallbacks. */
export function builtinFallbacks(): ApiFallbacks {
  return {
    categories: () => structuredClone(CATEGORIES) as Category[],
    attributes(categoryId) {
      const result = listAttributes(categoryId);
      return result.ok ? result.value.map((item) => ({ ...item })) : [];
    },
    attributeValues(categoryId, attributeId) {
      const result = listAttributeValues(categoryId, attributeId);
      return result.ok ? result.value.map((item) => ({ ...item })) : [];
    },
    tracks: (query) => filterTracks(query).map(withoutMedia),
    track(id) {
      const track = findTrack(id);
      return track ? withoutMedia(track) : undefined;
    },
  };
}
