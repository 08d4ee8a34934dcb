import { describe, expect, it } from 'vitest';
import {
  credentialErrors,
  credentialProblem,
  emptyCredentials,
  signInOf,
  type Credentials,
} from './credentials';

const filled: Credentials = { method: 'password', email: 'p@studio.test', password: 's3cret', token: 'tok' };

describe('credentials', () => {
  it.each([
    ['nothing typed yet', emptyCredentials(), 'Enter your email.', ['email', 'password']],
    ['a blank email', { ...filled, email: '   ' }, 'Enter your email.', ['email']],
    ['no password', { ...filled, password: '' }, 'Enter your password.', ['password']],
    [
      'a blank token',
      { ...filled, method: 'token' as const, token: ' ' },
      'Paste your access token.',
      ['token'],
    ],
    ['all there', filled, '', []],
    ['a token, whatever the email says', { ...filled, method: 'token' as const, email: '' }, '', []],
  ])('%s: says %j, on the fields %j', (_, c, problem, fields) => {
    expect(credentialProblem(c)).toBe(problem);
    const errors = credentialErrors(c);
    expect(Object.keys(errors).filter((k) => errors[k as keyof typeof errors])).toEqual(fields);
  });

  it('hands the store only the chosen way of signing in', () => {
    expect(signInOf(filled)).toEqual({ method: 'password', email: 'p@studio.test', password: 's3cret' });
    expect(signInOf({ ...filled, method: 'token' })).toEqual({ method: 'token', token: 'tok' });
  });
});
