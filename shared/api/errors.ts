/**
 * The error catalog: every error code the sandbox returns, the client maps and the UI explains.
 * Sources: 'spec' (the interface text's codes), 'facts' (the live pages' codes and sandbox choices for
 * gaps; both in docs/service.md#error-codes), 'extension' (our audio-ads and body validation codes, same
 * style), 'client'
 * (failures on this side of the wire; no HTTP status).
 */
import type { ErrorBody } from './schemas';

/** Every service operation an error can belong to. */
export const OPERATIONS = [
  'createProject',
  'listProjects',
  'getProject',
  'cancelProject',
  'search',
  'listDeliverables',
  'approveAll',
  'getDeliverable',
  'approveDeliverable',
  'rejectDeliverable',
  'selectWinner',
  'listVersions',
  'createRevision',
  'listCategories',
  'getAttributes',
  'getAttributeValues',
  'listTracks',
  'getTrack',
  'quote',
  'signIn',
] as const;
export type Operation = (typeof OPERATIONS)[number];

/** Where a code comes from. */
export type ErrorSource = 'spec' | 'facts' | 'extension' | 'client';

/** Heading (HTTP) status and the `status` field of the body; the spec has codes where they differ. */
export interface StatusPair {
  readonly http: number;
  readonly body: number;
}

/** One catalog entry. */
export interface ErrorEntry<T extends string = string> {
  readonly type: T;
  /** Heading status when no per-operation override applies (0 for client-side codes). */
  readonly http: number;
  /** Body `status` when no per-operation override applies. */
  readonly body: number;
  /** Statuses that differ for one operation (e.g. PROJECT_NO_EXIST on cancel). */
  readonly overrides?: Readonly<Partial<Record<Operation, StatusPair>>>;
  readonly operations: readonly Operation[];
  readonly source: ErrorSource;
  /** Short producer-facing headline. */
  readonly title: string;
  /** What the producer can do about it. */
  readonly hint: string;
  /** Default `message` of an error body. */
  readonly message: string;
}

type Status = number | readonly [http: number, body: number];
interface Text {
  title: string;
  hint: string;
  message: string;
}
type Def = Omit<ErrorEntry, 'type'>;

function def(
  source: ErrorSource,
  status: Status,
  operations: readonly Operation[],
  text: Text,
  overrides?: Partial<Record<Operation, Status>>,
): Def {
  const pair = (s: Status): StatusPair =>
    typeof s === 'number' ? { http: s, body: s } : { http: s[0], body: s[1] };
  const { http, body } = pair(status);
  return {
    source,
    http,
    body,
    operations,
    ...text,
    ...(overrides
      ? {
          overrides: Object.fromEntries(
            Object.entries(overrides).map(([op, s]) => [op, pair(s as Status)]),
          ) as Partial<Record<Operation, StatusPair>>,
        }
      : {}),
  };
}
const spec = (
  status: Status,
  ops: readonly Operation[],
  text: Text,
  overrides?: Partial<Record<Operation, Status>>,
) => def('spec', status, ops, text, overrides);
const facts = (status: Status, ops: readonly Operation[], text: Text) => def('facts', status, ops, text);
const ext = (ops: readonly Operation[], text: Text) => def('extension', 422, ops, text);
const client = (ops: readonly Operation[], text: Text) => def('client', 0, ops, text);

// Operation groups. Quote takes the same mainService/services as create (docs/service.md#quote), so the
// service-level validation codes belong to both; title, flags and remarks only exist on create.
const CREATE: readonly Operation[] = ['createProject'];
const CREATE_QUOTE: readonly Operation[] = ['createProject', 'quote'];
const ALL: readonly Operation[] = OPERATIONS;
const AUTHENTICATED: readonly Operation[] = OPERATIONS.filter((op) => op !== 'signIn');
const WITH_BODY: readonly Operation[] = [
  'createProject',
  'cancelProject',
  'approveAll',
  'approveDeliverable',
  'rejectDeliverable',
  'selectWinner',
  'createRevision',
  'quote',
  'signIn',
];
const DELIVERABLE_BY_ID: readonly Operation[] = [
  'getDeliverable',
  'approveDeliverable',
  'rejectDeliverable',
  'selectWinner',
  'listVersions',
  'createRevision',
];
const RETRY = 'Try again in a moment; if it keeps failing, the service may be down.';
const FIX_FORM = 'Correct the field in the project form and submit again.';

