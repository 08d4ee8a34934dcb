// The checks of a project's services: which subcategories each category takes, and each service's fields in the
// spec's table order, with the sandbox's bounds on script size.
import { ERROR_CATALOG } from '../errors';
import { SUB_CATEGORIES, TONE_KEYS } from '../schemas';
import {
  isHttpUrl,
  isMissing,
  isObject,
  PROJECT_LIMITS,
  type Collector,
  type Json,
  type ValidateOptions,
} from './collector';
import { scriptParts, type ScriptInput } from './scripts';

/** Subcategories each project category takes, and which of them are required. */
// A Map, so a request's `mainService` (`constructor`, `__proto__`) never finds a prototype member (issue 13, item 8).
const SERVICE_SETS = new Map<string, { allowed: readonly string[]; required: readonly string[] }>([
  ['voice_over', { allowed: ['voice_over'], required: ['voice_over'] }],
  [
    'audio_ads',
    {
      allowed: ['scriptwriting', 'voice_over', 'post-production'],
      required: ['voice_over', 'post-production'],
    },
  ],
]);

function checkSeconds(c: Collector, service: Json, base: string) {
  const value = service.seconds;
  const path = c.join(base, 'seconds');
  if (isMissing(value)) c.add('SECONDS_REQUIRED', path);
  else if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    c.add('SECONDS_WRONG_TYPE', path);
  else if (c.limits && value > PROJECT_LIMITS.maxSeconds)
    c.add(
      'SECONDS_WRONG_TYPE',
      path,
      `seconds must be at most ${PROJECT_LIMITS.maxSeconds} (one hour, sandbox limit); got ${value}.`,
    );
}

function checkAssetsFiles(c: Collector, service: Json, base: string) {
  const value = service.assetsFiles;
  const path = c.join(base, 'assetsFiles');
  if (isMissing(value)) return;
  if (!Array.isArray(value)) return c.add('ASSETS_FILES_WRONG_TYPE', path);
  value.forEach((item, j) => {
    if (typeof item !== 'string') c.add('ASSETS_FILES_WRONG_TYPE', `${path}[${j}]`);
    else if (!isHttpUrl(item)) c.add('INVALID_URL', `${path}[${j}]`);
  });
}

function checkLanguage(c: Collector, service: Json, base: string, options: ValidateOptions) {
  const language = c.requiredString(service, 'language', base, 'LANGUAGE_REQUIRED', 'LANGUAGE_WRONG_TYPE');
  c.active(language, options.activeLanguages, 'LANGUAGE_NOT_ACTIVE', c.join(base, 'language'));
}

function checkGenderAndAge(c: Collector, service: Json, base: string, options: ValidateOptions) {
  const value = c.requiredString(
    service,
    'genderAndAge',
    base,
    'GENDER_AND_AGE_REQUIRED',
    'GENDER_AND_AGE_WRONG_TYPE',
  );
  c.active(value, options.activeGenderAndAges, 'GENDER_AND_AGE_NOT_ACTIVE', c.join(base, 'genderAndAge'));
}

function checkScript(c: Collector, service: Json, base: string) {
  const script = service.script;
  const path = c.join(base, 'script');
  if (isMissing(script)) return c.add('SCRIPT_REQUIRED', path);
  if (typeof script === 'string') {
    if (script.trim() === '') c.add('SCRIPT_EMPTY', path);
    else checkScriptSize(c, script, path);
    return;
  }
  if (!Array.isArray(script)) return c.add('SCRIPT_WRONG_TYPE', path);
  // Bounded before the parts are looked at, so a huge array gives one issue, not one per entry.
  if (c.limits && script.length > PROJECT_LIMITS.maxScriptParts) return tooManyParts(c, path, script.length);
  let wrong = false;
  let hasText = false;
  script.forEach((part, j) => {
    if (!isObject(part)) {
      wrong = true;
      return c.add('SCRIPT_WRONG_TYPE', `${path}[${j}]`, 'Each script part must be an object of strings.');
    }
    for (const [key, text] of Object.entries(part)) {
      if (typeof text !== 'string') {
        wrong = true;
        c.add('SCRIPT_WRONG_TYPE', `${path}[${j}].${key}`, 'Script text must be a string.');
      } else if (text.trim() !== '') hasText = true;
    }
  });
  if (!wrong && !hasText) c.add('SCRIPT_EMPTY', path);
  if (!wrong) checkScriptSize(c, script as ScriptInput, path);
}

