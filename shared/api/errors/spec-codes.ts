// The 52 codes of the service's interface text (docs/service.md#error-codes), in its order.
import {
  AUTHENTICATED,
  CREATE,
  CREATE_QUOTE,
  DELIVERABLE_BY_ID,
  FIX_FORM,
  RETRY,
  spec,
  type Def,
} from './define';

export const SPEC_CODES = {
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
    // Every operation with an id in its path: a project's, a deliverable's or a category's.
    ['approveAll', ...DELIVERABLE_BY_ID, 'getAttributes', 'getAttributeValues'],
    {
      title: 'No id given',
      hint: 'This is a bug in Takedesk if you see it; refresh and try again.',
      message: 'id is required.',
    },
  ),
} satisfies Record<string, Def>;