const DEFS = {
  // --- the interface: project creation (docs/service.md#error-codes) ---------------------------
  PROJECT_NOT_CREATED: spec(500, CREATE, {
    title: 'The project could not be created',
    hint: `${RETRY} Nothing was charged for a project that was not created.`,
    message: 'The project could not be created.',
  }),
  TITLE_REQUIRED: spec(422, CREATE, {
    title: 'The project needs a title',
    hint: 'Enter a title of at most 100 characters.',
    message: 'title is required.',
  }),
  TITLE_TOO_LONG: spec(422, CREATE, {
    title: 'The title is too long',
    hint: 'Shorten the title to 100 characters or fewer (emoji count as one each).',
    message: 'title must be at most 100 characters.',
  }),
  TITLE_WRONG_TYPE: spec(422, CREATE, {
    title: 'The title is not text',
    hint: FIX_FORM,
    message: 'title must be a string.',
  }),
  MAINSERVICE_REQUIRED: spec(422, CREATE_QUOTE, {
    title: 'No project category chosen',
    hint: 'Choose Voice over or Audio ads.',
    message: 'mainService is required.',
  }),
  MAINSERVICE_NOT_AUTHORIZED: spec(422, CREATE_QUOTE, {
    title: 'This category is not enabled for your account',
    hint: 'Choose another category, or ask your account manager to enable it for API projects.',
    message: 'mainService is not authorized for API projects.',
  }),
  MAINSERVICE_WRONG_TYPE: spec(422, CREATE_QUOTE, {
    title: 'The project category is not valid',
    hint: FIX_FORM,
    message: 'mainService must be a string.',
  }),
  REMARKS_REQUIRED: spec(422, CREATE, {
    title: 'Remarks are required',
    hint: 'Add remarks for the creatives (an empty text is accepted).',
    message: 'remarks is required.',
  }),
  REMARKS_WRONG_TYPE: spec(422, CREATE_QUOTE, {
    title: 'Remarks are not text',
    hint: FIX_FORM,
    message: 'remarks must be a string.',
  }),
  FAKE_WRONG_TYPE: spec(422, CREATE, {
    title: 'The "fake" flag is not valid',
    hint: 'Set it on or off.',
    message: 'fake must be a boolean.',
  }),
  TEST_WRONG_TYPE: spec(422, CREATE, {
    title: 'The "test" flag is not valid',
    hint: 'Set it on or off.',
    message: 'test must be a boolean.',
  }),
  SUBCATEGORY_REQUIRED: spec(422, CREATE_QUOTE, {
    title: 'A service has no type',
    hint: 'Every service needs its kind: voice over, script writing or post production.',
    message: 'subCategory is required.',
  }),
  SUBCATEGORY_NOT_AUTHORIZED: spec(422, CREATE_QUOTE, {
    title: 'This service is not enabled for your account',
    hint: 'Remove the service, or ask your account manager to enable it for API projects.',
    message: 'subCategory is not authorized for API projects.',
  }),
  SUBCATEGORY_WRONG_TYPE: spec(422, CREATE_QUOTE, {
    title: 'A service type is not valid',
    hint: FIX_FORM,
    message: 'subCategory must be a string.',
  }),
  LANGUAGE_REQUIRED: spec(422, CREATE_QUOTE, {
    title: 'No language chosen',
    hint: 'Pick the language of the recording, e.g. English - North America.',
    message: 'language is required.',
  }),
  LANGUAGE_WRONG_TYPE: spec(422, CREATE_QUOTE, {
    title: 'The language is not valid',
    hint: 'Pick a language from the list.',
    message: 'language must be a string.',
  }),
  LANGUAGE_NOT_ACTIVE: spec(422, CREATE_QUOTE, {
    title: 'This language is not available',
    hint: 'Pick another language from the list; the list is refreshed from the service.',
    message: 'language is not active for this service.',
  }),
  GENDER_AND_AGE_REQUIRED: spec(422, CREATE_QUOTE, {
    title: 'No voice gender and age chosen',
    hint: 'Pick the gender and age of the voice.',
    message: 'genderAndAge is required.',
  }),
  GENDER_AND_AGE_WRONG_TYPE: spec(422, CREATE_QUOTE, {
    title: 'The voice gender and age is not valid',
    hint: 'Pick a gender and age from the list.',
    message: 'genderAndAge must be a string.',
  }),
  GENDER_AND_AGE_NOT_ACTIVE: spec(422, CREATE_QUOTE, {
    title: 'This voice gender and age is not available',
    hint: 'Pick another option from the list.',
    message: 'genderAndAge is not active for this service.',
  }),
  SCRIPT_REQUIRED: spec(422, CREATE_QUOTE, {
    title: 'The voice over has no script',
    hint: 'Paste the script, as one text or split into parts.',
    message: 'script is required.',
  }),
  SCRIPT_WRONG_TYPE: spec(422, CREATE_QUOTE, {
    title: 'The script is not valid',
    hint: 'Send the script as text or as parts, each part a piece of text.',
    message: 'script must be a string or an array of objects of strings.',
  }),

  // --- the interface: other operations (docs/service.md#error-codes) ---------------------------
  NOT_PROJECT_INFO: spec(500, ['getProject'], {
    title: 'The project could not be loaded',
    hint: RETRY,
    message: 'The project information could not be retrieved.',
  }),
  PROJECT_NO_EXIST: spec(
    404,
    ['getProject', 'listDeliverables', 'approveAll', 'cancelProject'],
    {
      title: 'Project not found',
      hint: 'It may have been removed or belong to another account; refresh the project list.',
      message: 'The project does not exist.',
    },
    { cancelProject: [400, 404] },
  ),
  PROJECT_ALREADY_CANCELED: spec([400, 404], ['cancelProject'], {
    title: 'The project is already canceled',
    hint: 'Nothing to do; refresh to see its current state.',
    message: 'The project is already canceled.',
  }),
  ERROR_CANCELING_PROJECT: spec(500, ['cancelProject'], {
    title: 'The project could not be canceled',
    hint: RETRY,
    message: 'The project could not be canceled.',
  }),
  NOT_PROJECTS_INFO: spec(500, ['listProjects'], {
    title: 'The project list could not be loaded',
    hint: RETRY,
    message: 'The projects information could not be retrieved.',
  }),
  ERROR_GETTING_SEARCH_RESULTS: spec(500, ['search'], {
    title: 'The search failed',
    hint: RETRY,
    message: 'The search results could not be retrieved.',
  }),
  SEARCH_NOT_AVAILABLE: spec(422, ['search'], {
    title: 'Search is not available for this category',
    hint: 'Search voice over samples instead.',
    message: 'Search is not available for this category.',
  }),
  SEARCH_NOT_RESULTS: spec(422, ['search'], {
    title: 'No samples match',
    hint: 'Loosen the filters: widen the price range, drop the gender and age, or allow more days.',
    message: 'No samples match the search.',
  }),
  UNITTYPE_NOT_ALLOWED: spec(422, ['search'], {
    title: 'Unknown unit type',
    hint: 'Use seconds, minutes, hours or units.',
    message: 'unitType must be one of seconds, minutes, hours, units.',
  }),
  NOT_DELIVERABLES_INFO: spec(500, ['listDeliverables'], {
    title: 'The deliverables could not be loaded',
    hint: RETRY,
    message: 'The deliverables information could not be retrieved.',
  }),
  PROJECT_ID_REQUIRED: spec(422, ['listDeliverables'], {
    title: 'No project given',
    hint: 'Open a project first. (This is a bug in Takedesk if you see it.)',
    message: 'projectId is required.',
  }),
  ERROR_GETTING_DELIVERABLE: spec(500, ['getDeliverable'], {
    title: 'The deliverable could not be loaded',
    hint: RETRY,
    message: 'The deliverable could not be retrieved.',
  }),
  DELIVERABLE_NO_EXIST: spec([400, 404], DELIVERABLE_BY_ID, {
    title: 'Deliverable not found',
    hint: 'It may have been replaced after a rejection; refresh the project.',
    message: 'The deliverable does not exist.',
  }),
  ERROR_APPROVING_PROJECT_DELIVERABLES: spec(500, ['approveAll'], {
    title: 'The deliverables could not be approved',
    hint: `${RETRY} Refresh first: some may already be approved.`,
    message: 'The project deliverables could not be approved.',
  }),
  PROJECT_NOT_PENDING_APPROVAL: spec([400, 404], ['approveAll'], {
    title: 'Nothing to approve',
    hint: 'No deliverable of this project is waiting for review right now.',
    message: 'The project has no deliverables pending approval.',
  }),
  PROJECT_ALREADY_APPROVED: spec([400, 404], ['approveAll'], {
    title: 'The project is already approved',
    hint: 'Nothing to do; refresh to see its current state.',
    message: 'The project is already approved.',
  }),
  ERROR_APPROVING_DELIVERABLE: spec(500, ['approveDeliverable'], {
    title: 'The deliverable could not be approved',
    hint: RETRY,
    message: 'The deliverable could not be approved.',
  }),
  DELIVERABLE_ALREADY_APPROVED: spec(404, ['approveDeliverable'], {
    title: 'The deliverable is already approved',
    hint: 'Nothing to do; refresh to see its current state.',
    message: 'The deliverable is already approved.',
  }),
  DELIVERABLE_NOT_PENDING_REVIEW: spec(404, ['approveDeliverable', 'selectWinner'], {
    title: 'The deliverable is not waiting for review',
    hint: 'Only reviewable deliverables can be approved or picked as winner; refresh to see its state.',
    message: 'The deliverable is not pending review.',
  }),
  ERROR_REJECTING_DELIVERABLE: spec(500, ['rejectDeliverable'], {
    title: 'The deliverable could not be rejected',
    hint: RETRY,
    message: 'The deliverable could not be rejected.',
  }),
  DELIVERABLE_ALREADY_REJECTED: spec([400, 404], ['rejectDeliverable'], {
    title: 'The deliverable is already rejected',
    hint: 'A new deliverable is on its way; refresh the project.',
    message: 'The deliverable is already rejected.',
  }),
  ERROR_SELECTING_WINNER: spec(500, ['selectWinner'], {
    title: 'The winner could not be selected',
    hint: RETRY,
    message: 'The winner could not be selected.',
  }),
  WINNER_ALREADY_SELECTED: spec([404, 400], ['selectWinner'], {
    title: 'This contest already has a winner',
    hint: 'Only one winner can be picked per contest project.',
    message: 'A winner was already selected for this project.',
  }),
  ERROR_GETTINT_VERSIONS: spec(500, ['listVersions'], {
    title: 'The versions could not be loaded',
    hint: RETRY,
    message: 'The deliverable versions could not be retrieved.',
  }),
  ERROR_CREATING_REVISION: spec(500, ['createRevision'], {
    title: 'The revision could not be requested',
    hint: `${RETRY} Your instructions are kept in the form.`,
    message: 'The revision could not be created.',
  }),
  DELIVERABLE_REJECTED: spec([400, 404], ['createRevision'], {
    title: 'A rejected deliverable cannot be revised',
    hint: 'A new deliverable replaces it; review that one when it arrives.',
    message: 'The deliverable is rejected.',
  }),
  DELIVERABLE_PENDING_REVISION: spec([400, 404], ['createRevision'], {
    title: 'A revision is already under way',
    hint: 'Wait for the revised take before asking for another one.',
    message: 'The deliverable already has a pending revision.',
  }),
  TALENT_ON_VACATION: spec(400, ['createRevision'], {
    title: 'The voice talent is on vacation',
    hint: 'Wait until they are back, or send the revision without the availability check (support will contact you).',
    message: 'The talent is on vacation.',
  }),
  FORBIDDEN: spec(403, AUTHENTICATED, {
    title: 'Not allowed',
    hint: 'Your account or token lacks permission for this; check the profile, sign in again, or ask your account manager.',
    message: 'You do not have permission to do this action.',
  }),
  ID_REQUIRED: spec(
    422,
    [
      'approveAll',
      'getDeliverable',
      'approveDeliverable',
      'rejectDeliverable',
      'selectWinner',
      'listVersions',
      'createRevision',
      'getAttributes',
      'getAttributeValues',
    ],
    {
      title: 'No id given',
      hint: 'This is a bug in Takedesk if you see it; refresh and try again.',
      message: 'id is required.',
    },
  ),

  // --- facts: endpoints the spec only names (docs/service.md#error-codes), and sandbox choices ---
  NOT_CATEGORIES_INFO: facts(500, ['listCategories'], {
    title: 'The categories could not be loaded',
    hint: RETRY,
    message: 'The categories information could not be retrieved.',
  }),
  NOT_CATEGORIES_ATTRIBUTES: facts(500, ['getAttributes'], {
    title: 'The category options could not be loaded',
    hint: RETRY,
    message: 'The category attributes could not be retrieved.',
  }),
  CATEGORY_NOT_AUTHORIZED: facts(422, ['getAttributes', 'getAttributeValues'], {
    title: 'This category is not enabled for your account',
    hint: 'Ask your account manager to enable it for API projects.',
    message: 'The category is not authorized for API projects.',
  }),
  NOT_ATTRIBUTES__VALUES: facts(500, ['getAttributeValues'], {
    title: 'The options could not be loaded',
    hint: RETRY,
    message: 'The attribute values could not be retrieved.',
  }),
  ATTRIBUTE_NO_VALUES: facts(404, ['getAttributeValues'], {
    title: 'No options for this field',
    hint: 'This field takes free text or has nothing to choose from.',
    message: 'The attribute has no selectable values.',
  }),
  ATTRIBUTE_NOT_CATEGORY: facts(422, ['getAttributeValues'], {
    title: 'This field does not belong to the category',
    hint: 'This is a bug in Takedesk if you see it.',
    message: 'The attribute does not belong to this category.',
  }),
  ATTRIBUTE_ID_REQUIRED: facts(422, ['getAttributeValues'], {
    title: 'No field given',
    hint: 'This is a bug in Takedesk if you see it.',
    message: 'attributeId is required.',
  }),
  PROJECT_NOT_QUOTED: facts(500, ['quote'], {
    title: 'The price could not be calculated',
    hint: RETRY,
    message: 'The project could not be quoted.',
  }),
  USER_NOT_FOUND: facts(401, ['signIn'], {
    title: 'Wrong email or password',
    hint: 'Check both and sign in again.',
    message: 'User not found.',
  }),
  // docs/service.md#tokens-expire: an expired token answers 401 "Not valid …"; the code's name is cut, so
  // this one is ours.
  TOKEN_NOT_VALID: facts(401, AUTHENTICATED, {
    title: 'Your session expired',
    hint: 'Sign in again; Takedesk then retries what you were doing.',
    message: 'Not valid token.',
  }),
  USER_NOT_API_ENABLED: facts(401, ['signIn'], {
    title: 'API access is not enabled for this account',
    hint: 'Ask your account manager to enable the API feature.',
    message: 'The user does not have the API feature enabled.',
  }),
  PASSWORD_REQUIRED: facts(422, ['signIn'], {
    title: 'Enter your password',
    hint: 'The password field is empty.',
    message: 'password is required.',
  }),
  EMAIL_REQUIRED: facts(422, ['signIn'], {
    title: 'Enter your email',
    hint: 'The email field is empty.',
    message: 'email is required.',
  }),
  EMAIL_REQUIRED_NOT_VALID: facts(422, ['signIn'], {
    title: 'That email address is not valid',
    hint: 'Check the address for typos.',
    message: 'email is not valid.',
  }),
  TRACK_NO_EXIST: facts(404, ['getTrack'], {
    title: 'Music track not found',
    hint: 'Pick another track from the music library.',
    message: 'The track does not exist.',
  }),
  INVALID_JSON: facts(400, WITH_BODY, {
    title: 'The request could not be read',
    hint: 'This is a bug in Takedesk if you see it.',
    message: 'The request body is not valid JSON.',
  }),
  // Sandbox choice (electron/sandbox/README.md): request bodies are read up to 1 MiB.
  BODY_TOO_LARGE: facts(413, WITH_BODY, {
    title: 'The request is too large',
    hint: 'Shorten the script or the texts of the project and send it again.',
    message: 'The request body is larger than the service accepts.',
  }),
  NOT_FOUND: facts(404, [], {
    title: 'Unknown address',
    hint: 'Check the service URL of the profile.',
    message: 'No such endpoint.',
  }),

  // --- extension: validation the spec leaves "not shown" (all 422) ----------------------------
  BODY_WRONG_TYPE: ext(WITH_BODY, {
    title: 'The request is not an object',
    hint: 'This is a bug in Takedesk if you see it.',
    message: 'The request body must be a JSON object.',
  }),
  FULFILLMENT_TYPE_WRONG_TYPE: ext(CREATE_QUOTE, {
    title: 'The fulfilment type is not valid',
    hint: 'Choose speedy, booking or contest.',
    message: 'fulfillmentType must be a string.',
  }),
  FULFILLMENT_TYPE_NOT_ALLOWED: ext(CREATE_QUOTE, {
    title: 'Unknown fulfilment type',
    hint: 'Choose speedy, booking or contest.',
    message: 'fulfillmentType must be one of speedy, booking, contest.',
  }),
  SERVICES_REQUIRED: ext(CREATE_QUOTE, {
    title: 'The project has no services',
    hint: 'Add the services of the project.',
    message: 'services is required.',
  }),
  SERVICES_WRONG_TYPE: ext(CREATE_QUOTE, {
    title: 'The services are not valid',
    hint: FIX_FORM,
    message: 'services must be an array.',
  }),
  SERVICE_WRONG_TYPE: ext(CREATE_QUOTE, {
    title: 'A service is not valid',
    hint: FIX_FORM,
    message: 'Each service must be an object.',
  }),
  SERVICE_MISSING: ext(CREATE_QUOTE, {
    title: 'A required service is missing',
    hint: 'A voice over project needs its voice over; an audio ad needs voice over and post production.',
    message: 'A required service is missing.',
  }),
  SERVICE_NOT_ALLOWED: ext(CREATE_QUOTE, {
    title: 'A service does not fit this category',
    hint: 'Remove the extra or duplicated service.',
    message: 'This service is not allowed here.',
  }),
  SCRIPT_EMPTY: ext(CREATE_QUOTE, {
    title: 'The script is empty',
    hint: 'Paste the text the voice should read.',
    message: 'script must contain text.',
  }),
  SECONDS_REQUIRED: ext(CREATE_QUOTE, {
    title: 'No length given',
    hint: 'Enter the length of the ad in seconds.',
    message: 'seconds is required.',
  }),
  SECONDS_WRONG_TYPE: ext(CREATE_QUOTE, {
    title: 'The length is not valid',
    hint: 'Enter a positive number of seconds, at most 3600 (one hour).',
    message: 'seconds must be a positive number of at most 3600.',
  }),
  VOICE_PERSPECTIVE_WRONG_TYPE: ext(CREATE_QUOTE, {
    title: 'The voice perspective is not valid',
    hint: 'Pick a perspective from the list.',
    message: 'voicePerspective must be a string.',
  }),
  TOPIC_REQUIRED: ext(CREATE_QUOTE, {
    title: 'The script needs a topic',
    hint: 'Say what the ad is about.',
    message: 'topic is required.',
  }),
  TOPIC_WRONG_TYPE: ext(CREATE_QUOTE, {
    title: 'The topic is not text',
    hint: FIX_FORM,
    message: 'topic must be a string.',
  }),
  PURPOSE_REQUIRED: ext(CREATE_QUOTE, {
    title: 'The script needs a purpose',
    hint: 'Say what the ad should achieve.',
    message: 'purpose is required.',
  }),
  PURPOSE_WRONG_TYPE: ext(CREATE_QUOTE, {
    title: 'The purpose is not valid',
    hint: FIX_FORM,
    message: 'purpose must be a string.',
  }),
  TARGET_AUDIENCE_REQUIRED: ext(CREATE_QUOTE, {
    title: 'The script needs a target audience',
    hint: 'Say who the ad speaks to.',
    message: 'targetAudience is required.',
  }),
  TARGET_AUDIENCE_WRONG_TYPE: ext(CREATE_QUOTE, {
    title: 'The target audience is not text',
    hint: FIX_FORM,
    message: 'targetAudience must be a string.',
  }),
  KEYWORDS_WRONG_TYPE: ext(CREATE_QUOTE, {
    title: 'The keywords are not text',
    hint: 'Write the keywords as one text, separated by commas.',
    message: 'keywords must be a string.',
  }),
  TONE_WRONG_TYPE: ext(CREATE_QUOTE, {
    title: 'The tone settings are not valid',
    hint: 'Each tone slider takes a number; unknown sliders are not accepted.',
    message:
      'tone must be an object of numbers with the keys seriousHumorous, conciseWordy, objectiveOpinionated, sincereSarcastic, journalisticCreative.',
  }),
  ASSETS_FILES_WRONG_TYPE: ext(CREATE_QUOTE, {
    title: 'The attachments are not valid',
    hint: 'Attachments must be a list of links.',
    message: 'assetsFiles must be an array of URL strings.',
  }),
  INVALID_URL: ext(CREATE_QUOTE, {
    title: 'A link is not valid',
    hint: 'Use a full http:// or https:// link.',
    message: 'The value must be an http(s) URL.',
  }),
  TRACK_ID_WRONG_TYPE: ext(CREATE_QUOTE, {
    title: 'The music track is not valid',
    hint: 'Pick a track from the music library.',
    message: 'trackId must be an integer.',
  }),
  OWN_MUSIC_FILE_WRONG_TYPE: ext(CREATE_QUOTE, {
    title: 'The music file link is not valid',
    hint: 'Give the link of your music file as text.',
    message: 'ownMusicFile must be a URL string.',
  }),
  TRACK_ID_AND_OWN_MUSIC_FILE: ext(CREATE_QUOTE, {
    title: 'Choose one source of music',
    hint: 'Use a library track or your own music file, not both.',
    message: 'trackId and ownMusicFile cannot be sent together.',
  }),
  OWN_MUSIC_FILE_RIGHTS_REQUIRED: ext(CREATE_QUOTE, {
    title: 'Confirm the rights to your music',
    hint: 'Say whether you hold the rights to the music file you attached.',
    message: 'ownMusicFileRights is required when ownMusicFile is present.',
  }),
  OWN_MUSIC_FILE_RIGHTS_WRONG_TYPE: ext(CREATE_QUOTE, {
    title: 'The music rights answer is not valid',
    hint: 'Answer yes or no.',
    message: 'ownMusicFileRights must be a boolean.',
  }),
  PRO_SELECTS_MUSIC_WRONG_TYPE: ext(CREATE_QUOTE, {
    title: 'The "pro selects music" choice is not valid',
    hint: 'Set it on or off.',
    message: 'proSelectsMusic must be a boolean.',
  }),
  STATUS_NOT_ALLOWED: ext(
    ['cancelProject', 'approveAll', 'approveDeliverable', 'rejectDeliverable', 'selectWinner'],
    {
      title: 'Unknown action',
      hint: 'This is a bug in Takedesk if you see it.',
      message: 'status is not one of the allowed values.',
    },
  ),
  REASON_WRONG_TYPE: ext(['cancelProject', 'rejectDeliverable', 'createRevision'], {
    title: 'The reason is not text',
    hint: FIX_FORM,
    message: 'reason must be a string.',
  }),
  REASON_CODE_WRONG_TYPE: ext(['cancelProject', 'rejectDeliverable', 'createRevision'], {
    title: 'The reason is not valid',
    hint: 'Pick a reason from the list.',
    message: 'reasonCode must be a string.',
  }),
  REASON_CODE_NOT_ALLOWED: ext(['cancelProject', 'rejectDeliverable', 'createRevision'], {
    title: 'Unknown reason',
    hint: 'Pick a reason from the list.',
    message: 'The reason code is not one of the allowed values.',
  }),
  NEW_GENDER_AND_AGE_REQUIRED: ext(['rejectDeliverable'], {
    title: 'Choose the new voice gender and age',
    hint: 'When rejecting for gender and age, say which gender and age you want instead.',
    message: 'newGenderAndAge is required when the reason is genderAndAgeChange.',
  }),
  NEW_GENDER_AND_AGE_WRONG_TYPE: ext(['rejectDeliverable'], {
    title: 'The new gender and age is not valid',
    hint: 'Pick a gender and age from the list.',
    message: 'newGenderAndAge must be a string.',
  }),
  INSTRUCTIONS_REQUIRED: ext(['createRevision'], {
    title: 'Say what to change',
    hint: 'Write instructions for the revision.',
    message: 'instructions is required.',
  }),
  INSTRUCTIONS_WRONG_TYPE: ext(['createRevision'], {
    title: 'The instructions are not text',
    hint: FIX_FORM,
    message: 'instructions must be a string.',
  }),
  REVISION_CODE_WRONG_TYPE: ext(['createRevision'], {
    title: 'The revision type is not valid',
    hint: 'Pick a revision type from the list.',
    message: 'revisionCode must be a string.',
  }),
  CHECK_TALENT_WRONG_TYPE: ext(['createRevision'], {
    title: 'The availability check choice is not valid',
    hint: 'Set it on or off.',
    message: 'checkTalent must be a boolean.',
  }),
  // Sandbox choices for cases the spec leaves open (electron/sandbox/README.md).
  PROJECT_NOT_CONTEST: ext(['selectWinner'], {
    title: 'Not a contest project',
    hint: 'A winner can only be picked in a contest project; approve the deliverable instead.',
    message: 'A winner can only be selected in a contest project.',
  }),
  CURRENCY_NOT_SUPPORTED: ext(['search'], {
    title: 'Unknown currency',
    hint: 'Use USD, EUR, GBP, CAD or AUD.',
    message: 'The currency is not supported.',
  }),
  CATEGORY_ID_REQUIRED: ext(['search'], {
    title: 'No category given',
    hint: 'Pick a category to search.',
    message: 'categoryId is required.',
  }),
  QUERY_WRONG_TYPE: ext(['listProjects', 'search'], {
    title: 'A filter is not valid',
    hint: 'Page and page size are whole numbers from 1; prices and days are numbers.',
    message: 'A query parameter has the wrong type.',
  }),

  // --- client: failures on this side of the wire ---------------------------------------------
  NETWORK_UNREACHABLE: client(ALL, {
    title: 'Cannot reach the service',
    hint: 'Check your connection; your work is kept and downloaded files stay available offline.',
    message: 'The service could not be reached.',
  }),
  TIMEOUT: client(ALL, {
    title: 'The service did not answer in time',
    hint: RETRY,
    message: 'The request timed out.',
  }),
  UNEXPECTED_RESPONSE: client(ALL, {
    title: 'The service sent an answer Takedesk does not understand',
    hint: 'Try again; if it persists, the service may have changed; report it with the log.',
    message: 'The response did not match the expected shape.',
  }),
  VALIDATION_ERROR: client([], {
    title: 'Invalid input',
    hint: 'This is a bug in Takedesk if you see it.',
    message: 'The input was rejected before it was sent.',
  }),
  CANCELED: client(ALL, {
    title: 'Canceled',
    hint: 'The action was stopped; start it again when you want.',
    message: 'The operation was canceled.',
  }),
  // A download's own failures (downloads/errors.ts), shown on its row.
  NETWORK: client([], {
    title: 'The download lost its connection',
    hint: 'Takedesk retries by itself; use Resume once the service can be reached again.',
    message: 'The connection broke during the download.',
  }),
  HTTP: client([], {
    title: 'The service refused the file',
    hint: 'Resume to ask again; the link is looked up anew each time.',
    message: 'The file server answered with an error.',
  }),
  SIZE_MISMATCH: client([], {
    title: 'The file arrived incomplete',
    hint: 'Resume to download it again; nothing incomplete was put in the library.',
    message: 'The file did not have the size the service announced.',
  }),
  RESOLVE_FAILED: client([], {
    title: 'The file could not be looked up',
    hint: 'Resume when the service can be reached; the download then looks its link up again.',
    message: 'The deliverable or its file link could not be read from the service.',
  }),
  NO_SUCH_FORMAT: client([], {
    title: 'That format is not delivered',
    hint: 'Download one of the formats the deliverable offers.',
    message: 'The deliverable has no file in that format.',
  }),
  FORMAT_NOT_AVAILABLE: client([], {
    title: 'That format is not delivered',
    hint: 'Download one of the formats the deliverable offers.',
    message: 'The deliverable has no file in that format.',
  }),
  PATH_ESCAPE: client([], {
    title: 'Takedesk will not write there',
    hint: 'Something in the library folder (a link) leads outside it; remove it and download again.',
    message: 'The target path leads outside the library.',
  }),
  DISK_FULL: client([], {
    title: 'The disk is full',
    hint: 'Free some space or choose another download folder.',
    message: 'There is not enough disk space.',
  }),
  PERMISSION_DENIED: client([], {
    title: 'Takedesk may not write there',
    hint: 'Choose another folder or change its permissions.',
    message: 'Permission denied on the local file system.',
  }),
  NOT_FOUND_LOCAL: client([], {
    title: 'The file is gone',
    hint: 'It was moved or deleted; download it again.',
    message: 'The local file was not found.',
  }),
  // The library's own files (electron/main/library): what stands where an item's file should be.
  LINK_REFUSED: client([], {
    title: 'A link stands where the file was',
    hint: 'Takedesk reads nothing through links in the library: remove the link, then download the file again.',
    message: 'The library file is a link.',
  }),
  NOT_A_FILE: client([], {
    title: 'A folder stands where the file was',
    hint: 'Move the folder out of the library, then download the file again.',
    message: 'The library entry is not a file.',
  }),
  LIBRARY_NOT_WRITABLE: client([], {
    title: 'The library folder cannot be written to',
    hint: 'Nothing was changed. Check that the library folder (Settings → Library folder) is writable, then try again.',
    message: 'The library manifest could not be saved.',
  }),
  AUDIO_UNREADABLE: client([], {
    title: 'The file cannot be read as audio',
    hint: 'It may be damaged: remove it from the library and download it again.',
    message: 'The audio file could not be decoded.',
  }),
  CREATE_OUTCOME_UNKNOWN: client(['createProject'], {
    title: 'The answer to “create project” was lost',
    hint: 'Takedesk looks for the project by its title before offering to send it again, so nothing is ordered twice.',
    message: 'The project may or may not have been created.',
  }),
  // The live pages do not list a winner (docs/service.md#contest-winners): a service may refuse it in its own
  // words.
  WINNER_NOT_OFFERED: client(['selectWinner'], {
    title: 'The service did not accept a contest winner',
    hint: 'Approve the take you prefer instead.',
    message: 'It may not offer picking winners for this project.',
  }),
  // live-values.ts: a value the docs do not name never goes to a live account; main refuses it before sending.
  SANDBOX_ONLY_VALUE: client([], {
    title: 'That choice exists only in the sandbox',
    hint: 'Choose one of the values this account offers, then send it again.',
    message: 'The request carries a value the live service does not document.',
  }),
  SECRETS_UNAVAILABLE: client([], {
    title: 'This computer offers no safe place for the token',
    hint: 'Unlock or set up the OS keychain (Keychain, Credential Manager, Secret Service), then add the account again.',
    message: 'Encryption of secrets is not available.',
  }),
  SECRETS_UNREADABLE: client([], {
    title: 'Saved tokens cannot be read',
    hint: 'Sign in again; the old tokens file is left untouched for inspection.',
    message: 'The secrets store could not be read.',
  }),
  SESSION_EXPIRED: client([], {
    title: 'Your session expired',
    hint: 'Sign in again; Takedesk then retries what you were doing.',
    message: 'The service no longer accepts the saved token.',
  }),
  OTHER_ACCOUNT: client([], {
    title: 'That is another account',
    hint: 'Sign in with the account this connection belongs to, or add the other account as a new connection in Settings.',
    message: 'The sign-in belongs to another account than this connection’s.',
  }),
  PROFILE_NOT_FOUND: client([], {
    title: 'That account is not set up here',
    hint: 'Reload the profiles list.',
    message: 'The profile does not exist.',
  }),
  PROFILE_NOT_REMOVABLE: client([], {
    title: 'The Sandbox profile stays',
    hint: 'It lets you try everything without an account; switch to another profile instead.',
    message: 'The Sandbox profile cannot be removed.',
  }),
  INVALID_BASE_URL: client([], {
    title: 'That service address is not valid',
    hint: 'Use the full address, e.g. https://api.example.com.',
    message: 'The base URL is not a valid http(s) URL.',
  }),
  INVALID_PROFILE: client([], {
    title: 'That account could not be saved',
    hint: 'Check the name and the token.',
    message: 'The profile is not valid.',
  }),
  QUEUED_OFFLINE: client([], {
    title: 'Saved in the outbox',
    hint: 'Takedesk sends it as soon as the service can be reached again; see Outbox.',
    message:
      'The service cannot be reached: your decision is saved in the outbox and will be sent when it is back.',
  }),
  DECISION_NOT_SAVED: client([], {
    title: 'Your decision could not be saved',
    hint: 'Nothing was sent. Free some disk space (or close what holds the app data folder), then decide again: what you typed is kept.',
    message: 'The decision could not be written to the local database.',
  }),
  NOT_LOADED_OFFLINE: client([], {
    title: 'Not loaded on this computer yet',
    hint: 'It opens once the service can be reached again; what was loaded before still opens offline.',
    message: 'This was not loaded on this computer yet, and the service cannot be reached.',
  }),
  SANDBOX_UNAVAILABLE: client([], {
    title: 'The sandbox service is not running',
    hint: 'Takedesk restarts it by itself; use “Restart sandbox” in Settings to try now. Your library still works.',
    message: 'The sandbox service stopped; restarting…',
  }),
  MEDIA_NOT_ALLOWED: client([], {
    title: 'That media link is not from the service',
    hint: 'Reload the deliverable and try again.',
    message: 'Only media links the service returned can be played.',
  }),
  FORBIDDEN_SENDER: client([], {
    title: 'Blocked',
    hint: 'Only Takedesk’s own window may call the app.',
    message: 'This frame may not call Takedesk.',
  }),
  // Browser mode: a call reached the local bridge without the launch secret (a tab not opened from its URL).
  BROWSER_SESSION_REQUIRED: client([], {
    title: 'This tab is not signed in to Takedesk',
    hint: 'Open Takedesk with the URL printed in the terminal; it carries this launch’s secret.',
    message: 'The call did not carry the browser-mode session.',
  }),
  INTERNAL: client([], {
    title: 'Something went wrong in Takedesk',
    hint: 'Try again; if it persists, report it with the log.',
    message: 'An internal error occurred.',
  }),
} satisfies Record<string, Def>;

