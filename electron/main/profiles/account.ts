/**
 * Which account a token signs in as, for keeping an account's decisions with it: the service's tokens are JWTs
 * (the docs' example is one), so the payload's `sub` (or its `email`) names the account. The signature is not
 * checked — the service does that; this only labels local data. A token that is not a JWT names no account.
 */
export function tokenAccount(token: string): string | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    for (const key of ['sub', 'email', 'userId', 'user_id', 'id']) {
      const value = claims[key];
      if ((typeof value === 'string' && value.trim()) || typeof value === 'number') return `${key}:${value}`;
    }
  } catch {
    // not a JWT
  }
  return null;
}

/**
 * The account key of a profile: the built-in sandbox is one account; a service account is its base URL (origin and
 * path, without a trailing slash, host in lower case) and the token's account, or the profile itself when the
 * token names none.
 */
export function accountKey(
  profile: { id: string; kind: 'sandbox' | 'service'; baseUrl: string },
  token: string | null,
): string {
  if (profile.kind === 'sandbox') return 'sandbox';
  let base = profile.baseUrl.trim().replace(/\/+$/, '');
  try {
    const url = new URL(base);
    base = `${url.protocol}//${url.host.toLowerCase()}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    // kept as written
  }
  const who = token ? tokenAccount(token) : null;
  return `${base}|${who ?? `profile:${profile.id}`}`;
}
