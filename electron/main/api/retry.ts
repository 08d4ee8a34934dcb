/** Retry timing for the API client: exponential backoff with full jitter, and Retry-After parsing. */

/** How hard the client tries again; every field has a default, tests inject `random` and `sleep`. */
export interface RetryOptions {
  /** Further attempts after the first one (0 disables retries). */
  retries?: number;
  /** Cap of the first backoff window; window n is baseDelayMs * 2^n. */
  baseDelayMs?: number;
  /** Largest backoff window. */
  maxDelayMs?: number;
  /** Largest wait a Retry-After header may impose; longer requests are cut to this. */
  maxRetryAfterMs?: number;
  /** Uniform [0, 1) source for the jitter. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Clock for Retry-After given as an HTTP date. */
  now?: () => number;
  /** Told before each retry (logging, tests). Never receives tokens or bodies. */
  onRetry?: (info: RetryInfo) => void;
}

export interface RetryInfo {
  method: string;
  path: string;
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  /** The error type or `HTTP_<status>` that caused it. */
  reason: string;
}

/** RetryOptions with every default filled in. */
export type RetrySettings = Required<Omit<RetryOptions, 'onRetry'>> & Pick<RetryOptions, 'onRetry'>;

/** Fills in the defaults. */
export function retryPolicy(options: RetryOptions = {}): RetrySettings {
  return {
    retries: options.retries ?? 3,
    baseDelayMs: options.baseDelayMs ?? 300,
    maxDelayMs: options.maxDelayMs ?? 10_000,
    maxRetryAfterMs: options.maxRetryAfterMs ?? 30_000,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    now: options.now ?? Date.now,
    onRetry: options.onRetry,
  };
}

/**
 * Full jitter (a uniform wait in [0, window)) spreads clients that failed together, so they do not
 * retry in lockstep. `attempt` is 0 for the wait before the first retry.
 */
export function backoffDelay(
  policy: Pick<RetrySettings, 'baseDelayMs' | 'maxDelayMs' | 'random'>,
  attempt: number,
): number {
  const window = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.floor(policy.random() * window);
}

/**
 * Milliseconds asked for by a Retry-After header (delta seconds or an HTTP date, RFC 9110 10.2.3),
 * capped; null when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, now: number, capMs: number): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (text === '') return null;
  let ms: number;
  if (/^\d+$/.test(text)) {
    ms = Number(text) * 1000;
  } else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return null;
    ms = Math.max(0, at - now);
  }
  return Math.min(ms, capMs);
}
