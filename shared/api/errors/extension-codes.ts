// Our validation codes in the spec's style, for what the spec leaves "not shown" (all 422), and the sandbox's
// codes for cases the spec leaves open.
import { CREATE_QUOTE, FIX_FORM, WITH_BODY, ext, type Def } from './define';

export const EXTENSION_CODES = {
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
} satisfies Record<string, Def>;
