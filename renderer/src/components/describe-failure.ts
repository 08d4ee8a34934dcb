import { describeError } from '../../../shared/api/errors';
import { isIpcError } from '../../../shared/ipc/api';

/** What the UI shows for a failure, with its code kept for tests and support. */
export interface FailureText {
  type: string;
  title: string;
  detail: string;
  hint: string;
}

/** Where a failure is shown, when the place changes what it means ("forbidden" while adding a token: a bad token). */
export type FailureContext = 'sign-in';

// A service message that names the API (a header, a camelCase field, a code, "title is required.") says nothing
// the catalog's title and hint do not say in the producer's words; it is left out rather than shown twice.
const API_SPEAK = [
  /x-access-token/i,
  /\b[a-z]+[A-Z][A-Za-z]*\b/,
  /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/,
  /^[a-z][A-Za-z]*(?:\.[A-Za-z]+)* (?:is|must|has)\b/,
];

/** Whether a message speaks the API's language rather than the producer's. */
export function speaksApi(message: string): boolean {
  return API_SPEAK.some((pattern) => pattern.test(message));
}

/** Refusals of a token that was just pasted or a sign-in that was just made: the token is what is wrong. */
const TOKEN_REFUSED = new Set(['FORBIDDEN', 'TOKEN_NOT_VALID']);

/** Turns anything a store caught into display text via the shared error catalog, in plain words. */
export function describeFailure(error: unknown, context?: FailureContext): FailureText {
  if (isIpcError(error)) {
    if (context === 'sign-in' && TOKEN_REFUSED.has(error.type)) {
      return {
        type: error.type,
        title: 'The service did not accept this access token',
        detail: '',
        hint: 'Copy the whole token again from your account on the service, or sign in with email and password.',
      };
    }
    const text = describeError({ type: error.type, message: error.message });
    return { type: error.type, ...text, detail: speaksApi(text.detail) ? '' : text.detail };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { type: 'UNKNOWN', title: 'Something went wrong', detail: message, hint: '' };
}
