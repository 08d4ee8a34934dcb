// The catalog assembled from its four sources, in the order spec, live service, extension, client, and the
// lookups on it: is a string a code, which codes an operation can produce, a code's statuses and its error body.
import type { ErrorBody } from '../schemas';
import { CLIENT_CODES } from './client-codes';
import { EXTENSION_CODES } from './extension-codes';
import { FACTS_CODES } from './facts-codes';
import { SPEC_CODES } from './spec-codes';
import type { ErrorEntry, ErrorSource, Operation, StatusPair } from './types';

type Parts = [typeof SPEC_CODES, typeof FACTS_CODES, typeof EXTENSION_CODES, typeof CLIENT_CODES];
/** Codes found in more than one part (never, when each code is defined once). */
type Repeated<P extends unknown[], Seen = never> = P extends [infer Head, ...infer Rest]
  ? Extract<keyof Head, Seen> | Repeated<Rest, Seen | keyof Head>
  : never;
type NoneOf<T extends never> = T;
// The spread below would let a later part silently replace a code of an earlier one; this makes a code defined
// twice a type error naming it, as a repeated key in one object literal is.
type _EachCodeOnce = NoneOf<Repeated<Parts>>;

const DEFS = { ...SPEC_CODES, ...FACTS_CODES, ...EXTENSION_CODES, ...CLIENT_CODES };

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
