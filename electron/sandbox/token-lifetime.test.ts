import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Sandbox } from './server';
import { call, startSandbox } from './test-support/test-helpers';

// Live tokens expire (docs/service.md#tokens-expire): with a token lifetime, a signed-in token answers 401
// once it has expired.

let sb: Sandbox;
let clock = Date.parse('2026-11-23T09:00:00Z');
beforeAll(async () => {
  sb = await startSandbox({ tokenLifetimeMs: 60_000, now: () => new Date(clock) });
});
afterAll(() => sb.close());

it('a signed-in token works until its lifetime ends, then answers 401 TOKEN_NOT_VALID', async () => {
  const auth = await call(sb, 'POST', '/users/auth', {
    body: { email: 'producer@sandbox.test', password: 'sandbox' },
  });
  expect(auth.status).toBe(200);
  const token = auth.body.token as string;
  expect(token.split('.')).toHaveLength(3);
  const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
    exp: number;
    iat: number;
  };
  expect(payload.exp - payload.iat).toBe(60);

  expect((await call(sb, 'GET', '/projects', { token })).status).toBe(200);
  clock += 61_000;
  const expired = await call(sb, 'GET', '/projects', { token });
  expect(expired.status).toBe(401);
  expect(expired.body).toMatchObject({ type: 'TOKEN_NOT_VALID', status: 401 });
  // The built-in tokens do not expire, and a new sign-in gives a fresh token.
  expect((await call(sb, 'GET', '/projects', { token: sb.tokens.full })).status).toBe(200);
  const again = await call(sb, 'POST', '/users/auth', {
    body: { email: 'producer@sandbox.test', password: 'sandbox' },
  });
  expect((await call(sb, 'GET', '/projects', { token: again.body.token })).status).toBe(200);
});

it('POST /_sandbox/sessions/expire ends every signed-in session now, and a restart keeps sessions', async () => {
  const auth = await call(sb, 'POST', '/users/auth', {
    body: { email: 'producer@sandbox.test', password: 'sandbox' },
  });
  const token = auth.body.token as string;
  expect((await call(sb, 'GET', '/projects', { token })).status).toBe(200);
  const ended = await call(sb, 'POST', '/_sandbox/sessions/expire', { token: sb.tokens.full, body: {} });
  expect(ended.body.expired).toBeGreaterThanOrEqual(1);
  expect((await call(sb, 'GET', '/projects', { token })).status).toBe(401);
  expect((await call(sb, 'GET', '/projects', { token: sb.tokens.full })).status).toBe(200);
});
