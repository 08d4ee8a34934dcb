import { isCharacterBilled } from '../api';

/**
 * The 65 languages of the sandbox. Ids and names: LEGACY (docs/service.md#allowed-values, VoiceBunny
 * ruby-carrot test/mock-responses/languages.json), except 'eng-us', which takes the live label
 * "English - North America" (docs:categories/getAttributesValues). `active` per service and the
 * character-billed set (shared/api isCharacterBilled) are sandbox choices: a few languages are
 * inactive so LANGUAGE_NOT_ACTIVE is reachable.
 */
export interface Language {
  id: string;
  name: string;
  /** Whether the language can be ordered, per main service. */
  active: { voice_over: boolean; audio_ads: boolean };
  /** Billed per character instead of per word. */
  characterBilled: boolean;
}

const LEGACY: readonly (readonly [string, string])[] = [
  ['ara', 'Arabic'],
  ['ben', 'Bengali'],
  ['bos-ba', 'Bosnian'],
  ['bul-bg', 'Bulgarian'],
  ['khm-kh', 'Cambodian'],
  ['cat-es', 'Catalan'],
  ['yue-zh', 'Chinese - Cantonese'],
  ['cmn-zh', 'Chinese - Mandarin'],
  ['wuu-zh', 'Chinese - Wu'],
  ['hrv-hr', 'Croatian'],
  ['ces-cz', 'Czech'],
  ['dan-dk', 'Danish'],
  ['nld-de', 'Dutch'],
  ['eng-au', 'English - Australian'],
  ['eng-uk', 'English - British'],
  ['eng-nz', 'English - New Zealand'],
  ['eng-us', 'English - North America'],
  ['eng-za', 'English - South African'],
  ['fin-fi', 'Finnish'],
  ['fra-ca', 'French - Canadian'],
  ['fra-fr', 'French - European'],
  ['deu-de', 'German'],
  ['ell-el', 'Greek'],
  ['heb-il', 'Hebrew'],
  ['hin-in', 'Hindi'],
  ['hun-hu', 'Hungarian'],
  ['isl-is', 'Icelandic'],
  ['ind-id', 'Indonesian'],
  ['ita-it', 'Italian'],
  ['jpn-jp', 'Japanese'],
  ['jav-id', 'Javanese'],
  ['kor-ko', 'Korean'],
  ['kur-ir', 'Kurdish'],
  ['mar-in', 'Marathi'],
  ['nor-no', 'Norwegian'],
  ['fas-ir', 'Persian'],
  ['pol-pl', 'Polish'],
  ['por-br', 'Portuguese - Brazilian'],
  ['por-pt', 'Portuguese - from Portugal'],
  ['pan-in', 'Punjabi'],
  ['ron-ro', 'Romanian'],
  ['rus-ru', 'Russian'],
  ['srp-rs', 'Serbian'],
  ['slk-sk', 'Slovak'],
  ['slv-si', 'Slovenian'],
  ['spa-ar', 'Spanish - Argentinean'],
  ['spa-es', 'Spanish - Castilian (from Spain)'],
  ['spa-cl', 'Spanish - Chilean'],
  ['spa-co', 'Spanish - Colombian'],
  ['spa-latam', 'Spanish - Latin American Neutral'],
  ['spa-mx', 'Spanish - Mexican'],
  ['spa-pe', 'Spanish - Peruvian'],
  ['spa-pr', 'Spanish - Puerto Rican'],
  ['spa-ve', 'Spanish - Venezuelan'],
  ['swa-ke', 'Swahili'],
  ['swe', 'Swedish'],
  ['tgl-ph', 'Tagalog'],
  ['tam-in', 'Tamil'],
  ['tel-in', 'Telugu'],
  ['tha-th', 'Thai'],
  ['tur-tr', 'Turkish'],
  ['ukr-ua', 'Ukrainian'],
  ['urd-pk', 'Urdu'],
  ['vie-vi', 'Vietnamese'],
  ['cym-gb', 'Welsh'],
];

// Sandbox choice: no pros for these, so they cannot be ordered (LANGUAGE_NOT_ACTIVE).
const INACTIVE_EVERYWHERE = new Set(['wuu-zh', 'kur-ir', 'jav-id']);
// Sandbox choice: audio ads (script writing in the language) only for the larger markets.
const INACTIVE_FOR_AUDIO_ADS = new Set([
  'khm-kh',
  'isl-is',
  'swa-ke',
  'cym-gb',
  'mar-in',
  'pan-in',
  'bos-ba',
]);

/** All 65 languages, active or not. */
export const LANGUAGES: readonly Language[] = LEGACY.map(([id, name]) => ({
  id,
  name,
  active: {
    voice_over: !INACTIVE_EVERYWHERE.has(id),
    audio_ads: !INACTIVE_EVERYWHERE.has(id) && !INACTIVE_FOR_AUDIO_ADS.has(id),
  },
  characterBilled: isCharacterBilled(id),
}));

/** The language with this id (exact, lowercase form), or undefined. */
export function findLanguage(id: string): Language | undefined {
  return LANGUAGES.find((l) => l.id === id);
}

/** Whether a language exists and is active for a main service ('voice_over' or 'audio_ads'). */
export function isLanguageActive(id: string, mainService: string): boolean {
  const lang = findLanguage(id);
  if (!lang) return false;
  return mainService === 'audio_ads' ? lang.active.audio_ads : lang.active.voice_over;
}
