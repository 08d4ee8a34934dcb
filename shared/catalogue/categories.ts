import { GENDER_AND_AGES } from './gender-and-age';
import { LANGUAGES } from './languages';
import { PURPOSES } from './purposes';
import { fail, ok, type DataResult } from './result';
import { VOICE_PERSPECTIVES } from './voice-perspectives';

/**
 * Categories, their attributes and attribute values. Shape of GET /categories, attributes and
 * values: docs/service.md#categories-attributes-and-tracks. Ids `voice_over`, `audio_ads`, `scriptwriting`:
 * idem;
 * `post-production` and its brand name: the spec's subCategory value (the live id was [CUT]).
 * The attribute lists, their defaults, which attributes have no values and which category has
 * no search: sandbox choices.
 */
export interface SubCategory {
  id: string;
  brandName: string;
  formats: string[];
}

/** Element of GET /categories. */
export interface Category {
  id: string;
  name: string;
  subCategories: SubCategory[];
}

/** Element of GET /categories/{id}/attributes. */
export interface Attribute {
  id: string;
  name: string;
  defaultValue: string | number;
}

/** Element of GET /categories/{id}/attribute/{attributeId}/values. */
export interface AttributeValue {
  id: string;
  name: string;
}

/** API-enabled categories, as GET /categories answers. */
export const CATEGORIES: readonly Category[] = [
  {
    id: 'voice_over',
    name: 'voice',
    subCategories: [{ id: 'voice_over', brandName: 'Voice over', formats: ['mp3', 'wav'] }],
  },
  {
    id: 'audio_ads',
    name: 'audio ads',
    subCategories: [
      { id: 'scriptwriting', brandName: 'Script writing', formats: ['pdf'] },
      { id: 'voice_over', brandName: 'Voice over', formats: ['mp3', 'wav'] },
      { id: 'post-production', brandName: 'Post production', formats: ['mp3', 'wav'] },
    ],
  },
];

const ATTRIBUTES: Record<string, readonly Attribute[]> = {
  voice_over: [
    { id: 'language', name: 'Language', defaultValue: 'eng-us' },
    { id: 'genderAndAge', name: 'Gender and age', defaultValue: 'youngAdultFemale' },
    { id: 'purpose', name: 'Purpose', defaultValue: 'radioTvAds' },
    { id: 'script', name: 'Script', defaultValue: '' },
  ],
  audio_ads: [
    { id: 'language', name: 'Language', defaultValue: 'eng-us' },
    { id: 'genderAndAge', name: 'Gender and age', defaultValue: 'youngAdultFemale' },
    { id: 'purpose', name: 'Purpose', defaultValue: 'radioTvAds' },
    { id: 'voicePerspective', name: 'Voice perspective', defaultValue: 'service-pro-choice' },
    { id: 'seconds', name: 'Length in seconds', defaultValue: 30 },
    { id: 'topic', name: 'Topic', defaultValue: '' },
    { id: 'backgroundMusic', name: 'Background music', defaultValue: 'audioads-music-library' },
  ],
};

/** Attributes whose values are free input: asking for their values is ATTRIBUTE_NO_VALUES. */
export const FREE_INPUT_ATTRIBUTES: ReadonlySet<string> = new Set(['script', 'seconds', 'topic']);

/** Categories whose samples can be searched (audio_ads has none: SEARCH_NOT_AVAILABLE). */
export const SEARCHABLE_CATEGORIES: ReadonlySet<string> = new Set(['voice_over']);

function valuesOf(categoryId: string, attributeId: string): AttributeValue[] {
  switch (attributeId) {
    case 'language': {
      const service = categoryId === 'audio_ads' ? 'audio_ads' : 'voice_over';
      return LANGUAGES.filter((l) => l.active[service]).map(({ id, name }) => ({ id, name }));
    }
    case 'genderAndAge':
      return GENDER_AND_AGES.filter((g) => g.active).map(({ id, name }) => ({ id, name }));
    case 'purpose':
      return PURPOSES.map(({ id, name }) => ({ id, name }));
    case 'voicePerspective':
      return VOICE_PERSPECTIVES.map(({ id, name }) => ({ id, name }));
    case 'backgroundMusic':
      return [{ id: 'audioads-music-library', name: 'Music library' }];
    default:
      return [];
  }
}

/** The category with this id, or undefined. */
export function findCategory(id: string): Category | undefined {
  return CATEGORIES.find((c) => c.id === id);
}

/** GET /categories/{id}/attributes; unknown or not API-enabled ids are CATEGORY_NOT_AUTHORIZED. */
export function listAttributes(categoryId: string): DataResult<Attribute[], 'CATEGORY_NOT_AUTHORIZED'> {
  // Own keys only: `constructor`, `__proto__`, `toString`... are not categories.
  const attrs = Object.hasOwn(ATTRIBUTES, categoryId) ? ATTRIBUTES[categoryId] : undefined;
  if (!attrs)
    return fail('CATEGORY_NOT_AUTHORIZED', `Category ${categoryId} is not enabled for API projects`);
  return ok(attrs.map((a) => ({ ...a })));
}

/** GET /categories/{id}/attribute/{attributeId}/values, with the documented error codes. */
export function listAttributeValues(
  categoryId: string,
  attributeId: string,
): DataResult<
  AttributeValue[],
  'CATEGORY_NOT_AUTHORIZED' | 'ATTRIBUTE_NOT_CATEGORY' | 'ATTRIBUTE_NO_VALUES'
> {
  const attrs = Object.hasOwn(ATTRIBUTES, categoryId) ? ATTRIBUTES[categoryId] : undefined;
  if (!attrs)
    return fail('CATEGORY_NOT_AUTHORIZED', `Category ${categoryId} is not enabled for API projects`);
  if (!attrs.some((a) => a.id === attributeId)) {
    return fail('ATTRIBUTE_NOT_CATEGORY', `Attribute ${attributeId} is not part of category ${categoryId}`);
  }
  const values = FREE_INPUT_ATTRIBUTES.has(attributeId) ? [] : valuesOf(categoryId, attributeId);
  if (values.length === 0)
    return fail('ATTRIBUTE_NO_VALUES', `Attribute ${attributeId} has no selectable values`);
  return ok(values);
}

/** Whether GET /search works for this category. */
export function isSearchAvailable(categoryId: string): boolean {
  return SEARCHABLE_CATEGORIES.has(categoryId);
}
