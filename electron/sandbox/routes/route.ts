// The wrapper every route runs in: faults, the token and its scope, the body, the handler, durability, then the
// answer with the catalog's statuses; the same for the control routes, and the answers of a path without its id.
import type { Context, Hono } from 'hono';
import type { Operation } from '../../../shared/api';
import { SandboxError } from '../sandbox-error';
import type { Scope } from '../state';
import { errorResponse, FAILURE_CODES, readJson, sleep } from './answers';
import type { AppDeps, Env, Json } from './deps';

export interface Call {
  c: Context<Env>;
  userId: string;
  scopes: Scope[];
  body: unknown;
  base: string;
}

interface RouteOptions {
  /** Scope the token must carry. */
  scope?: Scope;
  /** Read a JSON body. */
  body?: boolean;
  /** False for sign-in. */
  auth?: boolean;
  /** Persist the state before answering. */
  mutates?: boolean;
}
export function createRouteKit(app: Hono<Env>, deps: AppDeps) {
  const { faults } = deps;
  const now = deps.now ?? Date.now;

  function authenticate(c: Context<Env>, scope?: Scope): { userId: string; scopes: Scope[] } {
    const token = c.req.header('x-access-token');
    const record = token ? deps.state().tokenRecords.find((r) => r.token === token) : undefined;
    if (record?.expiresAt !== undefined && record.expiresAt <= now()) {
      throw new SandboxError('TOKEN_NOT_VALID', 'Not valid token: it expired.');
    }
    if (!record) throw new SandboxError('FORBIDDEN', 'A valid x-access-token is required.');
    if (scope && !record.scopes.includes(scope)) {
      throw new SandboxError('FORBIDDEN', `The token lacks the "${scope}" scope.`);
    }
    return { userId: record.userId, scopes: record.scopes };
  }

  /** Every API route: faults, auth, body, the handler, durability, then the answer with catalog statuses. */
  function route(
    operation: Operation | ((body: unknown) => Operation),
    options: RouteOptions,
    handler: (call: Call) => unknown,
  ) {
    return async (c: Context<Env>): Promise<Response> => {
      const path = c.req.path;
      let op: Operation | undefined = typeof operation === 'string' ? operation : undefined;
      try {
        const latency = faults.latencyFor(path);
        if (latency > 0) await sleep(latency);
        const throttle = faults.throttleFor(path);
        if (throttle !== undefined) {
          const body = {
            status: 429,
            type: 'TOO_MANY_REQUESTS',
            message: 'Slow down (sandbox fault injection).',
          };
          return Response.json(body, { status: 429, headers: { 'retry-after': String(throttle) } });
        }
        const who = options.auth === false ? { userId: '', scopes: [] } : authenticate(c, options.scope);
        const body = options.body ? await readJson(c) : undefined;
        if (typeof operation === 'function') op = operation(body);
        const failure = op && FAILURE_CODES[op];
        if (failure && faults.shouldFail(path)) {
          throw new SandboxError(failure, 'Simulated failure (sandbox fault injection).');
        }
        const result = await handler({ c, ...who, body, base: deps.baseUrl() });
        if (options.mutates) await deps.commit();
        return c.json((deps.shape ? deps.shape(op, result) : result) as Json, 200);
      } catch (error) {
        if (error instanceof SandboxError) {
          return errorResponse(error.type, op, error.hasMessage ? error.message : undefined);
        }
        console.error('[sandbox]', error);
        const failure = op && FAILURE_CODES[op];
        if (failure) return errorResponse(failure, op);
        return Response.json(
          { status: 500, type: 'INTERNAL', message: 'Unexpected sandbox error.' },
          { status: 500 },
        );
      }
    };
  }

  const missing = (type: string, operation: Operation, needsBody = false) =>
    route(operation, { body: needsBody }, () => {
      throw new SandboxError(type);
    });

  /** `path` called without its id, as `path/` or `path`, answers `type` (what the live service says then). */
  const withoutId = (
    method: 'GET' | 'PUT' | 'POST',
    path: string,
    operation: Operation,
    { needsBody = false, type = 'ID_REQUIRED' } = {},
  ) => {
    for (const bare of [`${path}/`, path]) app.on(method, bare, missing(type, operation, needsBody));
  };

  // --- sandbox control (item 9) --------------------------------------------------------------
  const control = (handler: (call: Call) => unknown) => async (c: Context<Env>) => {
    try {
      const who = authenticate(c);
      const body = c.req.method === 'GET' || c.req.method === 'DELETE' ? undefined : await readJson(c);
      const result = await handler({ c, ...who, body, base: deps.baseUrl() });
      await deps.commit();
      return c.json(result as Json);
    } catch (error) {
      if (error instanceof SandboxError) return errorResponse(error.type, undefined, error.message);
      throw error;
    }
  };

  return { now, authenticate, route, missing, withoutId, control };
}

export type RouteKit = ReturnType<typeof createRouteKit>;
