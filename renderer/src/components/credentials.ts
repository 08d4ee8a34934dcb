/** What CredentialFields holds: both ways of signing in, the chosen one by `method`. */
export interface Credentials {
  method: 'password' | 'token';
  email: string;
  password: string;
  token: string;
}

/** What the profiles store takes: only the chosen method's fields. */
export type SignIn =
  { method: 'password'; email: string; password: string } | { method: 'token'; token: string };

export function emptyCredentials(): Credentials {
  return { method: 'password', email: '', password: '', token: '' };
}

/** The message of each field of the chosen method that is still empty ('' where it is filled or not shown). */
export function credentialErrors(c: Credentials): Record<'email' | 'password' | 'token', string> {
  const password = c.method === 'password';
  return {
    email: password && !c.email.trim() ? 'Enter your email.' : '',
    password: password && !c.password ? 'Enter your password.' : '',
    token: !password && !c.token.trim() ? 'Paste your access token.' : '',
  };
}

/** The first thing missing before credentials can be checked, or '' when none is. */
export function credentialProblem(c: Credentials): string {
  const errors = credentialErrors(c);
  return errors.email || errors.password || errors.token;
}

export function signInOf(c: Credentials): SignIn {
  return c.method === 'password'
    ? { method: 'password', email: c.email, password: c.password }
    : { method: 'token', token: c.token };
}
