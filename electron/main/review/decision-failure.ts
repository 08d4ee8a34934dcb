/**
 * How the error of a decision's attempt is read: not sent (it waits), maybe sent (the take is read before anything
 * is sent again), later (a gateway or a 429: it waits for a time), signed out, or refused by the service.
 */
import type { OutboxDecision } from '../../../shared/ipc';
import type { Row } from './decision-rows';
import { asked } from './reconcile';

/** How a failed attempt is read. */
export type Failure =
  | { kind: 'notSent' }
  | { kind: 'maybeSent' }
  | { kind: 'later'; waitMs: number | undefined; maybeApplied: boolean }
  | { kind: 'signedOut' }
  | { kind: 'refused'; message: string };

const NOT_SENT_TYPES = new Set(['SANDBOX_UNAVAILABLE', 'PROFILE_NOT_FOUND']);
const GATEWAY = new Set([502, 503, 504, 429]);
/** A gateway that gave up on the service (bad answer, no answer in time): the service may have acted meanwhile. */
const GATEWAY_AFTER_FORWARD = new Set([502, 504]);

/** Sorts an error of an attempt: was it sent, may it have been, or did the service refuse it? */
export function classifyFailure(error: unknown): Failure {
  const e = error as {
    type?: string;
    status?: number;
    message?: string;
    retryAfterMs?: number;
    details?: { maybeDelivered?: unknown };
  } | null;
  const type = e?.type ?? '';
  if (NOT_SENT_TYPES.has(type)) return { kind: 'notSent' };
  if (type === 'SESSION_EXPIRED') return { kind: 'signedOut' };
  if (type === 'NETWORK_UNREACHABLE' || type === 'TIMEOUT')
    return e?.details?.maybeDelivered === false ? { kind: 'notSent' } : { kind: 'maybeSent' };
  const status = e?.status ?? 0;
  const gateway = status || Number(/^HTTP_(502|503|504|429)$/.exec(type)?.[1] ?? 0);
  if (GATEWAY.has(gateway))
    return { kind: 'later', waitMs: e?.retryAfterMs, maybeApplied: GATEWAY_AFTER_FORWARD.has(gateway) };
  // Any other 5xx: the service may have acted before it failed, so it is read before anything is sent again.
  if (status >= 500) return { kind: 'maybeSent' };
  if (type === 'UNEXPECTED_RESPONSE' && status >= 200 && status < 300) return { kind: 'maybeSent' };
  if (!e || !type) return { kind: 'maybeSent' };
  return { kind: 'refused', message: e.message ?? 'The service refused it.' };
}

/** The wait before a decision is tried again: what the service asked for (capped at an hour), or a doubling backoff. */
export function backoffMs(
  attempts: number,
  asked: number | undefined,
  backoff: { initialMs: number; maxMs: number },
): number {
  if (asked !== undefined && asked >= 0) return Math.min(asked, 3_600_000);
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.max(0, attempts - 1));
}

/**
 * What a failed attempt changes in its row, and whether the service is away. `before` is what was known before this
 * attempt: a failure that proves nothing was applied (no connection, a gateway's or a 429's answer) leaves it as it
 * was; one after which the service may have acted makes the decision unconfirmed.
 */
export function changeAfterFailure(
  row: Row,
  error: unknown,
  before: number,
  nowMs: number,
  backoff: { initialMs: number; maxMs: number },
): { change: Partial<Row>; away: boolean } {
  const failure = classifyFailure(error);
  switch (failure.kind) {
    case 'notSent':
    case 'signedOut':
      return { change: { state: 'queued', unconfirmed: before }, away: true };
    case 'maybeSent':
      return {
        change: {
          state: 'queued',
          unconfirmed: row.unconfirmed,
          not_before: nowMs + backoffMs(row.attempts, undefined, backoff),
        },
        away: true,
      };
    case 'later':
      return {
        change: {
          state: 'queued',
          // A 502 or 504 may come after the service acted: its effect is then ours, confirmed by the next read.
          unconfirmed: failure.maybeApplied ? 1 : before,
          not_before: nowMs + backoffMs(row.attempts, failure.waitMs, backoff),
        },
        away: true,
      };
    case 'refused':
      return {
        change: {
          state: 'failed',
          outcome: null,
          held: JSON.stringify({
            asked: asked(JSON.parse(row.decision) as OutboxDecision),
            service: `Refused: ${failure.message}`,
          }),
        },
        away: false,
      };
  }
}
