// The live service's codes: endpoints the spec only names (docs/service.md#error-codes), and the sandbox's
// choices where the live pages leave a gap.
import { AUTHENTICATED, RETRY, WITH_BODY, facts, type Def } from './define';

export const FACTS_CODES = {
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
} satisfies Record<string, Def>;
