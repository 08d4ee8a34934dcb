/**
 * An error main raises itself (no service call behind it): the router turns `type` into the envelope's error type,
 * and `status: 0` says no HTTP status applies.
 */
export function localError(type: string, message: string): Error & { type: string; status: 0 } {
  return Object.assign(new Error(message), { type, status: 0 as const });
}
