/**
 * Answers the sandbox never gives (malformed bodies, HTML error pages, 429 with Retry-After,
 * missing facts endpoints), from a tiny node:http server on 127.0.0.1.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from './client';
import { ApiClientError } from './errors';
import type { ApiFallbacks } from './fallbacks';
import { notFound, startLocalService } from './test-support/service-stand-ins';

type Reply = (req: IncomingMessage, res: ServerResponse) => void;
let service: Awaited<ReturnType<typeof startLocalService>>;
let baseUrl: string;
let routes: Map<string, Reply>;
let seen: { method: string; url: string; token: string | undefined; body: string }[];

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Reply =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };

beforeAll(async () => {
  service = await startLocalService((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({
        method: req.method!,
        url: req.url!,
        token: req.headers['x-access-token'] as string | undefined,
        body,
      });
      const reply = routes.get(`${req.method} ${req.url!.split('?')[0]}`);
      if (reply) reply(req, res);
      else notFound(res);
    });
  });
  baseUrl = service.baseUrl;
});
afterAll(() => service.close());
beforeEach(() => {
  routes = new Map();
  seen = [];
});

const sleeps: number[] = [];
function client(extra: { fallbacks?: ApiFallbacks } = {}): ApiClient {
  sleeps.length = 0;
  return createApiClient({
    baseUrl: `${baseUrl}/`,
    getToken: async () => 'tok-123',
    retry: {
      random: () => 0.5,
      sleep: async (ms) => void sleeps.push(ms),
      now: () => Date.parse('2026-01-01T00:00:00Z'),
    },
    ...extra,
  });
}

const validProject = {
  id: 'p1',
  title: 'T',
  mainService: 'voice_over',
  fulfillmentType: 'speedy',
  created: '2026-01-01T00:00:00',
  status: 'paid',
  price: 10,
  fake: false,
  test: false,
  services: [],
};

describe('malformed answers become UNEXPECTED_RESPONSE, never a crash', () => {
  it.each([
    ['a wrong shape', JSON.stringify({ id: 5 })],
    ['not JSON', '<html>oops</html>'],
    ['an empty body', ''],
    ['null', 'null'],
  ])('%s', async (_name, body) => {
    routes.set('GET /projects/p1', json(200, body));
    const error = await client()
      .getProject('p1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error).toMatchObject({ type: 'UNEXPECTED_RESPONSE', status: 200 });
  });

  it('tolerates fields the spec does not list', async () => {
    routes.set('GET /projects/p1', json(200, { ...validProject, brandNew: { nested: true } }));
    const project = await client().getProject('p1');
    expect(project.id).toBe('p1');
    expect(project['brandNew']).toEqual({ nested: true });
  });
});

describe('error answers', () => {
  it('a non-JSON error page is HTTP_<status>', async () => {
    routes.set('PUT /deliverables/d1', (_req, res) => {
      res.writeHead(418, { 'content-type': 'text/plain' });
      res.end('teapot');
    });
    const error = await client()
      .approveDeliverable('d1')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ type: 'HTTP_418', status: 418 });
  });

  it('GET 502 with an HTML page is retried, then HTTP_502', async () => {
    routes.set('GET /projects', (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<h1>Bad gateway</h1>');
    });
    const error = await client()
      .listProjects()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ type: 'HTTP_502', status: 502 });
    expect(seen).toHaveLength(4);
    // Full jitter with random 0.5 over windows 300, 600, 1200 ms.
    expect(sleeps).toEqual([150, 300, 600]);
  });
});

describe('redirects', () => {
  it('a 3xx is an answer, never followed: the token reaches only the endpoint called', async () => {
    routes.set('GET /projects', (_req, res) => {
      res.writeHead(302, { location: `${baseUrl}/elsewhere` });
      res.end();
    });
    const error = await client()
      .listProjects()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ type: 'HTTP_302', status: 302 });
    expect(seen.map((r) => r.url.split('?')[0])).toEqual(['/projects']);
  });
});

describe('429 and Retry-After', () => {
  it('honours Retry-After in seconds and as an HTTP date, capped', async () => {
    // One answer per call, in turn; the last repeats.
    const answers = [
      json(429, { status: 429, type: 'TOO_MANY', message: 'slow down' }, { 'retry-after': '2' }),
      json(
        503,
        { status: 503, type: 'BUSY', message: '' },
        { 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' },
      ),
      json(429, { status: 429, type: 'TOO_MANY', message: '' }, { 'retry-after': '3600' }),
      json(200, { page: 1, total: 0, projects: [] }),
    ];
    let calls = 0;
    routes.set('GET /projects', (req, res) => answers[Math.min(calls++, answers.length - 1)]!(req, res));
    const list = await client().listProjects();
    expect(list.total).toBe(0);
    expect(sleeps).toEqual([2000, 7000, 30_000]);
  });

  it('a write answered 429 is not sent again', async () => {
    routes.set(
      'PUT /deliverables/d1',
      json(429, { status: 429, type: 'TOO_MANY', message: '' }, { 'retry-after': '1' }),
    );
    const error = await client()
      .approveDeliverable('d1')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ type: 'TOO_MANY', status: 429 });
    expect(seen).toHaveLength(1);
  });
});

describe('request bodies and headers', () => {
  it('sends the token, remarks "", array scripts and approve-all "approved"', async () => {
    routes.set('POST /projects', json(200, validProject));
    routes.set('PUT /deliverables/project/p%201', json(200, []));
    routes.set('POST /users/auth', json(200, { token: 'new' }));
    const c = client();
    await c.createProject({
      title: 'T',
      mainService: 'voice_over',
      services: [
        { subCategory: 'voice_over', language: 'eng-us', genderAndAge: 'child', script: 'Hi there' },
      ],
    });
    await c.approveAll('p 1');
    await c.signIn('a@b.c', 'pw');
    const [create, approveAll, signIn] = seen;
    expect(create!.token).toBe('tok-123');
    const sent = JSON.parse(create!.body) as { remarks: string; services: { script: unknown }[] };
    expect(sent.remarks).toBe('');
    expect(sent.services[0]!.script).toEqual([{ part001: 'Hi there' }]);
    expect(approveAll!.url).toBe('/deliverables/project/p%201');
    expect(JSON.parse(approveAll!.body)).toEqual({ status: 'approved' });
    expect(signIn!.token).toBeUndefined();
  });

  it('uses the singular `attribute` path for values', async () => {
    routes.set(
      'GET /categories/voice_over/attribute/genderAndAge/values',
      json(200, [{ id: 'child', name: 'Child' }]),
    );
    expect(await client().getAttributeValues('voice_over', 'genderAndAge')).toEqual([
      { id: 'child', name: 'Child' },
    ]);
  });
});

describe('built-in lists when a service lacks the facts endpoints', () => {
  it('falls back on a 404 route (HTML or NOT_FOUND), not on an endpoint’s own 404 code', async () => {
    routes.set('GET /tracks', json(404, { status: 404, type: 'NOT_FOUND', message: 'No route' }));
    routes.set('GET /tracks/7', json(404, { status: 404, type: 'TRACK_NO_EXIST', message: 'No track' }));
    const c = client();
    const categories = await c.listCategories();
    expect(categories.map((x) => x.id)).toEqual(expect.arrayContaining(['voice_over', 'audio_ads']));
    expect((await c.getAttributes('voice_over')).map((a) => a.id)).toContain('language');
    expect((await c.getAttributeValues('voice_over', 'language')).map((v) => v.id)).toContain('eng-us');
    const tracks = await c.listTracks({ typeId: 'mood' });
    expect(tracks.length).toBeGreaterThan(0);
    expect(tracks.every((t) => t.type === 'mood')).toBe(true);
    await expect(c.getTrack(7)).rejects.toMatchObject({ type: 'TRACK_NO_EXIST', status: 404 });
  });
});

describe('secrets stay out of errors', () => {
  it('a transport failure carries neither the token nor the password', async () => {
    routes.set('POST /users/auth', (req) => req.socket.destroy());
    routes.set('GET /projects/p1', (req) => req.socket.destroy());
    const c = client();
    for (const error of [
      await c.signIn('a@b.c', 'pw-secret-123').catch((e: unknown) => e),
      await c.getProject('p1').catch((e: unknown) => e),
    ]) {
      expect(error).toBeInstanceOf(ApiClientError);
      expect((error as ApiClientError).type).toBe('NETWORK_UNREACHABLE');
      const everything = [
        JSON.stringify(error),
        String(error),
        (error as Error).stack ?? '',
        JSON.stringify((error as ApiClientError).details),
        String((error as Error).cause ?? ''),
      ].join('\n');
      expect(everything).not.toContain('tok-123');
      expect(everything).not.toContain('pw-secret-123');
    }
  });
});
