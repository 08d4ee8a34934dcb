import type { TokenClaims } from './token-claims';

/**
 * The account key of a profile, under which its decisions are kept (review/decisions.ts): the built-in sandbox is
 * one account; a service account is its base URL (scheme, host in lower case, path without a trailing slash) and
 * whose it is — the recorded account or the token's claims (`token-claims.ts`): its subject, else its email — or
 * the profile itself when nothing tells.
 */
export function accountKey(
  profile: {
    id: string;
    kind: 'sandbox' | 'service';
    baseUrl: string;
    account?: { subject?: string | undefined; email?: string | undefined } | undefined;
  },
  claims: TokenClaims,
): string {
  if (profile.kind === 'sandbox') return 'sandbox';
  let base = profile.baseUrl.trim().replace(/\/+$/, '');
  try {
    const url = new URL(base);
    base = `${url.protocol}//${url.host.toLowerCase()}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    // kept as written
  }
  const subject = profile.account?.subject ?? claims.subject;
  const email = profile.account?.email ?? claims.email;
  const who = subject ? `sub:${subject}` : email ? `email:${email}` : `profile:${profile.id}`;
  return `${base}|${who}`;
}
