/**
 * The transport core of the service client: one request per call with the token read per call, got's retries run
 * by our policy (never acting twice), the answer read tolerantly with the call's schema, and every failure mapped
 * to ServiceError or ApiClientError in plain words. The endpoint table (`endpoints.ts`) says what each call is.
 */
import got, { HTTPError, RequestError, TimeoutError, type Response } from 'got';
import type { z } from 'zod';
import {
  ErrorBody,
  ID_RULE_MESSAGE,
  isoNoZone,
  isServiceError,
  readAnswer,
  ServiceError,
  type Operation,
  type SkippedItem,
} from '../../../shared/api';
import { ApiClientError, type CreateOutcomeUnknownDetails } from './errors';
import type { ApiFallbacks } from './fallbacks';
import { backoffDelay, parseRetryAfter, retryPolicy, type RetryOptions, type RetrySettings } from './retry';

export interface ApiClientOptions {
  /** Service root, e.g. `https://api.example.com` or the sandbox URL; a trailing slash is ignored. */
  baseUrl: string;
  /** Read per request, so a replaced or deleted token takes effect at once. */
  getToken: () => Promise<string | null>;
  /** Whole-request limit per attempt. Default 30 s. */
  timeoutMs?: number;
  retry?: RetryOptions;
  /** Lists used when the service has no categories/attributes/values/tracks endpoints (404). */
  fallbacks?: ApiFallbacks;
  /** Told about list items that could not be read and were skipped (default: main's log). */
  onUnreadable?: (report: UnreadableReport) => void;
  /**
   * Certificate authorities (PEM) trusted instead of the system's: the sandbox's own certificate in HTTPS mode, for
   * the Sandbox profile only. Absent: the system trust store.
   */
  ca?: string;
  /**
   * Whether a write whose answer was lost may be sent again here (default true; never a create or a revision). The
   * decisions store turns it off (`ApiClient.once`): it reads the take before anything is sent again.
   */
  resendWrites?: boolean;
}

/** List items of one answer that were skipped: where and why, never their content or the token. */
export interface UnreadableReport {
  operation: Operation;
  method: string;
  path: string;
  skipped: SkippedItem[];
}

export type Method = 'GET' | 'PUT' | 'POST';

/** One request to the service, as an endpoint entry describes it. */
export interface Call<T> {
  operation: Operation;
  method: Method;
  path: string;
  searchParams?: Record<string, string | number>;
  json?: unknown;
  schema: z.ZodType<T>;
  /** Send the token (everything but sign-in). */
  auth?: boolean;
  /** For writes: may it be sent again after a lost response? (createProject: no). */
  resend?: boolean;
}

/** Set by `send` so a write can tell a genuine error from the echo of its own lost first attempt. */
export interface Trace {
  lostResponse: boolean;
}

/** Transport failures before any byte of the request could have reached the service. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);
const NOT_SENT_TIMEOUTS = new Set(['lookup', 'connect', 'secureConnect']);
// TLS verification failures (OpenSSL's codes, node's host-name check): nothing was sent, and a retry fails the same.
const CERTIFICATE_CODES =
  /^(ERR_TLS_CERT_ALTNAME_INVALID|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_.*|CERT_.*)$/u;

export function invalidId(): ApiClientError {
  return new ApiClientError('VALIDATION_ERROR', ID_RULE_MESSAGE);
}

/** What the client front composes its methods from. */
export interface Transport {
  readonly baseUrl: string;
  send<T>(call: Call<T>, trace?: Trace): Promise<T>;
  write<T>(call: Call<T>, reconcile: (error: ServiceError) => Promise<T | undefined>): Promise<T>;
  withFallback<T>(run: () => Promise<T>, fallback: () => T | undefined): Promise<T>;
  /** Notes when a create call went out, so a lost answer can name the moment to look for it from. */
  markSent(call: Call<unknown>): void;
  createOutcomeUnknown(call: Call<unknown>, cause: CreateOutcomeUnknownDetails['cause']): ApiClientError;
}

