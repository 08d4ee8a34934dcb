/** Fault injection settings of POST /_sandbox/faults. */
export interface FaultSettings {
  /** Extra delay before every matching answer. */
  latencyMs?: number;
  /** Probability (0..1) that a matching API call answers its operation's 500 code. */
  errorRate?: number;
  /** Media answers are cut (socket destroyed) after this many body bytes. */
  resetAfterBytes?: number;
  /** Every matching API call answers 429 with `Retry-After: <seconds>` (a service that throttles). */
  throttleSeconds?: number;
  /** Only paths starting with this prefix are affected (default: every non-control path). */
  pathPrefix?: string;
  /** Media answers 302 to the same path at this origin (a CDN or signed-URL host), e.g. `https://127.0.0.1:4443`. */
  mediaRedirect?: string;
}

/** Why a faults body was refused. */
export type FaultsParseResult = { ok: true; value: FaultSettings } | { ok: false; message: string };

/** Checks a POST /_sandbox/faults body. */
export function parseFaults(body: unknown): FaultsParseResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      ok: false,
      message:
        'Send an object with latencyMs, errorRate, resetAfterBytes, throttleSeconds, pathPrefix or mediaRedirect.',
    };
  }
  const b = body as Record<string, unknown>;
  const out: FaultSettings = {};
  const num = (
    key: 'latencyMs' | 'errorRate' | 'resetAfterBytes' | 'throttleSeconds',
    max: number,
  ): string | null => {
    const v = b[key];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > max)
      return `${key} must be a number in 0..${max}.`;
    out[key] = v;
    return null;
  };
  const problem =
    num('latencyMs', 60_000) ??
    num('errorRate', 1) ??
    num('resetAfterBytes', Number.MAX_SAFE_INTEGER) ??
    num('throttleSeconds', 3600);
  if (problem) return { ok: false, message: problem };
  if (b.pathPrefix !== undefined && b.pathPrefix !== null) {
    if (typeof b.pathPrefix !== 'string' || !b.pathPrefix.startsWith('/')) {
      return { ok: false, message: 'pathPrefix must be a path starting with "/".' };
    }
    out.pathPrefix = b.pathPrefix;
  }
  if (b.mediaRedirect !== undefined && b.mediaRedirect !== null) {
    const origin = typeof b.mediaRedirect === 'string' ? safeOrigin(b.mediaRedirect) : null;
    if (!origin) return { ok: false, message: 'mediaRedirect must be an http(s) origin.' };
    out.mediaRedirect = origin;
  }
  return { ok: true, value: out };
}

function safeOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** Holds the active faults and answers whether one applies to a path. */
export function createFaults(random: () => number = Math.random) {
  let current: FaultSettings = {};
  const applies = (path: string) =>
    !path.startsWith('/_sandbox/') &&
    (current.pathPrefix === undefined || path.startsWith(current.pathPrefix));
  return {
    get: (): FaultSettings => ({ ...current }),
    set(settings: FaultSettings) {
      current = { ...settings };
    },
    clear() {
      current = {};
    },
    latencyFor: (path: string): number => (applies(path) ? (current.latencyMs ?? 0) : 0),
    shouldFail: (path: string): boolean =>
      applies(path) &&
      current.errorRate !== undefined &&
      current.errorRate > 0 &&
      random() < current.errorRate,
    throttleFor: (path: string): number | undefined => (applies(path) ? current.throttleSeconds : undefined),
    resetAfterFor: (path: string): number | undefined =>
      applies(path) ? current.resetAfterBytes : undefined,
    redirectFor: (path: string): string | undefined =>
      applies(path) && current.mediaRedirect ? `${current.mediaRedirect}${path}` : undefined,
  };
}

export type Faults = ReturnType<typeof createFaults>;
