/**
 * The last check before a live account is sent a body: no value live-values.ts marks sandbox-only (the forms
 * offer none there; this keeps any other caller to it). Refused here, it is neither sent nor queued.
 */
import { isLiveAccount } from '../../../shared/api/account-kind';
import { sandboxValuesIn, type LiveRequest } from '../../../shared/api/live-values';
import { localError } from '../kernel/local-error';
import type { ProfilesPort } from './handlers';

export type LiveGuard = (request: LiveRequest, body: Readonly<Record<string, unknown>>) => Promise<void>;

export function createLiveGuard(profiles: Pick<ProfilesPort, 'active'>): LiveGuard {
  return async (request, body) => {
    const { profile } = await profiles.active();
    if (!isLiveAccount(profile.kind)) return;
    const found = sandboxValuesIn(request, body);
    if (found.length === 0) return;
    const named = found.map(({ field, value }) => `${field.split('.').pop()} ${JSON.stringify(value)}`);
    throw localError(
      'SANDBOX_ONLY_VALUE',
      `${profile.name} is a live account, and the service does not document ${named.join(', ')}: nothing was sent.`,
    );
  };
}