/** Creates the transport bound to one base URL and token source. */
export function createTransport(options: ApiClientOptions): Transport {
  const baseUrl = options.baseUrl.trim().replace(/\/+$/, '');
  const origin = safeOrigin(baseUrl);
  const basePath = safePathname(baseUrl);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const policy: RetrySettings = retryPolicy(options.retry);
  // Remembered per create call, so the finder can skip older projects with the same title.
  const sentAt = new WeakMap<Call<unknown>, string>();
  const onUnreadable =
    options.onUnreadable ??
    ((report: UnreadableReport) =>
      console.warn(
        `[takedesk] ${report.method} ${report.path}: skipped ${report.skipped.length} unreadable item(s)`,
        JSON.stringify(report.skipped),
      ));

  // One got instance per client: its own retry (decided per call by `retryDelay`), HTTP errors as HTTPError.
  const http = got.extend({
    headers: { accept: 'application/json' },
    responseType: 'text',
    // Off: the token travels in x-access-token, which got would carry to any host a redirect names, and the
    // spec has no redirects; a 3xx is read as an answer (HTTP_3xx) so the token only reaches the endpoint called.
    followRedirect: false,
    timeout: { request: timeoutMs },
    ...(options.ca ? { https: { certificateAuthority: options.ca } } : {}),
  });

  async function send<T>(call: Call<T>, trace: Trace = { lostResponse: false }): Promise<T> {
    const url = targetOf(call.path);
    const headers: Record<string, string> = {};
    if (call.auth !== false) {
      const token = await options.getToken();
      if (token) headers['x-access-token'] = token;
    }
    try {
      const response = await http(url, {
        method: call.method,
        headers,
        ...(call.searchParams ? { searchParams: call.searchParams } : {}),
        ...(call.json !== undefined ? { json: call.json } : {}),
        retry: {
          limit: policy.retries,
          // Our rules replace got's lists (which would resend a PUT after any answer, or skip a cut body).
          enforceRetryRules: false,
          calculateDelay: ({ attemptCount, error }) => retryDelay(call, trace, attemptCount, error),
        },
      });
      return interpret(response, call);
    } catch (error) {
      if (error instanceof HTTPError) return interpret(error.response as Response<string>, call);
      const failure = classify(error);
      if (!failure) throw error;
      if (failure.maybeDelivered) trace.lostResponse = true;
      if (call.operation === 'createProject' && failure.maybeDelivered) {
        throw createOutcomeUnknown(call, failure.type);
      }
      throw transportError(failure, call);
    }
  }

  /**
   * Our retry policy, as got's `calculateDelay`: 0 stops. GETs retry on network errors, 5xx and 429 (honouring
   * Retry-After); a write is resent only when no answer came back, never a create. The wait is ours
   * (`policy.sleep`, so tests run on a virtual clock); got then retries at once (1 ms, its shortest delay).
   */
  async function retryDelay(
    call: Call<unknown>,
    trace: Trace,
    attemptCount: number,
    error: RequestError,
  ): Promise<number> {
    let delayMs: number;
    let reason: string;
    if (error instanceof HTTPError) {
      const status = error.response.statusCode;
      if (call.method !== 'GET' || !(status >= 500 || status === 429)) return 0;
      if (attemptCount > policy.retries) return 0;
      const asked = parseRetryAfter(
        headerText(error.response.headers['retry-after']),
        policy.now(),
        policy.maxRetryAfterMs,
      );
      delayMs = asked ?? backoffDelay(policy, attemptCount - 1);
      reason = `HTTP_${status}`;
    } else {
      const failure = classify(error);
      if (!failure) return 0;
      if (failure.maybeDelivered) trace.lostResponse = true;
      // A write is sent again only if no answer came back: an answer, even cut short, means it was processed.
      // A refused certificate is refused again: no retry.
      const mayResend =
        !CERTIFICATE_CODES.test(failure.code) &&
        (call.method === 'GET' ||
          (call.resend !== false && options.resendWrites !== false && !failure.responded));
      if (!mayResend || attemptCount > policy.retries) return 0;
      delayMs = backoffDelay(policy, attemptCount - 1);
      reason = failure.type;
    }
    policy.onRetry?.({ method: call.method, path: call.path, attempt: attemptCount, delayMs, reason });
    await policy.sleep(delayMs);
    return 1;
  }

  /**
   * The URL a call goes to, refused (VALIDATION_ERROR) unless its path is exactly the endpoint's, as built:
   * the URL parser must not resolve a dot segment or find a query or fragment in it, so the token only ever
   * goes to the endpoint the call names (defence in depth behind `endpoint`).
   */
  function targetOf(path: string): URL {
    let url: URL;
    try {
      url = new URL(baseUrl + path);
    } catch {
      throw new ApiClientError('VALIDATION_ERROR', `The service address ${baseUrl} is not a valid URL.`);
    }
    if (url.pathname !== basePath + path || url.search !== '' || url.hash !== '') throw invalidId();
    return url;
  }

  function interpret<T>(response: Response<string>, call: Call<T>): T {
    const status = response.statusCode;
    // A 429's or a gateway's Retry-After travels with the error, so a caller that paces itself (the watcher, the
    // decisions store) can honour it.
    const retryAfterMs =
      status === 429 || status === 502 || status === 503 || status === 504
        ? (parseRetryAfter(headerText(response.headers['retry-after']), policy.now(), 3_600_000) ?? undefined)
        : undefined;
    if (status >= 200 && status < 300) {
      // Lists are read item by item: an unreadable item is skipped, logged and counted, never fatal.
      const parsed = readAnswer(call.schema, parseJson(response.body));
      if (parsed.success) {
        if (parsed.skipped.length) {
          onUnreadable({
            operation: call.operation,
            method: call.method,
            path: call.path,
            skipped: parsed.skipped,
          });
        }
        return parsed.data;
      }
      throw new ApiClientError(
        'UNEXPECTED_RESPONSE',
        `The service answered ${call.method} ${call.path} with data Takedesk does not understand.`,
        { status, details: { operation: call.operation, issues: parsed.issues } },
      );
    }
    const body = ErrorBody.safeParse(parseJson(response.body));
    if (body.success) throw ServiceError.fromBody(body.data, status, call.operation, retryAfterMs);
    throw new ApiClientError(
      `HTTP_${status}`,
      `The service answered ${call.method} ${call.path} with HTTP ${status} and no error description.`,
      { status, details: { operation: call.operation }, retryAfterMs },
    );
  }

  function transportError(failure: Failure, call: Call<unknown>): ApiClientError {
    const message =
      failure.type === 'TIMEOUT'
        ? `The service at ${origin} did not answer ${call.method} ${call.path} within ${Math.round(timeoutMs / 100) / 10} s.`
        : CERTIFICATE_CODES.test(failure.code)
          ? `The service at ${origin} presented a certificate Takedesk does not trust (${failure.code}).`
          : `Could not reach the service at ${origin} (${failure.code}).`;
    return new ApiClientError(failure.type, message, {
      details: { operation: call.operation, code: failure.code, maybeDelivered: failure.maybeDelivered },
    });
  }

  function createOutcomeUnknown(
    call: Call<unknown>,
    cause: CreateOutcomeUnknownDetails['cause'],
  ): ApiClientError {
    const body = call.json as { title?: unknown } | undefined;
    const details: CreateOutcomeUnknownDetails = {
      title: typeof body?.title === 'string' ? body.title : '',
      sentAt: sentAt.get(call) ?? isoNoZone(new Date()),
      cause,
    };
    return new ApiClientError(
      'CREATE_OUTCOME_UNKNOWN',
      cause === 'UNEXPECTED_RESPONSE'
        ? 'The service confirmed the new project in a form Takedesk cannot read. It was probably created: check for it before sending again.'
        : 'The connection was lost before the service confirmed the new project. It may have been created: check for it before sending again.',
      { details: { ...details } },
    );
  }

  /** Runs a write; when its first answer was lost and the retry meets "already done", `reconcile` may claim it. */
  async function write<T>(
    call: Call<T>,
    reconcile: (error: ServiceError) => Promise<T | undefined>,
  ): Promise<T> {
    const trace: Trace = { lostResponse: false };
    try {
      return await send(call, trace);
    } catch (error) {
      if (trace.lostResponse && isServiceError(error)) {
        const claimed = await reconcile(error);
        if (claimed !== undefined) return claimed;
      }
      throw error;
    }
  }

  /**
   * GET endpoints of the live pages (docs/service.md#categories-attributes-and-tracks) a service may lack: a
   * 404 route falls back to built-in lists.
   */
  async function withFallback<T>(run: () => Promise<T>, fallback: () => T | undefined): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (isMissingRoute(error)) {
        const value = fallback();
        if (value !== undefined) return value;
      }
      throw error;
    }
  }

  return {
    baseUrl,
    send,
    write,
    withFallback,
    markSent: (call) => sentAt.set(call, isoNoZone(new Date())),
    createOutcomeUnknown,
  };
}

