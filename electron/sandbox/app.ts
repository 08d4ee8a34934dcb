import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import {
  ERROR_CATALOG,
  ListProjectsQuery,
  SearchQuery,
  TracksQuery,
  UNIT_TYPES,
  isErrorCode,
  statusesFor,
  type Operation,
} from '../../shared/api';
import { answerResponse, fileAnswer, sendAnswer } from '../http/file-response';
import type { Engine, MediaDescriptor } from './engine';
import type { Faults } from './faults';
import { parseFaults } from './faults';
import { SandboxError } from './sandbox-error';
import { SANDBOX_USERS, type Scope, type SandboxState } from './state';

/** A ready media file. */
export interface MediaFile {
  path: string;
  size: number;
  etag: string;
  contentType: string;
}

/** Reference data and media the HTTP layer serves (built from electron/sandbox/data and media). */
export interface SandboxServices {
  categories(): unknown[];
  /** Attributes of a category; throws SandboxError (CATEGORY_NOT_AUTHORIZED). */
  attributes(categoryId: string): unknown[];
  /** Values of an attribute; throws SandboxError (ATTRIBUTE_NO_VALUES, ATTRIBUTE_NOT_CATEGORY...). */
  attributeValues(categoryId: string, attributeId: string): unknown[];
  /** Tracks with their preview descriptors. */
  tracks(query: {
    typeId?: string;
    subtypeId?: string;
  }): Array<{ track: Record<string, unknown>; wav: MediaDescriptor; mp3: MediaDescriptor }>;
  /** Search; throws SandboxError for the spec's search errors. Samples carry a descriptor for their mp3. */
  search(query: SearchQuery): {
    page: number;
    totalPages: number;
    total: number;
    samples: Array<{ sample: Record<string, unknown>; mp3: MediaDescriptor }>;
  };
  media: {
    key(desc: MediaDescriptor): string;
    describe(key: string): MediaDescriptor | undefined;
    ensure(desc: MediaDescriptor): Promise<MediaFile>;
    /** The bytes of a music track's mp3 as it is made the first time; undefined when `ensure` serves it whole. */
    streamFirst?(desc: MediaDescriptor): Promise<ReadableStream<Uint8Array> | undefined>;
  };
}

export interface AppDeps {
  engine: Engine;
  state: () => SandboxState;
  /** Makes every change so far durable. */
  commit: () => Promise<void>;
  faults: Faults;
  services: SandboxServices;
  baseUrl: () => string;
  /** Delivers owed work now (all projects, or one). */
  deliverNow: (projectId?: string) => Promise<number>;
  reset: () => Promise<void>;
  openapi: () => unknown;
  /**
   * Tokens issued by sign-in expire after this long (live tokens do, docs/service.md#tokens-expire); default:
   * never.
   */
  tokenLifetimeMs?: number;
  now?: () => number;
  /** Reshapes successful API answers (live shapes); absent: the spec's shapes. */
  shape?: (operation: Operation | undefined, result: unknown) => unknown;
}

type Json = Record<string, unknown>;
type Env = { Bindings: HttpBindings };

/**
 * The 500 code each operation answers when it fails (and when a fault makes it fail). Tracks and sign-in
 * have none in the spec or the facts, so errorRate leaves them alone.
 */
export const FAILURE_CODES: Partial<Record<Operation, string>> = {
  createProject: 'PROJECT_NOT_CREATED',
  listProjects: 'NOT_PROJECTS_INFO',
  getProject: 'NOT_PROJECT_INFO',
  cancelProject: 'ERROR_CANCELING_PROJECT',
  search: 'ERROR_GETTING_SEARCH_RESULTS',
  listDeliverables: 'NOT_DELIVERABLES_INFO',
  approveAll: 'ERROR_APPROVING_PROJECT_DELIVERABLES',
  getDeliverable: 'ERROR_GETTING_DELIVERABLE',
  approveDeliverable: 'ERROR_APPROVING_DELIVERABLE',
  rejectDeliverable: 'ERROR_REJECTING_DELIVERABLE',
  selectWinner: 'ERROR_SELECTING_WINNER',
  listVersions: 'ERROR_GETTINT_VERSIONS',
  createRevision: 'ERROR_CREATING_REVISION',
  listCategories: 'NOT_CATEGORIES_INFO',
  getAttributes: 'NOT_CATEGORIES_ATTRIBUTES',
  getAttributeValues: 'NOT_ATTRIBUTES__VALUES',
  quote: 'PROJECT_NOT_QUOTED',
};

/** The error body and heading status for a code in an operation (catalog statuses; 422 for unknown codes). */
export function errorResponse(type: string, operation: Operation | undefined, message?: string): Response {
  const known = isErrorCode(type);
  const { http, body } = known ? statusesFor(type, operation) : { http: 422, body: 422 };
  const text = message ?? (known ? ERROR_CATALOG[type].message : type);
  return Response.json({ status: body, type, message: text }, { status: http });
}