function tooManyParts(c: Collector, path: string, parts: number) {
  c.add(
    'SCRIPT_WRONG_TYPE',
    path,
    `script has ${parts} parts; at most ${PROJECT_LIMITS.maxScriptParts} are taken (sandbox limit).`,
  );
}

/** The script size bounds of PROJECT_LIMITS, on a script whose type is right. */
function checkScriptSize(c: Collector, script: ScriptInput, path: string) {
  if (!c.limits) return;
  const parts = scriptParts(script);
  if (parts.length > PROJECT_LIMITS.maxScriptParts) return tooManyParts(c, path, parts.length);
  // Counted with early exits: a body can hold a million words, and one past the bound is enough.
  let words = 0;
  let characters = 0;
  for (const { text } of parts) {
    const word = /\S+/gu;
    while (words <= PROJECT_LIMITS.maxScriptWords && word.exec(text)) words += 1;
    for (let i = 0; i < text.length && characters <= PROJECT_LIMITS.maxScriptCharacters; i++) {
      const code = text.charCodeAt(i);
      // A surrogate pair is one character (code point), as for the title.
      if (code < 0xdc00 || code > 0xdfff) characters += 1;
    }
  }
  if (words > PROJECT_LIMITS.maxScriptWords) {
    c.add(
      'SCRIPT_WRONG_TYPE',
      path,
      `script is longer than ${PROJECT_LIMITS.maxScriptWords} words (sandbox limit).`,
    );
  } else if (characters > PROJECT_LIMITS.maxScriptCharacters) {
    c.add(
      'SCRIPT_WRONG_TYPE',
      path,
      `script is longer than ${PROJECT_LIMITS.maxScriptCharacters} characters (sandbox limit).`,
    );
  }
}

function checkTone(c: Collector, service: Json, base: string) {
  const tone = service.tone;
  const path = c.join(base, 'tone');
  if (isMissing(tone)) return;
  if (!isObject(tone)) return c.add('TONE_WRONG_TYPE', path);
  const known: readonly string[] = TONE_KEYS;
  for (const key of TONE_KEYS) {
    const value = tone[key];
    if (!isMissing(value) && (typeof value !== 'number' || !Number.isFinite(value))) {
      c.add('TONE_WRONG_TYPE', `${path}.${key}`, `tone.${key} must be a number.`);
    }
  }
  for (const key of Object.keys(tone)) {
    if (!known.includes(key)) c.add('TONE_WRONG_TYPE', `${path}.${key}`, `tone.${key} is not a tone key.`);
  }
}

/** The single service of a voice_over project: spec table order. */
function checkVoiceOver(c: Collector, service: Json, base: string, options: ValidateOptions) {
  checkLanguage(c, service, base, options);
  checkGenderAndAge(c, service, base, options);
  c.optionalString(service, 'purpose', base, 'PURPOSE_WRONG_TYPE');
  checkScript(c, service, base);
}

function checkScriptwriting(c: Collector, service: Json, base: string, options: ValidateOptions) {
  checkSeconds(c, service, base);
  checkLanguage(c, service, base, options);
  c.optionalString(service, 'voicePerspective', base, 'VOICE_PERSPECTIVE_WRONG_TYPE');
  c.requiredString(service, 'topic', base, 'TOPIC_REQUIRED', 'TOPIC_WRONG_TYPE');
  c.requiredString(service, 'purpose', base, 'PURPOSE_REQUIRED', 'PURPOSE_WRONG_TYPE');
  c.requiredString(service, 'targetAudience', base, 'TARGET_AUDIENCE_REQUIRED', 'TARGET_AUDIENCE_WRONG_TYPE');
  c.optionalString(service, 'keywords', base, 'KEYWORDS_WRONG_TYPE');
  c.optionalString(service, 'remarks', base, 'REMARKS_WRONG_TYPE');
  checkTone(c, service, base);
  checkAssetsFiles(c, service, base);
}

function checkAudioAdsVoiceOver(c: Collector, service: Json, base: string, options: ValidateOptions) {
  checkLanguage(c, service, base, options);
  checkGenderAndAge(c, service, base, options);
  c.optionalString(service, 'purpose', base, 'PURPOSE_WRONG_TYPE');
  c.optionalString(service, 'remarks', base, 'REMARKS_WRONG_TYPE');
  // Without script writing the producer may give the script, as a voice over project does.
  if (!isMissing(service.script)) checkScript(c, service, base);
  checkAssetsFiles(c, service, base);
}

