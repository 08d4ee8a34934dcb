// The zod building blocks the resource schemas share: open enums, the query-string readings of numbers and
// texts, and the bounds of what a caller asks. Not part of the contract: the schemas front does not re-export them.
import { z } from 'zod';

/** A string schema typed as "one of the known values, or any other string" so reads never fail on new values. */
export function openEnum<const T extends readonly string[]>(known: T) {
  return z.string().meta({ examples: [...known] }) as unknown as z.ZodType<T[number] | (string & {}), string>;
}

/** Query-string number: empty means absent, anything else is coerced. */
export function queryNumber() {
  return z.preprocess((v) => (v === '' || v === null ? undefined : v), z.coerce.number().optional());
}
/** Query-string page number with a default. */
export function queryPage(fallback: number) {
  return z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.coerce.number().int().min(1).default(fallback),
  );
}
/** Query-string text: absent becomes the given default. */
export function queryText(fallback: string) {
  return z.string().default(fallback);
}

/** Page number and size as a caller asks for them (bounded so no input asks for an absurd page). */
export const requestPage = z.number().int().min(1).max(1_000_000);
export const requestPageSize = z.number().int().min(1).max(500);
/** Request text with a length bound. */
export const requestText = (max: number) => z.string().max(max);

/**
 * The query-string reading of a typed query: the same fields, each replaced only where the text of a URL
 * needs another rule (numbers arrive as text, the service's defaults fill what is absent). Overrides must
 * name fields of the query, so the two shapes cannot drift apart.
 */
export function asQueryString<S extends z.ZodRawShape, O extends { [K in keyof S]?: z.ZodType }>(
  query: z.ZodObject<S>,
  fromText: O & Record<Exclude<keyof O, keyof S>, never>,
) {
  return query.extend(fromText);
}