/**
 * Largest request body read (sandbox choice, README): bytes are counted as they arrive, chunked bodies
 * too, and reading stops at the limit with BODY_TOO_LARGE 413. The largest valid project is far smaller.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function asObject(value: unknown): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SandboxError('BODY_WRONG_TYPE', 'The body must be a JSON object.');
  }
  return value as Json;
}

async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new SandboxError('INVALID_JSON', 'The request body is not valid JSON.');
  }
}

/** The query as an object (first value of each key); no prototype, so `?__proto__=` or `?constructor=` are plain keys. */
function queryObject(c: Context): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const [key, value] of new URL(c.req.url).searchParams) if (!Object.hasOwn(out, key)) out[key] = value;
  return out;
}

interface Call {
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

/**
 * Hono on @hono/node-server: small and fast, with web-standard Request/Response and typed routes; the media
 * route shares the app's ranged file answer and writes it straight to the node:http response when it can.
 */
export function createApp(deps: AppDeps) {
  const app = new Hono<Env>();
  const { engine, faults, services } = deps;

  const now = deps.now ?? Date.now;

  // Every route that reads a body: Content-Length over the limit is refused unread, a chunked body is
  // counted while it streams and refused at the first byte past the limit (the rest is discarded).
  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        const answer = errorResponse(
          'BODY_TOO_LARGE',
          undefined,
          `The request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB, sandbox limit).`,
        );
        // The rest of the body is not read, so the connection cannot carry another request.
        answer.headers.set('connection', 'close');
        return answer;
      },
    }),
  );
  // Then the whole body (at most the limit) is read before any answer: one sent while the client is
  // still sending (FORBIDDEN is decided before the body is looked at) makes node:http drop the
  // connection under the client's next request on it ("other side closed"). Routes read it from cache.
  app.use('*', async (c, next) => {
    if (c.req.raw.body) await c.req.text().catch(() => undefined);
    await next();
  });

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

  const deliverableOp = (body: unknown): Operation => {
    const status = typeof body === 'object' && body !== null ? (body as Json).status : undefined;
    if (status === 'rejected') return 'rejectDeliverable';
    if (status === 'winner') return 'selectWinner';
    return 'approveDeliverable';
  };

  // --- sign-in (docs/service.md#authentication) ------------------------------------------------
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

  // --- projects ------------------------------------------------------------------------------
  const listProjects = route('listProjects', {}, ({ c, userId }) => {
    const q = ListProjectsQuery.safeParse(queryObject(c));
    if (!q.success)
      throw new SandboxError('QUERY_WRONG_TYPE', 'page and pageSize must be positive integers.');
    return engine.listProjects(userId, q.data);
  });
  app.get('/projects', listProjects);
  app.get('/projects/', listProjects);
  app.post(
    '/projects',
    route('createProject', { body: true, mutates: true }, ({ userId, body }) =>
      engine.projectView(engine.createProject(userId, body)),
    ),
  );
  app.get(
    '/projects/:id',
    route('getProject', {}, ({ c, userId }) =>
      engine.projectView(engine.getProject(userId, c.req.param('id')!)),
    ),
  );
  withoutId('PUT', '/projects', 'cancelProject', { needsBody: true });
  app.put(
    '/projects/:id',
    route('cancelProject', { body: true, mutates: true }, ({ c, userId, body }) =>
      engine.cancelProject(userId, c.req.param('id')!, asObject(body)),
    ),
  );

  // --- quote (docs/service.md#quote) ----------------------------------------------------------
  app.post(
    '/quote',
    route('quote', { body: true }, ({ body }) => {
      const b = asObject(body);
      // Quote takes a project body without title (docs/service.md#quote); validate it as a project with a
      // title.
      const { input, priced } = engine.quote({ ...b, title: 'Quote' });
      return {
        mainService: input.mainService,
        fulfillmentType: input.fulfillmentType,
        price: priced.price,
        services: input.services.map((s, i) => ({ subCategory: s.subCategory, ...priced.services[i] })),
      };
    }),
  );

  // --- search --------------------------------------------------------------------------------
  app.get(
    '/search',
    route('search', { scope: 'search' }, ({ c }) => {
      const raw = queryObject(c);
      if (!raw.categoryId) throw new SandboxError('CATEGORY_ID_REQUIRED', 'categoryId is required.');
      const q = SearchQuery.safeParse(raw);
      if (!q.success) {
        const issue = q.error.issues[0];
        throw new SandboxError(
          'QUERY_WRONG_TYPE',
          `${issue?.path.join('.') ?? 'query'}: ${issue?.message ?? ''}`,
        );
      }
      if (!(UNIT_TYPES as readonly string[]).includes(q.data.unitType))
        throw new SandboxError('UNITTYPE_NOT_ALLOWED');
      const result = services.search(q.data);
      const base = deps.baseUrl();
      return {
        page: result.page,
        totalPages: result.totalPages,
        total: result.total,
        samples: result.samples.map(({ sample, mp3 }) => ({
          ...sample,
          url: `${base}/media/${services.media.key(mp3)}.mp3`,
        })),
      };
    }),
  );

  // --- deliverables --------------------------------------------------------------------------
  withoutId('GET', '/deliverables/project', 'listDeliverables', { type: 'PROJECT_ID_REQUIRED' });
  withoutId('PUT', '/deliverables/project', 'approveAll', { needsBody: true });
  app.get(
    '/deliverables/project/:projectId',
    route('listDeliverables', {}, ({ c, userId, base }) =>
      engine.listDeliverables(userId, c.req.param('projectId')!, base),
    ),
  );
  app.put(
    '/deliverables/project/:projectId',
    route('approveAll', { body: true, mutates: true }, ({ c, userId, body }) =>
      engine.approveAll(userId, c.req.param('projectId')!, asObject(body)),
    ),
  );
  withoutId('GET', '/deliverables', 'getDeliverable');
  withoutId('PUT', '/deliverables', 'approveDeliverable', { needsBody: true });
  app.get(
    '/deliverables/:id',
    route('getDeliverable', {}, ({ c, userId, base }) =>
      engine.getDeliverable(userId, c.req.param('id')!, base),
    ),
  );
  app.put(
    '/deliverables/:id',
    route(deliverableOp, { body: true, mutates: true }, ({ c, userId, body }) => {
      const b = asObject(body);
      const id = c.req.param('id')!;
      if (b.status === 'approved') return engine.approveDeliverable(userId, id);
      if (b.status === 'rejected') return engine.rejectDeliverable(userId, id, b);
      if (b.status === 'winner') return engine.selectWinner(userId, id);
      throw new SandboxError('STATUS_NOT_ALLOWED', 'status must be approved, rejected or winner.');
    }),
  );

  // --- revisions -----------------------------------------------------------------------------
  app.get('/revisions//versions', missing('ID_REQUIRED', 'listVersions'));
  app.get('/revisions/versions', missing('ID_REQUIRED', 'listVersions'));
  app.get(
    '/revisions/:deliverableId/versions',
    route('listVersions', { scope: 'versions' }, ({ c, userId, base }) =>
      engine.listVersions(userId, c.req.param('deliverableId')!, base),
    ),
  );
  withoutId('POST', '/revisions', 'createRevision', { needsBody: true });
  app.post(
    '/revisions/:deliverableId',
    route('createRevision', { body: true, mutates: true }, ({ c, userId, body }) =>
      engine.createRevision(userId, c.req.param('deliverableId')!, asObject(body)),
    ),
  );

  // --- categories and tracks (docs/service.md#categories-attributes-and-tracks) ----------------
  app.get(
    '/categories',
    route('listCategories', {}, () => services.categories()),
  );
  app.get('/categories//attributes', missing('ID_REQUIRED', 'getAttributes'));
  app.get(
    '/categories/:id/attributes',
    route('getAttributes', {}, ({ c }) => services.attributes(c.req.param('id')!)),
  );
  app.get('/categories//attribute/:attributeId/values', missing('ID_REQUIRED', 'getAttributeValues'));
  app.get('/categories/:id/attribute//values', missing('ATTRIBUTE_ID_REQUIRED', 'getAttributeValues'));
  app.get(
    '/categories/:id/attribute/:attributeId/values',
    route('getAttributeValues', {}, ({ c }) =>
      services.attributeValues(c.req.param('id')!, c.req.param('attributeId')!),
    ),
  );
  const withUrls = (entry: {
    track: Record<string, unknown>;
    wav: MediaDescriptor;
    mp3: MediaDescriptor;
  }) => {
    const base = deps.baseUrl();
    return {
      ...entry.track,
      url: {
        wav: `${base}/media/${services.media.key(entry.wav)}.wav`,
        mp3: `${base}/media/${services.media.key(entry.mp3)}.mp3`,
      },
    };
  };
  app.get(
    '/tracks',
    route('listTracks', {}, ({ c }) => {
      const q = TracksQuery.parse(queryObject(c));
      return services.tracks(q).map(withUrls);
    }),
  );
  app.get(
    '/tracks/:id',
    route('getTrack', {}, ({ c }) => {
      const id = c.req.param('id')!;
      const found = /^\d+$/.test(id) ? services.tracks({}).find((t) => String(t.track.id) === id) : undefined;
      if (!found) throw new SandboxError('TRACK_NO_EXIST', `Track ${id} does not exist.`);
      return withUrls(found);
    }),
  );

  // --- OpenAPI -------------------------------------------------------------------------------
  app.get('/openapi.json', (c) => c.json(deps.openapi() as Json));

  // --- media: no token, the keys are unguessable content hashes ------------------------------
  app.get('/media/:file', async (c) => {
    const match = /^([A-Za-z0-9_-]+)\.(wav|mp3|pdf)$/.exec(c.req.param('file'));
    const key = match?.[1];
    const desc = key ? services.media.describe(key) : undefined;
    if (!match || !key || !desc || desc.format !== match[2])
      return errorResponse('NOT_FOUND', undefined, 'No such media file.');
    const redirect = faults.redirectFor(c.req.path);
    if (redirect) return c.redirect(redirect, 302);
    const latency = faults.latencyFor(c.req.path);
    if (latency > 0) await sleep(latency);
    const cutAfter = faults.resetAfterFor(c.req.path);
    // The first request of a music track's mp3 streams it as it is encoded (no length, no ranges yet: its preview
    // starts at once); the next ones get the finished file with ranges.
    const live =
      c.req.method === 'GET' && cutAfter === undefined ? await services.media.streamFirst?.(desc) : undefined;
    if (live)
      return new Response(live, { headers: { 'content-type': 'audio/mpeg', 'cache-control': 'no-store' } });
    const file = await services.media.ensure(desc);
    const answer = await fileAnswer(c.req.raw, file.path, {
      contentType: file.contentType,
      etag: file.etag,
      fileName: `${key}.${match[2]}`,
    });
    // On a node:http server the file goes straight to the socket (the app also answers in-process requests).
    if (cutAfter === undefined && c.env?.outgoing) {
      sendAnswer(answer, c.env.outgoing);
      return RESPONSE_ALREADY_SENT;
    }
    const response = answerResponse(answer);
    if (cutAfter === undefined || !response.body) return response;
    return cutResponse(c, response, cutAfter);
  });

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
  app.post(
    '/_sandbox/deliver',
    control(async ({ body }) => {
      const b = asObject(body);
      if (b.projectId !== undefined && typeof b.projectId !== 'string') {
        throw new SandboxError('BODY_WRONG_TYPE', 'projectId must be a string.');
      }
      return { delivered: await deps.deliverNow(b.projectId) };
    }),
  );
  // Every token from sign-in expires now (tests of "your session expired"); the built-in ones stay valid.
  app.post(
    '/_sandbox/sessions/expire',
    control(() => {
      let expired = 0;
      for (const record of deps.state().tokenRecords) {
        if (record.expiresAt !== undefined && record.expiresAt > now()) {
          record.expiresAt = now();
          expired++;
        }
      }
      return { expired };
    }),
  );
  app.post(
    '/_sandbox/deliverables/:id/talent-away',
    control(({ c, userId, body }) => {
      const until = asObject(body).until;
      if (typeof until !== 'string' || Number.isNaN(Date.parse(until))) {
        throw new SandboxError('BODY_WRONG_TYPE', 'until must be an ISO date.');
      }
      return engine.setTalentAway(userId, c.req.param('id')!, until);
    }),
  );
  app.post(
    '/_sandbox/faults',
    control(({ body }) => {
      const parsed = parseFaults(body);
      if (!parsed.ok) throw new SandboxError('BODY_WRONG_TYPE', parsed.message);
      faults.set(parsed.value);
      return faults.get();
    }),
  );
  app.get(
    '/_sandbox/faults',
    control(() => faults.get()),
  );
  app.delete(
    '/_sandbox/faults',
    control(() => {
      faults.clear();
      return faults.get();
    }),
  );
  app.post(
    '/_sandbox/reset',
    control(async () => {
      await deps.reset();
      return { reset: true };
    }),
  );

  app.notFound(() => errorResponse('NOT_FOUND', undefined));
  app.onError((error) => {
    console.error('[sandbox]', error);
    return Response.json(
      { status: 500, type: 'INTERNAL', message: 'Unexpected sandbox error.' },
      { status: 500 },
    );
  });
  return app;
}

/** Sends the first `limit` bytes of a response, then destroys the socket (fault: connection reset). */
async function cutResponse(c: Context<Env>, response: Response, limit: number): Promise<Response> {
  const out = c.env.outgoing;
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  out.writeHead(response.status, headers);
  const reader = response.body!.getReader();
  let sent = 0;
  try {
    while (sent < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      const chunk = value.subarray(0, limit - sent);
      sent += chunk.length;
      await new Promise<void>((resolve) => out.write(chunk, () => resolve()));
    }
  } finally {
    await reader.cancel().catch(() => {});
    out.socket?.destroy();
  }
  return RESPONSE_ALREADY_SENT;
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
