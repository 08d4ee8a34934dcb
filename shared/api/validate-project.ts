/**
 * Validation of request bodies into the spec's error codes (plus our extension codes for what the
 * spec leaves "not shown"), with a field path per issue. The sandbox answers 422 with the first
 * issue; the UI shows all of them next to their fields.
 *
 * Reading of the spec followed here:
 * - `null` counts as missing; a required string that is empty or only whitespace counts as missing.
 * - `voice_over` projects take exactly one service, subCategory `voice_over`, with a script.
 * - `audio_ads` projects take voice over + post production and optionally script writing (the
 *   live docs show variants with and without it); each subcategory at most once.
 * - Field checks for a service run only once its subCategory is known and allowed.
 */
import { isLiveAccount, type AccountKind } from './account-kind';
import { ERROR_CATALOG, type ErrorCode } from './errors';
import { isCancelReasonCode } from './reasons';
import { FULFILLMENT_TYPES, MAIN_SERVICES, SUB_CATEGORIES, TONE_KEYS } from './schemas';

/** One problem found in a body. */
export interface ValidationIssue {
  code: ErrorCode;
  /** Where, e.g. 'title', 'services[0].language', 'services[2].tone.conciseWordy'; '' for the body itself. */
  path: string;
  message: string;
}

/** What the validator checks against; the active sets come from the attribute-values endpoint. */
export interface ValidateOptions {
  /** When given, a language outside it is LANGUAGE_NOT_ACTIVE. */
  activeLanguages?: ReadonlySet<string>;
  /** When given, a genderAndAge outside it is GENDER_AND_AGE_NOT_ACTIVE. */
  activeGenderAndAges?: ReadonlySet<string>;
  /** Categories enabled for API projects; default voice_over and audio_ads. */
  authorizedMainServices?: ReadonlySet<string>;
  /** Subcategories enabled for API projects; default voice_over, scriptwriting, post-production. */
  authorizedSubCategories?: ReadonlySet<string>;
  /** The field list marks remarks optional, the error list has REMARKS_REQUIRED; default false. */
  requireRemarks?: boolean;
  /**
   * Who the body is for. PROJECT_LIMITS are the sandbox's own bounds: applied only for `'sandbox'` (the sandbox
   * itself, and the form on the Sandbox profile). A live account states no such limits, so for it, and by default,
   * none is checked: the live service says itself what it refuses.
   */
  accountKind?: AccountKind;
}

type Json = Record<string, unknown>;

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

/** Longest title, in code points: the interface's TITLE_TOO_LONG, which applies to every account. */
export const TITLE_MAX = 100;

/**
 * Bounds the spec leaves "not shown" (sandbox choices, electron/sandbox/README.md). They are what the
 * sandbox can deliver, and the form on the Sandbox profile shares them so it refuses up front what the sandbox
 * would refuse. The live service states none: they are never applied to a live account's request
 * (`ValidateOptions.accountKind`; live-values.ts marks each `sandbox-only`).
 */
export const PROJECT_LIMITS = Object.freeze({
  /** Longest audio (`seconds` of script writing and post production): one hour, the media store's limit. */
  maxSeconds: 3600,
  /** Entries of `services`; no category takes more than three. */
  maxServices: 10,
  /** Parts of a script (array entries, and keys over all entries); each part is a deliverable. */
  maxScriptParts: 100,
  /** Words of a whole script: read at 150 words a minute, the voice stays well under the one-hour limit. */
  maxScriptWords: 8000,
  /** Characters (code points) of a whole script, which bounds character-billed scripts. */
  maxScriptCharacters: 100_000,
});

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function isMissing(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}
function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Collects issues and offers the field checks every body shares; `limits`: whether PROJECT_LIMITS apply. */
function createCollector(limits = false) {
  const issues: ValidationIssue[] = [];
  const add = (code: ErrorCode, path: string, message: string = ERROR_CATALOG[code].message) => {
    issues.push({ code, path, message });
  };
  const join = (base: string, key: string) => (base ? `${base}.${key}` : key);
  return {
    issues,
    add,
    join,
    limits,
    /** A required string; returns it when present and valid. */
    requiredString(obj: Json, key: string, base: string, required: ErrorCode, wrongType: ErrorCode) {
      const value = obj[key];
      const path = join(base, key);
      if (isMissing(value)) return void add(required, path);
      if (typeof value !== 'string') return void add(wrongType, path);
      if (value.trim() === '') return void add(required, path);
      return value;
    },
    optionalString(obj: Json, key: string, base: string, wrongType: ErrorCode) {
      const value = obj[key];
      if (isMissing(value)) return undefined;
      if (typeof value !== 'string') return void add(wrongType, join(base, key));
      return value;
    },
    optionalBoolean(obj: Json, key: string, base: string, wrongType: ErrorCode) {
      const value = obj[key];
      if (!isMissing(value) && typeof value !== 'boolean') add(wrongType, join(base, key));
    },
    active(value: string | undefined, set: ReadonlySet<string> | undefined, code: ErrorCode, path: string) {
      if (value !== undefined && set && !set.has(value))
        add(code, path, `${ERROR_CATALOG[code].message} (${value})`);
    },
  };
}
type Collector = ReturnType<typeof createCollector>;

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

