import { describe, expect, it } from 'vitest';
import { createClient } from '../../shared/ipc/api';
import type { Channel, Result } from '../../shared/ipc';
import { recoverExpiredSession, requestSignIn, settleSignIn, signInNeeded } from './session';

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
