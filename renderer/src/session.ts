import { shallowRef } from 'vue';
import type { Channel, IpcErrorBody, ProfileSummary } from '../../shared/ipc';
import { formatDay } from './display-text';

/**
 * "Sign in again": when the service no longer accepts a profile's token (SESSION_EXPIRED), the call waits while
 * the producer signs in (SignInAgainDialog), then is sent once more. Every call that hits it meanwhile waits for
 * the same answer, so the producer is asked once.
 */
/** Why the producer is asked: the service refused the session, or it ends soon (the banner's button). */
export type SignInReason = 'expired' | 'ending';

const pending = shallowRef<{
  promise: Promise<boolean>;
  settle: (signedIn: boolean) => void;
  reason: SignInReason;
} | null>(null);

/** Whether the dialog should be open. */
export const signInNeeded = () => pending.value !== null;

/** Why the dialog is open (null while it is not). */
export const signInReason = (): SignInReason | null => pending.value?.reason ?? null;

/** Asks the producer to sign in again; resolves true once they did, false when they chose not to. */
export function requestSignIn(reason: SignInReason = 'expired'): Promise<boolean> {
  if (pending.value) {
    // A refusal while the producer is renewing early makes it the expired case: the dialog says so.
    if (reason === 'expired') pending.value = { ...pending.value, reason };
    return pending.value.promise;
  }
  let settle!: (signedIn: boolean) => void;
  const promise = new Promise<boolean>((resolve) => (settle = resolve));
  pending.value = {
    reason,
    promise,
    settle: (signedIn) => {
      pending.value = null;
      settle(signedIn);
    },
  };
  return promise;
}

/** The dialog's answer. */
export function settleSignIn(signedIn: boolean): void {
  pending.value?.settle(signedIn);
}

/** The client's recover hook: an expired session on any call but the profile calls themselves. */
export function recoverExpiredSession(error: IpcErrorBody, channel: Channel): Promise<boolean> {
  if (error.type !== 'SESSION_EXPIRED' || channel.startsWith('profiles.')) return Promise.resolve(false);
  return requestSignIn();
}

/** How long before a session ends the producer is told (live tokens last about 90 days). */
export const SESSION_WARNING_MS = 7 * 86_400_000;

/**
 * "Your session for Studio ends on 3 Mar — sign in again", from a week before the profile's token ends (its
 * `exp`, when it has one); null otherwise, and once the service refused it (the sign-in dialog says so then).
 */
export function sessionEndingText(
  profile: Pick<ProfileSummary, 'name' | 'kind' | 'signedOut' | 'sessionEndsAt'> | null,
  now = Date.now(),
): string | null {
  if (!profile || profile.kind !== 'service' || profile.signedOut || !profile.sessionEndsAt) return null;
  const ends = Date.parse(profile.sessionEndsAt);
  if (!Number.isFinite(ends) || ends - now > SESSION_WARNING_MS) return null;
  const verb = ends > now ? 'ends' : 'ended';
  return `Your session for ${profile.name} ${verb} on ${formatDay(ends, now)} — sign in again`;
}