/** Every error code Takedesk knows. */
export type ErrorCode = keyof typeof DEFS;

/** The catalog: code -> entry. */
export const ERROR_CATALOG: { readonly [K in ErrorCode]: ErrorEntry<K> } = Object.freeze(
  Object.fromEntries(Object.entries(DEFS).map(([type, d]) => [type, Object.freeze({ type, ...d })])),
) as { readonly [K in ErrorCode]: ErrorEntry<K> };

/** All codes, in catalog order. */
export const ERROR_CODES: readonly ErrorCode[] = Object.freeze(Object.keys(DEFS) as ErrorCode[]);

function codesFrom(source: ErrorSource): readonly ErrorCode[] {
  return Object.freeze(ERROR_CODES.filter((code) => ERROR_CATALOG[code].source === source));
}
/** The 52 codes of the service's interface text (docs/service.md#error-codes), in its order. */
export const SPEC_ERROR_CODES: readonly ErrorCode[] = codesFrom('spec');
/** Codes of the live pages (docs/service.md#error-codes) and sandbox choices for gaps. */
export const FACTS_ERROR_CODES: readonly ErrorCode[] = codesFrom('facts');
/** Our validation codes in the spec's style (README "Reading of the spec" lists them). */
export const EXTENSION_ERROR_CODES: readonly ErrorCode[] = codesFrom('extension');
/** Client-side codes (no HTTP status). */
export const CLIENT_ERROR_CODES: readonly ErrorCode[] = codesFrom('client');