interface Failure {
  type: 'NETWORK_UNREACHABLE' | 'TIMEOUT';
  code: string;
  /** Response headers had arrived (the body was cut). */
  responded: boolean;
  /** The service may have received and acted on the request. */
  maybeDelivered: boolean;
}

/** Sorts a got transport failure; anything else (a bug) is not ours to translate. */
function classify(error: unknown): Failure | null {
  if (!(error instanceof RequestError)) return null;
  const responded = error.response !== undefined;
  if (error instanceof TimeoutError) {
    return {
      type: 'TIMEOUT',
      code: `ETIMEDOUT:${error.event}`,
      responded,
      maybeDelivered: responded || !NOT_SENT_TIMEOUTS.has(error.event),
    };
  }
  const code = error.code || 'UNKNOWN';
  return {
    type: 'NETWORK_UNREACHABLE',
    code,
    responded,
    maybeDelivered: responded || !(NOT_SENT_CODES.has(code) || CERTIFICATE_CODES.test(code)),
  };
}

/** A route the service does not have (unknown-route 404), as opposed to a 404 the endpoint itself answered. */
function isMissingRoute(error: unknown): boolean {
  if (isServiceError(error)) return error.type === 'NOT_FOUND';
  return error instanceof ApiClientError && error.type === 'HTTP_404';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The base URL's own path (a service may live under a prefix), without a trailing slash. */
function safePathname(url: string): string {
  try {
    return new URL(url).pathname.replace(/\/+$/, '');
  } catch {
    return '';
  }
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
