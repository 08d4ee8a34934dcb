/**
 * An error main raises itself (no service call behind it): the router turns `type` into the envelope's error type,
 * and `status: 0` says no HTTP status applies.
 */
export function localError(type: string, message: string): Error & { type: string; status: 0 } {
  return Object.assign(new Error(message), { type, status: 0 as const });
}

/** The answer for an item whose file is not in the library here: never downloaded, removed, or another profile's. */
export function notInLibrary(): Error & { type: string; status: 0 } {
  return localError('NOT_FOUND_LOCAL', 'This file is not in the library.');
}

/** What was found for an item of the library (its entry or its file's path); `notInLibrary()` when nothing was. */
export function inLibrary<T>(found: T | null | undefined): T {
  if (found === null || found === undefined) throw notInLibrary();
  return found;
}