/** Whether a string is a code of the catalog. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CATALOG, value);
}

/** Codes an operation can produce. */
export function errorsFor(operation: Operation): readonly ErrorCode[] {
  return ERROR_CODES.filter((code) => ERROR_CATALOG[code].operations.includes(operation));
}

/** Heading and body status of a code, for one operation when the spec gives it its own pair. */
export function statusesFor(type: ErrorCode, operation?: Operation): StatusPair {
  const entry: ErrorEntry = ERROR_CATALOG[type];
  const override = operation ? entry.overrides?.[operation] : undefined;
  return override ?? { http: entry.http, body: entry.body };
}

/** The error body the service sends; the message defaults to the catalog's. */
export function errorBody(type: ErrorCode, operation?: Operation, message?: string): ErrorBody {
  return { status: statusesFor(type, operation).body, type, message: message ?? ERROR_CATALOG[type].message };
}

/** The sandbox's TALENT_ON_VACATION message; the UI reads the date back with parseTalentAwayUntil. */
export function talentAwayMessage(untilIso: string): string {
  return `The talent is on vacation until ${untilIso}.`;
}

const ISO_DATE_IN_TEXT =
  /(?<![\d-])(\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01]))(?:[T ]((?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?(?![\d-])/;

/**
 * The end of the talent's absence found anywhere in a message: "YYYY-MM-DD" or that date with a
 * time ("2026-12-05T10:00:00"), so live-service wording works too. Undefined when none.
 */
export function parseTalentAwayUntil(message: string): string | undefined {
  const match = ISO_DATE_IN_TEXT.exec(message);
  if (!match?.[1]) return undefined;
  return match[2] ? `${match[1]}T${match[2]}${match[3] ?? ''}` : match[1];
}

/** What the UI shows for an error. */
export interface ErrorDescription {
  title: string;
  detail: string;
  hint: string;
}

/** Producer-facing title, detail and hint for a service or client error (unknown codes get a generic text). */
export function describeError(error: { type: string; message?: string }, locale = 'en-US'): ErrorDescription {
  const message = error.message?.trim() ?? '';
  if (!isErrorCode(error.type)) {
    return {
      title: `The service reported an error (${error.type})`,
      detail: message || 'No details were given.',
      hint: 'Try again; if it keeps happening, contact support with this code.',
    };
  }
  const entry: ErrorEntry = ERROR_CATALOG[error.type];
  if (error.type === 'TALENT_ON_VACATION') {
    const until = parseTalentAwayUntil(message);
    if (until) {
      const date = new Date(`${until.slice(0, 10)}T00:00:00Z`);
      const shown = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
      return { title: entry.title, detail: `The talent is away until ${shown}.`, hint: entry.hint };
    }
  }
  return { title: entry.title, detail: message || entry.message, hint: entry.hint };
}

/** Options of a ServiceError beyond its code and message. */
export interface ServiceErrorOptions {
  /** Heading status; defaults to the catalog's for the operation. */
  status?: number;
  /** Body status; defaults to the catalog's for the operation. */
  bodyStatus?: number;
  operation?: Operation;
  cause?: unknown;
  /** The pause a 429 asked for (Retry-After), in ms. */
  retryAfterMs?: number;
}

/** An error answered by the service (or raised by the client with a catalog code). */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  /** A catalog code, or an unknown code the live service sent. */
  readonly type: ErrorCode | (string & {});
  /** Heading (HTTP) status. */
  readonly status: number;
  /** `status` field of the body. */
  readonly bodyStatus: number;
  readonly operation?: Operation;
  /** The pause a 429 asked for (Retry-After), in ms. */
  readonly retryAfterMs?: number;

  constructor(type: ErrorCode | (string & {}), message?: string, options: ServiceErrorOptions = {}) {
    const known = isErrorCode(type) ? type : undefined;
    super(message ?? (known ? ERROR_CATALOG[known].message : type), { cause: options.cause });
    const defaults = known ? statusesFor(known, options.operation) : { http: 0, body: 0 };
    this.type = type;
    this.status = options.status ?? defaults.http;
    this.bodyStatus = options.bodyStatus ?? (known ? defaults.body : this.status);
    if (options.operation) this.operation = options.operation;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }

  /** Build from a parsed error body and the response's heading status. */
  static fromBody(
    body: ErrorBody,
    httpStatus: number,
    operation?: Operation,
    retryAfterMs?: number,
  ): ServiceError {
    return new ServiceError(body.type, body.message, {
      status: httpStatus,
      bodyStatus: body.status,
      ...(operation ? { operation } : {}),
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }

  /** The body as the service would send it. */
  toBody(): ErrorBody {
    return { status: this.bodyStatus, type: this.type, message: this.message };
  }
}

/** The spec's own answers to "select winner" (plus the sandbox's PROJECT_NOT_CONTEST): each says what happened. */
const WINNER_ANSWERS: ReadonlySet<string> = new Set([
  'WINNER_ALREADY_SELECTED',
  'DELIVERABLE_NOT_PENDING_REVIEW',
  'DELIVERABLE_NO_EXIST',
  'FORBIDDEN',
  'ID_REQUIRED',
  'ERROR_SELECTING_WINNER',
  'PROJECT_NOT_CONTEST',
]);

/**
 * Whether an error answering `PUT /deliverables/{id}` `{status:'winner'}` is the service refusing winners as
 * such (STATUS_NOT_ALLOWED, a code of its own, a 404/405 route): any 4xx but the spec's winner errors, an
 * expired sign-in (401) and throttling (429).
 */
export function isWinnerRefusal(error: { type: string; status: number }): boolean {
  if (WINNER_ANSWERS.has(error.type)) return false;
  return error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 429;
}

/** Whether a value is a ServiceError. */
export function isServiceError(value: unknown): value is ServiceError {
  return value instanceof ServiceError;
}
