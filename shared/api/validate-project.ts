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
 *
 * The checks live in validate/: the collector and options, the services' checks, the action bodies' checks, and
 * scripts and their units. This module holds the project and quote checks and is the one import for callers.
 */
import { isLiveAccount } from './account-kind';
import { ERROR_CATALOG, type ErrorCode } from './errors';
import { FULFILLMENT_TYPES, MAIN_SERVICES } from './schemas';
import {
  createCollector,
  isMissing,
  isObject,
  TITLE_MAX,
  type Collector,
  type Json,
  type ValidateOptions,
  type ValidationIssue,
} from './validate/collector';
import { checkServices } from './validate/services';

export { PROJECT_LIMITS, TITLE_MAX, type ValidateOptions, type ValidationIssue } from './validate/collector';
export {
  validateApproveAllBody,
  validateCancelBody,
  validateDeliverableStatusBody,
  validateRejectBody,
  validateRevisionBody,
  type ReasonOptions,
} from './validate/actions';
export {
  CHARACTER_BILLED_LANGUAGES,
  countUnits,
  isCharacterBilled,
  normalizeScript,
  scriptParts,
  scriptUnits,
  type ScriptInput,
} from './validate/scripts';

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
