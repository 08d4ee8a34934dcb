/**
 * A failure that means the service did not answer (as opposed to an answer saying no); NOT_LOADED_OFFLINE: it did
 * not, and main had nothing loaded for this read either.
 */
export function isUnreachable(error: unknown): boolean {
  const e = error as { type?: unknown; status?: unknown } | null;
  if (e?.type === 'NETWORK_UNREACHABLE' || e?.type === 'TIMEOUT' || e?.type === 'NOT_LOADED_OFFLINE')
    return true;
  return typeof e?.status === 'number' && e.status >= 502 && e.status <= 504;
}