function checkPostProduction(c: Collector, service: Json, base: string) {
  checkSeconds(c, service, base);
  c.optionalString(service, 'remarks', base, 'REMARKS_WRONG_TYPE');
  const trackId = service.trackId;
  const hasTrack = !isMissing(trackId);
  if (hasTrack && (typeof trackId !== 'number' || !Number.isInteger(trackId) || trackId <= 0)) {
    c.add('TRACK_ID_WRONG_TYPE', c.join(base, 'trackId'));
  }
  const file = service.ownMusicFile;
  const filePath = c.join(base, 'ownMusicFile');
  const hasFile = !isMissing(file);
  if (hasFile && typeof file !== 'string') c.add('OWN_MUSIC_FILE_WRONG_TYPE', filePath);
  else if (typeof file === 'string' && !isHttpUrl(file)) c.add('INVALID_URL', filePath);
  if (hasTrack && hasFile) c.add('TRACK_ID_AND_OWN_MUSIC_FILE', filePath);
  const rights = service.ownMusicFileRights;
  const rightsPath = c.join(base, 'ownMusicFileRights');
  if (hasFile && isMissing(rights)) c.add('OWN_MUSIC_FILE_RIGHTS_REQUIRED', rightsPath);
  else if (!isMissing(rights) && typeof rights !== 'boolean')
    c.add('OWN_MUSIC_FILE_RIGHTS_WRONG_TYPE', rightsPath);
  c.optionalBoolean(service, 'proSelectsMusic', base, 'PRO_SELECTS_MUSIC_WRONG_TYPE');
  checkAssetsFiles(c, service, base);
}

export function checkServices(
  c: Collector,
  body: Json,
  mainService: string | undefined,
  options: ValidateOptions,
) {
  const services = body.services;
  if (isMissing(services)) return c.add('SERVICES_REQUIRED', 'services');
  if (!Array.isArray(services)) return c.add('SERVICES_WRONG_TYPE', 'services');
  if (c.limits && services.length > PROJECT_LIMITS.maxServices) {
    // Not examined one by one: a huge array gives one issue (sandbox limit; no category takes more than 3).
    return c.add(
      'SERVICE_NOT_ALLOWED',
      'services',
      `A project takes at most ${PROJECT_LIMITS.maxServices} services (sandbox limit); got ${services.length}.`,
    );
  }
  const authorized = options.authorizedSubCategories ?? new Set<string>(SUB_CATEGORIES);
  const set = mainService ? SERVICE_SETS.get(mainService) : undefined;
  const seen = new Set<string>();
  let unresolved = false;
  services.forEach((service: unknown, i) => {
    const base = `services[${i}]`;
    if (!isObject(service)) {
      unresolved = true;
      return c.add('SERVICE_WRONG_TYPE', base);
    }
    const sub = c.requiredString(
      service,
      'subCategory',
      base,
      'SUBCATEGORY_REQUIRED',
      'SUBCATEGORY_WRONG_TYPE',
    );
    if (sub === undefined) {
      unresolved = true;
      return;
    }
    if (!authorized.has(sub)) {
      unresolved = true;
      return c.add(
        'SUBCATEGORY_NOT_AUTHORIZED',
        `${base}.subCategory`,
        `${ERROR_CATALOG.SUBCATEGORY_NOT_AUTHORIZED.message} (${sub})`,
      );
    }
    if (set && !set.allowed.includes(sub)) {
      return c.add(
        'SERVICE_NOT_ALLOWED',
        `${base}.subCategory`,
        `The ${mainService} project cannot take a ${sub} service.`,
      );
    }
    if (seen.has(sub)) {
      return c.add(
        'SERVICE_NOT_ALLOWED',
        `${base}.subCategory`,
        `The ${sub} service is given more than once.`,
      );
    }
    seen.add(sub);
    if (sub === 'voice_over' && mainService === 'audio_ads')
      checkAudioAdsVoiceOver(c, service, base, options);
    else if (sub === 'voice_over') checkVoiceOver(c, service, base, options);
    else if (sub === 'scriptwriting') checkScriptwriting(c, service, base, options);
    else if (sub === 'post-production') checkPostProduction(c, service, base);
  });
  // A missing service is only reported when every given service could be identified.
  if (set && !unresolved) {
    for (const sub of set.required) {
      if (!seen.has(sub))
        c.add('SERVICE_MISSING', 'services', `The ${mainService} project needs a ${sub} service.`);
    }
  }
}
