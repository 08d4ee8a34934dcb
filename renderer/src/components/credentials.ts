/** What CredentialFields holds. */
export interface Credentials {
  method: 'password' | 'token';
  email: string;
  password: string;
  token: string;
}

/** The first thing missing before credentials can be checked, or '' when none is. */
export function credentialProblem(c: Credentials): string {
  if (c.method === 'token') return c.token.trim() ? '' : 'Paste your access token.';
  if (!c.email.trim()) return 'Enter your email.';
  return c.password ? '' : 'Enter your password.';
}
