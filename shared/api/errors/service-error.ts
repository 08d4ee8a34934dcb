// The error the client raises for a service answer (or a failure of its own with a catalog code), and which
// answers to "select winner" mean the service refuses winners as such.
import type { ErrorBody } from '../schemas';
import { ERROR_CATALOG, isErrorCode, statusesFor, type ErrorCode } from './catalog';
import type { Operation } from './types';

/** Options of a ServiceError beyond its code and message. */
export interface ServiceErrorOptions {
  /** Heading status; defaults to the catalog's for the operation. */
  status?: number;
  /** Body status; defaults to the catalog's for the operation. */
  bodyStatus?: number;
  operation?: Operation;
  cause?: unknown;
  /** The pause a 429 asked for (Retry-After), in ms. */
  retryAfterMs?: number;
}

/** An error answered by the service (or raised by the client with a catalog code). */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  /** A catalog code, or an unknown code the live service sent. */
  readonly type: ErrorCode | (string & {});
  /** Heading (HTTP) status. */
  readonly status: number;
  /** `status` field of the body. */
  readonly bodyStatus: number;
  readonly operation?: Operation;
  /** The pause a 429 asked for (Retry-After), in ms. */
  readonly retryAfterMs?: number;

  constructor(type: ErrorCode | (string & {}), message?: string, options: ServiceErrorOptions = {}) {
    const known = isErrorCode(type) ? type : undefined;
    super(message ?? (known ? ERROR_CATALOG[known].message : type), { cause: options.cause });
    const defaults = known ? statusesFor(known, options.operation) : { http: 0, body: 0 };
    this.type = type;
    this.status = options.status ?? defaults.http;
    this.bodyStatus = options.bodyStatus ?? (known ? defaults.body : this.status);
    if (options.operation) this.operation = options.operation;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }

  /** Build from a parsed error body and the response's heading status. */
  static fromBody(
    body: ErrorBody,
    httpStatus: number,
    operation?: Operation,
    retryAfterMs?: number,
  ): ServiceError {
    return new ServiceError(body.type, body.message, {
      status: httpStatus,
      bodyStatus: body.status,
      ...(operation ? { operation } : {}),
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }

  /** The body as the service would send it. */
  toBody(): ErrorBody {
    return { status: this.bodyStatus, type: this.type, message: this.message };
  }
}

/** The spec's own answers to "select winner" (plus the sandbox's PROJECT_NOT_CONTEST): each says what happened. */
const WINNER_ANSWERS: ReadonlySet<string> = new Set([
  'WINNER_ALREADY_SELECTED',
  'DELIVERABLE_NOT_PENDING_REVIEW',
  'DELIVERABLE_NO_EXIST',
  'FORBIDDEN',
  'ID_REQUIRED',
  'ERROR_SELECTING_WINNER',
  'PROJECT_NOT_CONTEST',
]);

/**
 * Whether an error answering `PUT /deliverables/{id}` `{status:'winner'}` is the service refusing winners as
 * such (STATUS_NOT_ALLOWED, a code of its own, a 404/405 route): any 4xx but the spec's winner errors, an
 * expired sign-in (401) and throttling (429).
 */
export function isWinnerRefusal(error: { type: string; status: number }): boolean {
  if (WINNER_ANSWERS.has(error.type)) return false;
  return error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 429;
}

/** Whether a value is a ServiceError. */
export function isServiceError(value: unknown): value is ServiceError {
  return value instanceof ServiceError;
}
