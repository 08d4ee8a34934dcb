// Sign-in (docs/service.md#authentication): the seeded users' built-in tokens, or, with a token lifetime, a
// JWT-looking token of its own that expires.
import { randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import { SandboxError } from '../sandbox-error';
import { SANDBOX_USERS } from '../state';
import { asObject } from './answers';
import type { AppDeps, Env } from './deps';
import type { RouteKit } from './route';

export function signInRoutes(app: Hono<Env>, deps: AppDeps, { now, route }: RouteKit): void {
  app.post(
    '/users/auth',
    route('signIn', { body: true, auth: false, mutates: true }, ({ body }) => {
      const b = asObject(body);
      if (b.email === undefined || b.email === null || b.email === '')
        throw new SandboxError('EMAIL_REQUIRED');
      if (typeof b.email !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(b.email)) {
        throw new SandboxError('EMAIL_REQUIRED_NOT_VALID');
      }
      if (b.password === undefined || b.password === null || b.password === '') {
        throw new SandboxError('PASSWORD_REQUIRED');
      }
      const user = SANDBOX_USERS.find(
        (u) => u.email === (b.email as string).toLowerCase() && u.password === b.password,
      );
      if (!user) throw new SandboxError('USER_NOT_FOUND');
      const tokens = deps.state().tokens;
      const token = user.id === SANDBOX_USERS[0].id ? tokens.full : tokens.otherUser;
      if (deps.tokenLifetimeMs === undefined) return { token };
      // A token of its own that expires, JWT-looking like the live one (docs/service.md#tokens-expire);
      // expired ones are dropped.
      const records = deps.state().tokenRecords;
      const scopes = records.find((r) => r.token === token)!.scopes;
      const session = sessionToken(user.id, now(), deps.tokenLifetimeMs);
      deps.state().tokenRecords = [
        ...records.filter((r) => r.expiresAt === undefined || r.expiresAt > now()),
        { token: session, userId: user.id, scopes: [...scopes], expiresAt: now() + deps.tokenLifetimeMs },
      ];
      return { token: session };
    }),
  );
}

/** `header.payload.signature`, base64url, with `iat`/`exp` in seconds; the signature is random (nobody checks it). */
function sessionToken(userId: string, nowMs: number, lifetimeMs: number): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const iat = Math.floor(nowMs / 1000);
  return [
    part({ alg: 'HS512', typ: 'JWT' }),
    part({ sub: userId, iat, exp: iat + Math.ceil(lifetimeMs / 1000) }),
    randomBytes(32).toString('base64url'),
  ].join('.');
}
