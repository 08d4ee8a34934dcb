/**
 * The one rule for ids that name a record in a request path (project, deliverable, category,
 * attribute, track) or a local record (profile, download, library item). Live ids are UUIDs, snake
 * or kebab case words (`voice_over`, `post-production`, `genderAndAge`), numbers and hex digests
 * (docs/service.md#resources-and-fields, docs/service.md#allowed-values), so the rule refuses only what could
 * move a request to
 * another path of the service or break encoding (issue 13, item 7): dot segments, path and query
 * delimiters, percent signs (pre-encoded text such as `%2e%2e`), control characters and lone
 * surrogates. Everything else is left for the service to answer `*_NO_EXIST`.
 */
import { z } from 'zod';

/** Longest id accepted (a UUID is 36 characters; nothing live comes near this). */
export const MAX_ID_LENGTH = 200;

/** What a producer (or a log) reads when an id is refused. */
export const ID_RULE_MESSAGE =
  'Not a valid id: it must be 1 to 200 characters, not "." or "..", without / \\ ? # %, control characters or broken Unicode.';

// Lone surrogates: in a `u` regex a well-formed pair is one code point, so only a lone half matches.
// (String.prototype.isWellFormed would do, but is ES2024; this works in every target.)
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
// C0 controls, DEL, C1 controls; and the characters that end or split a path segment, or start an escape.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u001F\u007F-\u009F/\\?#%]/;

/** Whether a string may name a record in a request path (see the module comment for the rule). */
export function isSafeId(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= MAX_ID_LENGTH &&
    value !== '.' &&
    value !== '..' &&
    !FORBIDDEN.test(value) &&
    !LONE_SURROGATE.test(value)
  );
}

/** The id schema every IPC input that carries an id uses. */
export const Id = z.string().refine(isSafeId, { message: ID_RULE_MESSAGE });
