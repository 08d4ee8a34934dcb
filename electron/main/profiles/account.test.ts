import { describe, expect, it } from 'vitest';
import { accountKey } from './account';

describe('accountKey: whose decisions these are', () => {
  const service = { id: 'p1', kind: 'service' as const, baseUrl: 'https://API.example.com/v1/' };
  it.each([
    ['the sandbox is one account', { ...service, kind: 'sandbox' as const }, {}, 'sandbox'],
    [
      'the recorded subject',
      { ...service, account: { subject: '42' } },
      { subject: '7' },
      'https://api.example.com/v1|sub:42',
    ],
    ["else the token's subject", service, { subject: '7' }, 'https://api.example.com/v1|sub:7'],
    [
      'else the email',
      service,
      { email: 'p@studio.example' },
      'https://api.example.com/v1|email:p@studio.example',
    ],
    ['else the profile itself', service, {}, 'https://api.example.com/v1|profile:p1'],
  ])('%s', (_name, profile, claims, key) => {
    expect(accountKey(profile, claims)).toBe(key);
  });

  it('the same account added again under a new profile keeps its key; another account does not', () => {
    const again = { ...service, id: 'p2', baseUrl: 'https://api.example.com/v1' };
    expect(accountKey(again, { subject: '7' })).toBe(accountKey(service, { subject: '7' }));
    expect(accountKey(again, { subject: '8' })).not.toBe(accountKey(service, { subject: '7' }));
  });
});
