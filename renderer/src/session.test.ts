import { describe, expect, it } from 'vitest';
import { createClient } from '../../shared/ipc/api';
import type { Channel, Result } from '../../shared/ipc';
import {
  recoverExpiredSession,
  requestSignIn,
  sessionEndingText,
  settleSignIn,
  signInNeeded,
  signInReason,
} from './session';

const expired: Result<never> = {
  ok: false,
  error: { type: 'SESSION_EXPIRED', status: 0, message: 'Your session for Acme expired — sign in again.' },
};

/** A transport whose answers are queued per call. */
function transport(answers: Array<Result<unknown>>) {
  const calls: Channel[] = [];
  const invoke = async (channel: Channel) => {
    calls.push(channel);
    return answers.shift() ?? { ok: true as const, value: 'again' };
  };
  return { calls, api: createClient(invoke, () => () => {}, recoverExpiredSession) };
}

describe('an expired session', () => {
  it('waits for the producer to sign in again, then sends the call once more', async () => {
    const { calls, api } = transport([expired, { ok: true, value: { page: 1, total: 0, projects: [] } }]);
    const pending = api.projects.list({});
    await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
    expect(signInNeeded()).toBe(true);
    settleSignIn(true);
    await expect(pending).resolves.toEqual({ page: 1, total: 0, projects: [] });
    expect(calls).toEqual(['projects.list', 'projects.list']);
    expect(signInNeeded()).toBe(false);
  });

  it('retries only once, and not at all when the producer declines', async () => {
    const twice = transport([expired, expired]);
    const first = twice.api.deliverables.approve({ id: 'd1' });
    await new Promise((r) => setTimeout(r, 0));
    settleSignIn(true);
    await expect(first).rejects.toMatchObject({ type: 'SESSION_EXPIRED' });
    expect(twice.calls).toHaveLength(2);

    const declined = transport([expired]);
    const second = declined.api.deliverables.approve({ id: 'd1' });
    await new Promise((r) => setTimeout(r, 0));
    settleSignIn(false);
    await expect(second).rejects.toMatchObject({ type: 'SESSION_EXPIRED' });
    expect(declined.calls).toHaveLength(1);
  });

  it('asks once for calls that expire together, and never for the profile calls themselves', async () => {
    const a = requestSignIn();
    const b = requestSignIn();
    expect(a).toBe(b);
    settleSignIn(true);
    await expect(a).resolves.toBe(true);
    await expect(recoverExpiredSession(expired.ok ? never() : expired.error, 'profiles.renew')).resolves.toBe(
      false,
    );
    await expect(
      recoverExpiredSession({ type: 'FORBIDDEN', status: 403, message: '' }, 'projects.list'),
    ).resolves.toBe(false);
  });
});

function never(): never {
  throw new Error('unreachable');
}

describe('sessionEndingText', () => {
  const now = Date.parse('2027-02-24T12:00:00Z');
  const studio = { name: 'Studio', kind: 'service' as const, signedOut: false };

  it('warns from 7 days before the end, names the profile and the day, and says when it has passed', () => {
    expect(sessionEndingText({ ...studio, sessionEndsAt: '2027-03-03T12:00:00Z' }, now)).toBe(
      'Your session for Studio ends on 3 Mar — sign in again',
    );
    expect(sessionEndingText({ ...studio, sessionEndsAt: '2027-03-03T12:00:01Z' }, now)).toBeNull();
    expect(sessionEndingText({ ...studio, sessionEndsAt: '2027-02-23T12:00:00Z' }, now)).toBe(
      'Your session for Studio ended on 23 Feb — sign in again',
    );
    expect(
      sessionEndingText(
        { ...studio, sessionEndsAt: '2028-01-02T00:00:00Z' },
        Date.parse('2027-12-30T00:00:00Z'),
      ),
    ).toBe('Your session for Studio ends on 2 Jan 2028 — sign in again');
  });

  it('says nothing without a date, once signed out (the dialog says it), or for the Sandbox', () => {
    expect(sessionEndingText(studio, now)).toBeNull();
    expect(
      sessionEndingText({ ...studio, signedOut: true, sessionEndsAt: '2027-02-25T00:00:00Z' }, now),
    ).toBeNull();
    expect(
      sessionEndingText({ ...studio, kind: 'sandbox', sessionEndsAt: '2027-02-25T00:00:00Z' }, now),
    ).toBeNull();
    expect(sessionEndingText(null, now)).toBeNull();
  });
});

describe('why the sign-in is asked', () => {
  it('is "ending" from the banner, and becomes "expired" once a call meets a refusal meanwhile', async () => {
    const early = requestSignIn('ending');
    expect(signInReason()).toBe('ending');
    const refused = requestSignIn();
    expect(signInReason()).toBe('expired');
    settleSignIn(true);
    expect(await early).toBe(true);
    expect(await refused).toBe(true);
    expect(signInReason()).toBeNull();
  });
});
