import type { MediaDescriptor } from '../media/media-store';
import type { SearchParams } from '../../../shared/api/schemas';
import { createRng } from '../media/prng';
import { isSearchAvailable } from '../../../shared/catalogue/categories';
import { GENDER_AND_AGES } from '../../../shared/catalogue/gender-and-age';
import { LANGUAGES } from '../../../shared/catalogue/languages';
import { PURPOSES, findPurpose } from '../../../shared/catalogue/purposes';
import { CURRENCY_RATES, parseCurrency, roundCents } from './rates';
import { fail, ok, type DataResult } from '../../../shared/catalogue/result';

/**
 * The catalogue of simulated pros behind GET /search. All a sandbox choice: names come from
 * the invented lists below, everything else from a seeded generator, so the catalogue is the
 * same on every run. Search parameters and defaults: docs/service.md#search.
 */
export interface Pro {
  /** Stable id, e.g. 'pro-0007-k3f9'. */
  publicId: string;
  fullName: string;
  /** Languages the pro records, first is the main one. */
  languages: string[];
  genderAndAge: string;
  /** Purpose ids the pro serves. */
  purposes: string[];
  /** Categories the pro works in (all voice_over; some also audio_ads). */
  categories: string[];
  /** Days the pro needs to deliver, 1-5. */
  turnAroundTimeDays: number;
  /** List price per word, USD. */
  listPriceUsd: number;
  /** Client rating, 3.5-5.0. */
  rating: number;
}

/** First names by the voice a pro records, so a catalogue entry never reads as a mismatch to a producer. */
const FIRST_FEMALE = [
  'Ava',
  'Maya',
  'Sofia',
  'Chloe',
  'Zoe',
  'Amara',
  'Priya',
  'Leila',
  'Ingrid',
  'Hana',
  'Nadia',
  'Aisha',
  'Elena',
  'Clara',
  'Greta',
  'Ines',
];
const FIRST_MALE = [
  'Liam',
  'Noah',
  'Ethan',
  'Lucas',
  'Mateo',
  'Kenji',
  'Omar',
  'Tomas',
  'Rafael',
  'Diego',
  'Felix',
  'Jonas',
  'Ravi',
  'Yusuf',
  'Marco',
  'Sun',
];

function firstNames(genderAndAge: string): readonly string[] {
  if (/female|girl/i.test(genderAndAge)) return FIRST_FEMALE;
  if (/male|boy/i.test(genderAndAge)) return FIRST_MALE;
  return [...FIRST_FEMALE, ...FIRST_MALE];
}
const LAST = [
  'Walker',
  'Moreau',
  'Tanaka',
  'Okafor',
  'Silva',
  'Novak',
  'Larsen',
  'Haddad',
  'Kowalski',
  'Reyes',
  'Fischer',
  'Dubois',
  'Kim',
  'Petrov',
  'Costa',
  'Nguyen',
  'Bianchi',
  'Shah',
  'Murphy',
  'Jensen',
  'Alvarez',
  'Sato',
  'Mensah',
  'Hughes',
  'Lindqvist',
  'Castillo',
  'Weber',
  'Ortiz',
];

/** Pros in the default catalogue. */
export const PRO_COUNT = 240;

/** Builds the catalogue: the first pros cover every active language and voice, the rest lean to English and Spanish. */
export function createProCatalogue(seed = 'takedesk-pros-v1', count = PRO_COUNT): Pro[] {
  const r = createRng(seed);
  const active = LANGUAGES.filter((l) => l.active.voice_over).map((l) => l.id);
  const popular = [
    'eng-us',
    'eng-us',
    'eng-us',
    'eng-uk',
    'eng-au',
    'spa-latam',
    'spa-mx',
    'spa-es',
    'fra-fr',
    'deu-de',
    'por-br',
  ];
  const voices = GENDER_AND_AGES.filter((g) => g.active).map((g) => g.id);
  const pros: Pro[] = [];
  for (let i = 0; i < count; i++) {
    // Coverage first: every active language once, then every voice twice in eng-us (the docs' example search).
    const coverVoice = i - active.length;
    const inVoiceCover = coverVoice >= 0 && coverVoice < voices.length * 2;
    const main =
      i < active.length ? active[i]! : inVoiceCover ? 'eng-us' : r.pick(r.chance(0.7) ? popular : active);
    const languages = [main];
    if (r.chance(0.3)) {
      const second = r.pick(r.chance(0.6) ? popular : active);
      if (second !== main) languages.push(second);
    }
    const purposes = PURPOSES.filter((p) => p.id === 'radioTvAds' || r.chance(0.45)).map((p) => p.id);
    const suffix = Math.floor(r.next() * 36 ** 4)
      .toString(36)
      .padStart(4, '0');
    // Adults are most of the market.
    const genderAndAge = inVoiceCover
      ? voices[coverVoice % voices.length]!
      : r.pick(r.chance(0.75) ? voices.slice(3) : voices);
    pros.push({
      publicId: `pro-${String(i + 1).padStart(4, '0')}-${suffix}`,
      fullName: `${r.pick(firstNames(genderAndAge))} ${r.pick(LAST)}`,
      languages,
      genderAndAge,
      purposes,
      categories: r.chance(0.4) ? ['voice_over', 'audio_ads'] : ['voice_over'],
      turnAroundTimeDays: r.int(1, 5),
      listPriceUsd: Math.round(r.range(0.06, 0.3) * 1000) / 1000,
      rating: Math.round(r.range(3.5, 5) * 10) / 10,
    });
  }
  return pros;
}

/** Query of GET /search after parsing (numbers already numbers): the shared shape of a search. */
export type SearchQuery = SearchParams;

