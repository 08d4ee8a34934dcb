/** What the profiles service refuses in words, what a failed call says of the service, and a service address checked. */
import type { Reachability } from '../../../shared/ipc';

/** A profile operation the user can fix; `type` reaches the UI through the IPC envelope. */
export class ProfileError extends Error {
  override readonly name = 'ProfileError';
  readonly type:
    | 'PROFILE_NOT_FOUND'
    | 'PROFILE_NOT_REMOVABLE'
    | 'INVALID_BASE_URL'
    | 'INVALID_PROFILE'
    | 'SESSION_EXPIRED'
    | 'OTHER_ACCOUNT';
  readonly status = 0;

  constructor(type: ProfileError['type'], message: string) {
    super(message);
    this.type = type;
  }
}

/**
 * What a failed call says of the service: no answer (refused, timed out, a gateway's 502-504) is unreachable;
 * any other answer came from the service. null: the call never left (refused before sending).
 */
export function outcomeOf(error: unknown): Reachability | null {
  const e = error as { status?: unknown; type?: unknown; details?: { cause?: unknown } } | null;
  if (e?.type === 'NETWORK_UNREACHABLE' || e?.type === 'TIMEOUT') return 'unreachable';
  if (e?.type === 'CREATE_OUTCOME_UNKNOWN')
    return e.details?.cause === 'UNEXPECTED_RESPONSE' ? 'reachable' : 'unreachable';
  if (typeof e?.status !== 'number' || e.status <= 0) return null;
  return e.status >= 502 && e.status <= 504 ? 'unreachable' : 'reachable';
}

/** http(s) URL without credentials, query or trailing slash; a path prefix is kept (services behind a gateway). */
export function normalizeBaseUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new ProfileError(
      'INVALID_BASE_URL',
      'The service address must be a full URL, e.g. https://api.example.com.',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ProfileError('INVALID_BASE_URL', 'The service address must start with https:// (or http://).');
  }
  if (url.username || url.password) {
    throw new ProfileError('INVALID_BASE_URL', 'Put the token in the token field, not in the address.');
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