function checkServices(c: Collector, body: Json, mainService: string | undefined, options: ValidateOptions) {
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

/** Every code validateCreateProject can return (the README lists the non-spec ones as extensions). */
export const CREATE_PROJECT_ISSUE_CODES: readonly ErrorCode[] = [
  'BODY_WRONG_TYPE',
  'TITLE_REQUIRED',
  'TITLE_TOO_LONG',
  'TITLE_WRONG_TYPE',
  'MAINSERVICE_REQUIRED',
  'MAINSERVICE_NOT_AUTHORIZED',
  'MAINSERVICE_WRONG_TYPE',
  'FULFILLMENT_TYPE_WRONG_TYPE',
  'FULFILLMENT_TYPE_NOT_ALLOWED',
  'FAKE_WRONG_TYPE',
  'TEST_WRONG_TYPE',
  'REMARKS_REQUIRED',
  'REMARKS_WRONG_TYPE',
  'SERVICES_REQUIRED',
  'SERVICES_WRONG_TYPE',
  'SERVICE_WRONG_TYPE',
  'SUBCATEGORY_REQUIRED',
  'SUBCATEGORY_NOT_AUTHORIZED',
  'SUBCATEGORY_WRONG_TYPE',
  'SERVICE_NOT_ALLOWED',
  'SERVICE_MISSING',
  'SECONDS_REQUIRED',
  'SECONDS_WRONG_TYPE',
  'LANGUAGE_REQUIRED',
  'LANGUAGE_WRONG_TYPE',
  'LANGUAGE_NOT_ACTIVE',
  'GENDER_AND_AGE_REQUIRED',
  'GENDER_AND_AGE_WRONG_TYPE',
  'GENDER_AND_AGE_NOT_ACTIVE',
  'VOICE_PERSPECTIVE_WRONG_TYPE',
  'TOPIC_REQUIRED',
  'TOPIC_WRONG_TYPE',
  'PURPOSE_REQUIRED',
  'PURPOSE_WRONG_TYPE',
  'TARGET_AUDIENCE_REQUIRED',
  'TARGET_AUDIENCE_WRONG_TYPE',
  'KEYWORDS_WRONG_TYPE',
  'TONE_WRONG_TYPE',
  'ASSETS_FILES_WRONG_TYPE',
  'INVALID_URL',
  'SCRIPT_REQUIRED',
  'SCRIPT_WRONG_TYPE',
  'SCRIPT_EMPTY',
  'TRACK_ID_WRONG_TYPE',
  'OWN_MUSIC_FILE_WRONG_TYPE',
  'TRACK_ID_AND_OWN_MUSIC_FILE',
  'OWN_MUSIC_FILE_RIGHTS_REQUIRED',
  'OWN_MUSIC_FILE_RIGHTS_WRONG_TYPE',
  'PRO_SELECTS_MUSIC_WRONG_TYPE',
];

/**
 * Validate a `POST /projects` body. Returns [] when valid; issues come in a stable order:
 * top-level fields in spec order, then services in array order, fields in spec table order.
 */
export function validateCreateProject(body: unknown, options: ValidateOptions = {}): ValidationIssue[] {
  const c = createCollector(!isLiveAccount(options.accountKind));
  if (!isObject(body)) {
    c.add('BODY_WRONG_TYPE', '');
    return c.issues;
  }
  const title = c.requiredString(body, 'title', '', 'TITLE_REQUIRED', 'TITLE_WRONG_TYPE');
  // Code points, not UTF-16 units: an emoji is one character (issue 2, item 6).
  if (title !== undefined && [...title].length > TITLE_MAX) c.add('TITLE_TOO_LONG', 'title');
  const mainService = checkMainService(c, body, options);
  checkFulfillmentType(c, body);
  c.optionalBoolean(body, 'fake', '', 'FAKE_WRONG_TYPE');
  c.optionalBoolean(body, 'test', '', 'TEST_WRONG_TYPE');
  if (options.requireRemarks && isMissing(body.remarks)) c.add('REMARKS_REQUIRED', 'remarks');
  else c.optionalString(body, 'remarks', '', 'REMARKS_WRONG_TYPE');
  checkServices(c, body, mainService, options);
  return c.issues;
}

/** Validate a `POST /quote` body: the create-project checks without title, flags and remarks. */
export function validateQuote(body: unknown, options: ValidateOptions = {}): ValidationIssue[] {
  const c = createCollector(!isLiveAccount(options.accountKind));
  if (!isObject(body)) {
    c.add('BODY_WRONG_TYPE', '');
    return c.issues;
  }
  const mainService = checkMainService(c, body, options);
  checkFulfillmentType(c, body);
  checkServices(c, body, mainService, options);
  return c.issues;
}

function checkMainService(c: Collector, body: Json, options: ValidateOptions): string | undefined {
  const value = c.requiredString(body, 'mainService', '', 'MAINSERVICE_REQUIRED', 'MAINSERVICE_WRONG_TYPE');
  if (value === undefined) return undefined;
  const authorized = options.authorizedMainServices ?? new Set<string>(MAIN_SERVICES);
  if (!authorized.has(value)) {
    c.add(
      'MAINSERVICE_NOT_AUTHORIZED',
      'mainService',
      `${ERROR_CATALOG.MAINSERVICE_NOT_AUTHORIZED.message} (${value})`,
    );
    return undefined;
  }
  return value;
}

function checkFulfillmentType(c: Collector, body: Json) {
  const value = c.optionalString(body, 'fulfillmentType', '', 'FULFILLMENT_TYPE_WRONG_TYPE');
  const known: readonly string[] = FULFILLMENT_TYPES;
  if (value !== undefined && !known.includes(value)) c.add('FULFILLMENT_TYPE_NOT_ALLOWED', 'fulfillmentType');
}

function checkStatus(c: Collector, body: Json, allowed: readonly string[]): string | undefined {
  const status = body.status;
  if (typeof status === 'string' && allowed.includes(status)) return status;
  c.add('STATUS_NOT_ALLOWED', 'status', `status must be one of ${allowed.join(', ')}.`);
  return undefined;
}

function checkCode(
  c: Collector,
  body: Json,
  key: string,
  wrongType: ErrorCode,
  allowed?: (code: string) => boolean,
) {
  const value = c.optionalString(body, key, '', wrongType);
  if (value !== undefined && allowed && !allowed(value)) {
    c.add('REASON_CODE_NOT_ALLOWED', key, `${key} "${value}" is not one of the allowed values.`);
  }
  return value;
}

/** Options of the reject, revision and cancel checks. */
export interface ReasonOptions {
  /** Allowed reason codes; reject and revision check only when given, cancel defaults to CANCEL_REASONS. */
  allowedCodes?: ReadonlySet<string>;
  /** Reject: when given, newGenderAndAge outside it is GENDER_AND_AGE_NOT_ACTIVE. */
  activeGenderAndAges?: ReadonlySet<string>;
  /** Revision: allowed `reason` values (audio ads), checked only when given. */
  allowedReasons?: ReadonlySet<string>;
}

/** Validate the reject fields of a `PUT /deliverables/{id}` body (status is checked by the dispatcher). */
export function validateRejectBody(body: unknown, options: ReasonOptions = {}): ValidationIssue[] {
  const c = createCollector();
  if (!isObject(body)) {
    c.add('BODY_WRONG_TYPE', '');
    return c.issues;
  }
  const allowed = options.allowedCodes;
  const reason = c.optionalString(body, 'reason', '', 'REASON_WRONG_TYPE');
  const reasonCode = checkCode(
    c,
    body,
    'reasonCode',
    'REASON_CODE_WRONG_TYPE',
    allowed && ((v) => allowed.has(v)),
  );
  const wantsNew = reasonCode === 'genderAndAgeChange' || reason === 'genderAndAgeChange';
  const value = body.newGenderAndAge;
  if (wantsNew && (isMissing(value) || (typeof value === 'string' && value.trim() === ''))) {
    c.add('NEW_GENDER_AND_AGE_REQUIRED', 'newGenderAndAge');
  } else if (!isMissing(value) && typeof value !== 'string') {
    c.add('NEW_GENDER_AND_AGE_WRONG_TYPE', 'newGenderAndAge');
  } else if (typeof value === 'string') {
    c.active(value, options.activeGenderAndAges, 'GENDER_AND_AGE_NOT_ACTIVE', 'newGenderAndAge');
  }
  return c.issues;
}

/** Validate a `PUT /deliverables/{id}` body: status approved | rejected | winner, then the reject fields. */
export function validateDeliverableStatusBody(body: unknown, options: ReasonOptions = {}): ValidationIssue[] {
  if (!isObject(body)) return validateRejectBody(body, options);
  const c = createCollector();
  const status = checkStatus(c, body, ['approved', 'rejected', 'winner']);
  if (status === 'rejected') c.issues.push(...validateRejectBody(body, options));
  return c.issues;
}

/** Validate a `PUT /deliverables/project/{projectId}` body; `approve` is accepted as the spec's text says. */
export function validateApproveAllBody(body: unknown): ValidationIssue[] {
  const c = createCollector();
  if (!isObject(body)) c.add('BODY_WRONG_TYPE', '');
  else checkStatus(c, body, ['approved', 'approve']);
  return c.issues;
}

/** Validate a `POST /revisions/{deliverableId}` body. */
export function validateRevisionBody(body: unknown, options: ReasonOptions = {}): ValidationIssue[] {
  const c = createCollector();
  if (!isObject(body)) {
    c.add('BODY_WRONG_TYPE', '');
    return c.issues;
  }
  c.requiredString(body, 'instructions', '', 'INSTRUCTIONS_REQUIRED', 'INSTRUCTIONS_WRONG_TYPE');
  const reasons = options.allowedReasons;
  checkCode(c, body, 'reason', 'REASON_WRONG_TYPE', reasons && ((v) => reasons.has(v)));
  const codes = options.allowedCodes;
  checkCode(c, body, 'revisionCode', 'REVISION_CODE_WRONG_TYPE', codes && ((v) => codes.has(v)));
  c.optionalBoolean(body, 'checkTalent', '', 'CHECK_TALENT_WRONG_TYPE');
  return c.issues;
}

/** Validate a `PUT /projects/{id}` body; reasonCode must be a known `main` or `main.sub` code. */
export function validateCancelBody(body: unknown, options: ReasonOptions = {}): ValidationIssue[] {
  const c = createCollector();
  if (!isObject(body)) {
    c.add('BODY_WRONG_TYPE', '');
    return c.issues;
  }
  checkStatus(c, body, ['canceled']);
  c.optionalString(body, 'reason', '', 'REASON_WRONG_TYPE');
  const allowed = options.allowedCodes;
  checkCode(
    c,
    body,
    'reasonCode',
    'REASON_CODE_WRONG_TYPE',
    allowed ? (v) => allowed.has(v) : isCancelReasonCode,
  );
  return c.issues;
}

// ---------------------------------------------------------------------------------------------
// Scripts and units

/** A script as the service accepts it. */
export type ScriptInput = string | ReadonlyArray<Readonly<Record<string, string>>>;

/** The array form of a script: a plain string becomes `[{ part001: text }]`. */
export function normalizeScript(script: ScriptInput): Array<Record<string, string>> {
  if (typeof script === 'string') return [{ part001: script }];
  return script.map((part) => ({ ...part }));
}

/** Every part of a script in order: each key/value of each object. */
export function scriptParts(script: ScriptInput): Array<{ key: string; text: string }> {
  return normalizeScript(script).flatMap((part) =>
    Object.entries(part).map(([key, text]) => ({ key, text })),
  );
}

/**
 * Languages billed by characters (a sandbox choice: the live list was not found). Matched on the
 * part of the language id before the dash: 'jpn-jp', 'cmn-zh', 'yue-zh', 'wuu-zh', 'kor-ko',
 * 'tha-th', and the two-letter forms.
 */
export const CHARACTER_BILLED_LANGUAGES: ReadonlySet<string> = new Set([
  'jpn',
  'cmn',
  'yue',
  'wuu',
  'zho',
  'kor',
  'tha',
  'ja',
  'zh',
  'ko',
  'th',
]);

/** Whether a language id is billed by characters. */
export function isCharacterBilled(language: string): boolean {
  const base = language.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return CHARACTER_BILLED_LANGUAGES.has(base);
}

/** Units of a text: code points without whitespace for character-billed languages, else whitespace-separated words. */
export function countUnits(
  text: string,
  language: string,
): { units: number; unitType: 'words' | 'characters' } {
  if (isCharacterBilled(language)) {
    let units = 0;
    for (const char of text) if (!/\s/u.test(char)) units += 1;
    return { units, unitType: 'characters' };
  }
  return { units: text.split(/\s+/u).filter((word) => word !== '').length, unitType: 'words' };
}

/** Units of a whole script (sum over its parts). */
export function scriptUnits(
  script: ScriptInput,
  language: string,
): { units: number; unitType: 'words' | 'characters' } {
  const unitType = isCharacterBilled(language) ? 'characters' : 'words';
  const units = scriptParts(script).reduce((sum, part) => sum + countUnits(part.text, language).units, 0);
  return { units, unitType };
}