/** A search result: the spec's Sample fields plus sandbox extras. */
export interface SearchSample {
  publicId: string;
  fullName: string;
  currency: string;
  /** Quote for the requested units, in `currency`. */
  price: number;
  /** The pro's list price per word, in `currency` (4 decimals). */
  listPrice: number;
  language: string;
  genderAndAge: string;
  /** Filled by the server with the sample mp3's URL (see sampleMedia()). */
  url: string;
  turnAroundTimeDays: number;
  purposes: string[];
  rating: number;
}

/** One page of search results. */
export interface SearchPage {
  page: number;
  pageSize: number;
  totalPages: number;
  total: number;
  samples: SearchSample[];
}

/** Search error codes (docs/service.md#error-codes) plus the sandbox's currency check. */
export type SearchError =
  'SEARCH_NOT_AVAILABLE' | 'SEARCH_NOT_RESULTS' | 'UNITTYPE_NOT_ALLOWED' | 'CURRENCY_NOT_SUPPORTED';

/** Default quoted units per searchable category: 100 words of voice over (sandbox choice). */
export const DEFAULT_SEARCH_UNITS: Readonly<Record<string, number>> = { voice_over: 100 };
/** Words per unit of each unitType: 'units' are the category's own unit (words), time at 150 wpm. */
export const WORDS_PER_UNIT: Readonly<Record<string, number>> = {
  units: 1,
  seconds: 2.5,
  minutes: 150,
  hours: 9000,
};
/** Largest page size (sandbox choice; the spec documents no maximum). */
export const MAX_PAGE_SIZE = 100;

/** Page `page` (1-based) of `items`; pages past the end are empty; totalPages is 0 for no items. */
export function paginate<T>(
  items: readonly T[],
  page: number,
  pageSize: number,
): { page: number; pageSize: number; total: number; totalPages: number; items: T[] } {
  const size = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(pageSize) || 1));
  const p = Math.max(1, Math.floor(page) || 1);
  return {
    page: p,
    pageSize: size,
    total: items.length,
    totalPages: Math.ceil(items.length / size),
    items: items.slice((p - 1) * size, p * size),
  };
}

/** GET /search over a catalogue: every filter of the spec, quotes in the currency, pagination. */
export function searchPros(query: SearchQuery, pros: readonly Pro[]): DataResult<SearchPage, SearchError> {
  if (!isSearchAvailable(query.categoryId)) {
    return fail('SEARCH_NOT_AVAILABLE', `Search is not available for category ${query.categoryId}`);
  }
  const unitType = query.unitType ?? 'units';
  const perUnit = WORDS_PER_UNIT[unitType];
  if (perUnit === undefined || !Object.hasOwn(WORDS_PER_UNIT, unitType)) {
    return fail('UNITTYPE_NOT_ALLOWED', `unitType must be one of ${Object.keys(WORDS_PER_UNIT).join(', ')}`);
  }
  const currency = parseCurrency(query.currency);
  if (!currency) return fail('CURRENCY_NOT_SUPPORTED', `Currency ${query.currency} is not supported`);
  const rate = CURRENCY_RATES[currency];
  const defaultUnits = Object.hasOwn(DEFAULT_SEARCH_UNITS, query.categoryId)
    ? DEFAULT_SEARCH_UNITS[query.categoryId]
    : undefined;
  const words = (query.units ?? defaultUnits ?? 100) * perUnit;
  const purpose =
    query.purpose === undefined || query.purpose === '' ? undefined : findPurpose(query.purpose);
  const matches: SearchSample[] = [];
  for (const pro of pros) {
    if (!pro.categories.includes(query.categoryId)) continue;
    if (query.language && !pro.languages.includes(query.language)) continue;
    if (query.genderAndAge && pro.genderAndAge !== query.genderAndAge) continue;
    if (query.turnAroundTimeDays !== undefined && pro.turnAroundTimeDays > query.turnAroundTimeDays) continue;
    if (
      query.purpose !== undefined &&
      query.purpose !== '' &&
      (!purpose || !pro.purposes.includes(purpose.id))
    )
      continue;
    const price = roundCents(pro.listPriceUsd * words * rate);
    if (query.minimumPrice !== undefined && price < query.minimumPrice) continue;
    if (query.maximumPrice !== undefined && price > query.maximumPrice) continue;
    matches.push({
      publicId: pro.publicId,
      fullName: pro.fullName,
      currency,
      price,
      listPrice: Math.round(pro.listPriceUsd * rate * 10_000) / 10_000,
      language: query.language || pro.languages[0]!,
      genderAndAge: pro.genderAndAge,
      url: '',
      turnAroundTimeDays: pro.turnAroundTimeDays,
      purposes: [...pro.purposes],
      rating: pro.rating,
    });
  }
  if (matches.length === 0) return fail('SEARCH_NOT_RESULTS', 'No samples match the search');
  // Best rated first; ties by price, then id, so pages are stable.
  matches.sort((a, b) => b.rating - a.rating || a.price - b.price || (a.publicId < b.publicId ? -1 : 1));
  const p = paginate(matches, query.page ?? 1, query.pageSize ?? 20);
  return ok({
    page: p.page,
    pageSize: p.pageSize,
    totalPages: p.totalPages,
    total: p.total,
    samples: p.items,
  });
}

/** Media descriptor of a pro's sample mp3 in a language (a 20-second voice demo, 96 kbps). */
export function sampleMedia(sample: {
  publicId: string;
  genderAndAge: string;
  language: string;
}): MediaDescriptor {
  return {
    kind: 'sample',
    seed: `sample:${sample.publicId}:${sample.language}`,
    genderAndAge: sample.genderAndAge,
    seconds: 20,
    format: 'mp3',
  };
}
