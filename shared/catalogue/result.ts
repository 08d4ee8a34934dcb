/** Outcome of a seed-data lookup: a value, or a service error code the server maps to its catalog entry. */
export type DataResult<T, Code extends string = string> =
  { ok: true; value: T } | { ok: false; code: Code; message: string };

/** Success value. */
export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });

/** Failure with a service error code. */
export const fail = <Code extends string>(
  code: Code,
  message: string,
): { ok: false; code: Code; message: string } => ({
  ok: false,
  code,
  message,
});
