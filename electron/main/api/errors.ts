/**
 * Errors raised on this side of the wire. Service answers become `ServiceError` (shared/api);
 * these cover what the service never said: network failures, timeouts, answers we can't read,
 * and a create whose outcome is unknown. The IPC router maps both by their `type`/`status`.
 */

/**
 * Codes of client-side failures; `HTTP_<status>` is an error answer without a readable body;
 * `VALIDATION_ERROR` is a request refused before sending (an id that would not stay in its path segment).
 */
export type ApiClientErrorType =
  | 'NETWORK_UNREACHABLE'
  | 'TIMEOUT'
  | 'UNEXPECTED_RESPONSE'
  | 'CREATE_OUTCOME_UNKNOWN'
  | 'VALIDATION_ERROR'
  | `HTTP_${number}`;

export interface ApiClientErrorOptions {
  /** Heading status when a response came back, else 0. */
  status?: number;
  details?: Record<string, unknown>;
  /** The pause a 429 asked for (Retry-After), in ms. */
  retryAfterMs?: number;
}

/** A failure the service did not describe. Never carries the request (it holds the token). */
export class ApiClientError extends Error {
  override readonly name = 'ApiClientError';
  readonly type: ApiClientErrorType;
  /** Heading status of the answer, or 0 when none came back. */
  readonly status: number;
  readonly details: Record<string, unknown>;
  /** The pause a 429 asked for (Retry-After), in ms. */
  readonly retryAfterMs?: number;

  constructor(type: ApiClientErrorType, message: string, options: ApiClientErrorOptions = {}) {
    super(message);
    this.type = type;
    this.status = options.status ?? 0;
    this.details = options.details ?? {};
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}

/** Whether a value is an ApiClientError (optionally of one type). */
export function isApiClientError(value: unknown, type?: ApiClientErrorType): value is ApiClientError {
  return value instanceof ApiClientError && (type === undefined || value.type === type);
}

/**
 * What the UI needs after a lost create response: look the project up by title
 * (`findRecentProject(title, { since: sentAt })`) before offering to send again.
 */
export interface CreateOutcomeUnknownDetails {
  title: string;
  /** When the request was sent, in the service's timestamp format (UTC, no zone). */
  sentAt: string;
  /** How the response was lost; UNEXPECTED_RESPONSE: a 2xx answer that could not be read. */
  cause: 'NETWORK_UNREACHABLE' | 'TIMEOUT' | 'UNEXPECTED_RESPONSE';
}
