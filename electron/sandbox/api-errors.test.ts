import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SPEC_ERROR_CODES } from '../../shared/api';
import type { Sandbox } from './server';
import { audioAdsBody, call, startSandbox, voiceOverBody, type Loose } from './test-support/test-helpers';

// Every reachable error code of the spec (and the sandbox's extension codes) with its heading and
// body status, over real HTTP against the default sandbox (real seed data, media store, rate card).

let sb: Sandbox;
let full: string;
let projectId: string;
let deliverableId: string;
let contestDeliverableId: string;
const seen = new Set<string>();

beforeAll(async () => {
  sb = await startSandbox();
  full = sb.tokens.full;
  projectId = (await call(sb, 'POST', '/projects', { token: full, body: voiceOverBody() })).body.id;
  const contest = (
    await call(sb, 'POST', '/projects', { token: full, body: voiceOverBody({ fulfillmentType: 'contest' }) })
  ).body.id;
  await sb.deliverNow();
  deliverableId = (await call(sb, 'GET', `/deliverables/project/${projectId}`, { token: full })).body[0].id;
  contestDeliverableId = (await call(sb, 'GET', `/deliverables/project/${contest}`, { token: full })).body[0]
    .id;
});
afterEach(async () => {
  await call(sb, 'DELETE', '/_sandbox/faults', { token: full });
});
afterAll(async () => {
  // Every spec code is reachable except REMARKS_REQUIRED: remarks is optional (sandbox choice, README).
  const unreachable = new Set(['REMARKS_REQUIRED']);
  // The state errors are asserted, with both statuses, row by row in state-machine.test.ts.
  const stateRows = new Set([
    'PROJECT_ALREADY_CANCELED',
    'DELIVERABLE_ALREADY_APPROVED',
    'DELIVERABLE_NOT_PENDING_REVIEW',
    'PROJECT_NOT_PENDING_APPROVAL',
    'PROJECT_ALREADY_APPROVED',
    'DELIVERABLE_ALREADY_REJECTED',
    'WINNER_ALREADY_SELECTED',
    'DELIVERABLE_REJECTED',
    'DELIVERABLE_PENDING_REVISION',
    'TALENT_ON_VACATION',
  ]);
  const missing = SPEC_ERROR_CODES.filter(
    (code) => !unreachable.has(code) && !stateRows.has(code) && !seen.has(code),
  );
  await sb.close();
  expect(missing, 'spec codes no test reached').toEqual([]);
});

function expectError(r: { status: number; body: Loose }, type: string, http: number, body = http) {
  expect(r.body?.type, JSON.stringify(r.body)).toBe(type);
  expect(r.status).toBe(http);
  expect(r.body.status).toBe(body);
  expect(typeof r.body.message).toBe('string');
  seen.add(type);
}

type Row = [method: string, path: () => string, body?: unknown];
const ENDPOINTS: Row[] = [
  ['POST', () => '/projects', voiceOverBody()],
  ['GET', () => '/projects'],
  ['GET', () => `/projects/${projectId}`],
  ['PUT', () => `/projects/${projectId}`, { status: 'canceled' }],
  ['GET', () => '/search?categoryId=voice_over'],
  ['GET', () => `/deliverables/project/${projectId}`],
  ['PUT', () => `/deliverables/project/${projectId}`, { status: 'approved' }],
  ['GET', () => `/deliverables/${deliverableId}`],
  ['PUT', () => `/deliverables/${deliverableId}`, { status: 'approved' }],
  ['GET', () => `/revisions/${deliverableId}/versions`],
  ['POST', () => `/revisions/${deliverableId}`, { instructions: 'x' }],
  ['GET', () => '/categories'],
  ['GET', () => '/categories/voice_over/attributes'],
  ['GET', () => '/categories/voice_over/attribute/language/values'],
  ['GET', () => '/tracks'],
  ['GET', () => '/tracks/20'],
  ['POST', () => '/quote', { mainService: 'voice_over', services: voiceOverBody().services }],
  ['POST', () => '/_sandbox/deliver', {}],
  ['POST', () => '/_sandbox/faults', {}],
  ['POST', () => '/_sandbox/reset', {}],
];

describe('FORBIDDEN 403', () => {
  it.each(ENDPOINTS)('%s %s without a token, and with an unknown token', async (method, path, body) => {
    expectError(await call(sb, method, path(), { body }), 'FORBIDDEN', 403);
    expectError(await call(sb, method, path(), { body, token: 'eyJ.unknown.token' }), 'FORBIDDEN', 403);
  });

  it.each([
    ['GET', () => '/search?categoryId=voice_over'],
    ['GET', () => `/revisions/${deliverableId}/versions`],
  ] as Row[])('%s %s with a token lacking the scope', async (method, path) => {
    expectError(await call(sb, method, path(), { token: sb.tokens.noScopes }), 'FORBIDDEN', 403);
    expect((await call(sb, method, path(), { token: full })).status).toBe(200);
  });

  it.each(ENDPOINTS.filter(([, path]) => /projects\/|deliverables|revisions/.test(path())))(
    "%s %s on another user's project or deliverable",
    async (method, path, body) => {
      expectError(await call(sb, method, path(), { body, token: sb.tokens.otherUser }), 'FORBIDDEN', 403);
    },
  );

  it("the project list and its total count only the caller's projects", async () => {
    const other = await call(sb, 'POST', '/projects', {
      token: sb.tokens.otherUser,
      body: voiceOverBody({ title: 'Theirs' }),
    });
    const mine = await call(sb, 'GET', '/projects?pageSize=100', { token: full });
    expect(mine.body.projects.some((p: { id: string }) => p.id === other.body.id)).toBe(false);
    expect(mine.body.total).toBe(mine.body.projects.length);
    const theirs = await call(sb, 'GET', '/projects', { token: sb.tokens.otherUser });
    expect(theirs.body.total).toBe(1);
    expect(theirs.body.projects[0].id).toBe(other.body.id);
  });
});

describe('unknown and malformed ids', () => {
  const ids = ['not-a-uuid', randomUUID(), '__proto__', 'constructor'];
  const rows: Array<[string, string, unknown, string, number, number]> = [
    ['GET', '/projects/:id', undefined, 'PROJECT_NO_EXIST', 404, 404],
    ['PUT', '/projects/:id', { status: 'canceled' }, 'PROJECT_NO_EXIST', 400, 404],
    ['GET', '/deliverables/project/:id', undefined, 'PROJECT_NO_EXIST', 404, 404],
    ['PUT', '/deliverables/project/:id', { status: 'approved' }, 'PROJECT_NO_EXIST', 404, 404],
    ['GET', '/deliverables/:id', undefined, 'DELIVERABLE_NO_EXIST', 400, 404],
    ['PUT', '/deliverables/:id', { status: 'approved' }, 'DELIVERABLE_NO_EXIST', 400, 404],
    ['PUT', '/deliverables/:id', { status: 'rejected' }, 'DELIVERABLE_NO_EXIST', 400, 404],
    ['PUT', '/deliverables/:id', { status: 'winner' }, 'DELIVERABLE_NO_EXIST', 400, 404],
    ['GET', '/revisions/:id/versions', undefined, 'DELIVERABLE_NO_EXIST', 400, 404],
    ['POST', '/revisions/:id', { instructions: 'x' }, 'DELIVERABLE_NO_EXIST', 400, 404],
  ];
  it.each(rows)('%s %s -> %s', async (method, path, body, type, http, bodyStatus) => {
    for (const id of ids) {
      expectError(
        await call(sb, method, path.replace(':id', id), { token: full, body }),
        type,
        http,
        bodyStatus,
      );
    }
  });
});

describe('missing path ids', () => {
  const rows: Array<[string, string, unknown, string]> = [
    ['PUT', '/projects/', { status: 'canceled' }, 'ID_REQUIRED'],
    ['GET', '/deliverables/project/', undefined, 'PROJECT_ID_REQUIRED'],
    ['PUT', '/deliverables/project/', { status: 'approved' }, 'ID_REQUIRED'],
    ['GET', '/deliverables/', undefined, 'ID_REQUIRED'],
    ['PUT', '/deliverables/', { status: 'approved' }, 'ID_REQUIRED'],
    ['GET', '/revisions//versions', undefined, 'ID_REQUIRED'],
    ['POST', '/revisions/', { instructions: 'x' }, 'ID_REQUIRED'],
    ['GET', '/categories//attributes', undefined, 'ID_REQUIRED'],
    ['GET', '/categories/voice_over/attribute//values', undefined, 'ATTRIBUTE_ID_REQUIRED'],
  ];
  it.each(rows)('%s %s -> %s 422', async (method, path, body, type) => {
    expectError(await call(sb, method, path, { token: full, body }), type, 422);
  });
});

describe('bad bodies never answer 500', () => {
  const rows: Array<[string, () => string]> = [
    ['POST', () => '/projects'],
    ['PUT', () => `/projects/${projectId}`],
    ['PUT', () => `/deliverables/project/${projectId}`],
    ['PUT', () => `/deliverables/${deliverableId}`],
    ['POST', () => `/revisions/${deliverableId}`],
    ['POST', () => '/quote'],
    ['POST', () => '/users/auth'],
  ];
  it.each(rows)(
    '%s %s: invalid JSON -> INVALID_JSON 400; a JSON array -> BODY_WRONG_TYPE 422',
    async (method, path) => {
      expectError(await call(sb, method, path(), { token: full, raw: '{"title": ' }), 'INVALID_JSON', 400);
      expectError(await call(sb, method, path(), { token: full, raw: '[1,2]' }), 'BODY_WRONG_TYPE', 422);
    },
  );
});

describe('500 codes (fault injection errorRate 1)', () => {
  const rows: Array<[string, () => string, unknown, string]> = [
    ['POST', () => '/projects', voiceOverBody(), 'PROJECT_NOT_CREATED'],
    ['GET', () => '/projects', undefined, 'NOT_PROJECTS_INFO'],
    ['GET', () => `/projects/${projectId}`, undefined, 'NOT_PROJECT_INFO'],
    ['PUT', () => `/projects/${projectId}`, { status: 'canceled' }, 'ERROR_CANCELING_PROJECT'],
    ['GET', () => '/search?categoryId=voice_over', undefined, 'ERROR_GETTING_SEARCH_RESULTS'],
    ['GET', () => `/deliverables/project/${projectId}`, undefined, 'NOT_DELIVERABLES_INFO'],
    [
      'PUT',
      () => `/deliverables/project/${projectId}`,
      { status: 'approved' },
      'ERROR_APPROVING_PROJECT_DELIVERABLES',
    ],
    ['GET', () => `/deliverables/${deliverableId}`, undefined, 'ERROR_GETTING_DELIVERABLE'],
    ['PUT', () => `/deliverables/${deliverableId}`, { status: 'approved' }, 'ERROR_APPROVING_DELIVERABLE'],
    ['PUT', () => `/deliverables/${deliverableId}`, { status: 'rejected' }, 'ERROR_REJECTING_DELIVERABLE'],
    ['PUT', () => `/deliverables/${deliverableId}`, { status: 'winner' }, 'ERROR_SELECTING_WINNER'],
    ['GET', () => `/revisions/${deliverableId}/versions`, undefined, 'ERROR_GETTINT_VERSIONS'],
    ['POST', () => `/revisions/${deliverableId}`, { instructions: 'x' }, 'ERROR_CREATING_REVISION'],
    ['GET', () => '/categories', undefined, 'NOT_CATEGORIES_INFO'],
    ['GET', () => '/categories/voice_over/attributes', undefined, 'NOT_CATEGORIES_ATTRIBUTES'],
    ['GET', () => '/categories/voice_over/attribute/language/values', undefined, 'NOT_ATTRIBUTES__VALUES'],
    [
      'POST',
      () => '/quote',
      { mainService: 'voice_over', services: voiceOverBody().services },
      'PROJECT_NOT_QUOTED',
    ],
  ];
  it.each(rows)('%s %s -> %s 500, and nothing changes', async (method, path, body, type) => {
    const before = (await call(sb, 'GET', `/deliverables/${deliverableId}`, { token: full })).body;
    const set = await call(sb, 'POST', '/_sandbox/faults', {
      token: full,
      body: { errorRate: 1, pathPrefix: path().split('?')[0] },
    });
    expect(set.status).toBe(200);
    expectError(await call(sb, method, path(), { token: full, body }), type, 500);
    await call(sb, 'DELETE', '/_sandbox/faults', { token: full });
    expect((await call(sb, 'GET', `/deliverables/${deliverableId}`, { token: full })).body).toEqual(before);
  });

  it('pathPrefix scopes the faults; DELETE clears them', async () => {
    await call(sb, 'POST', '/_sandbox/faults', {
      token: full,
      body: { errorRate: 1, pathPrefix: '/categories' },
    });
    expect((await call(sb, 'GET', '/tracks', { token: full })).status).toBe(200);
    expect((await call(sb, 'GET', '/categories', { token: full })).status).toBe(500);
    expect((await call(sb, 'DELETE', '/_sandbox/faults', { token: full })).body).toEqual({});
    expect((await call(sb, 'GET', '/categories', { token: full })).status).toBe(200);
  });

  it('latencyMs slows matching answers', async () => {
    await call(sb, 'POST', '/_sandbox/faults', {
      token: full,
      body: { latencyMs: 150, pathPrefix: '/tracks' },
    });
    const t0 = performance.now();
    await call(sb, 'GET', '/tracks', { token: full });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    const t1 = performance.now();
    await call(sb, 'GET', '/categories', { token: full });
    expect(performance.now() - t1).toBeLessThan(140);
  });

  it('rejects a malformed faults body', async () => {
    expectError(
      await call(sb, 'POST', '/_sandbox/faults', { token: full, body: { errorRate: 2 } }),
      'BODY_WRONG_TYPE',
      422,
    );
  });
});

describe('create project validation (422)', () => {
  const vo = (patch: Record<string, unknown>) => ({ ...voiceOverBody().services[0], ...patch });
  const rows: Array<[string, Record<string, unknown>]> = [
    ['TITLE_REQUIRED', voiceOverBody({ title: undefined })],
    ['TITLE_TOO_LONG', voiceOverBody({ title: 'x'.repeat(101) })],
    ['TITLE_WRONG_TYPE', voiceOverBody({ title: 5 })],
    ['MAINSERVICE_REQUIRED', voiceOverBody({ mainService: undefined })],
    ['MAINSERVICE_NOT_AUTHORIZED', voiceOverBody({ mainService: 'music_production' })],
    ['MAINSERVICE_WRONG_TYPE', voiceOverBody({ mainService: 7 })],
    ['REMARKS_WRONG_TYPE', voiceOverBody({ remarks: 3 })],
    ['FAKE_WRONG_TYPE', voiceOverBody({ fake: 'yes' })],
    ['TEST_WRONG_TYPE', voiceOverBody({ test: 1 })],
    ['SUBCATEGORY_REQUIRED', voiceOverBody({ services: [vo({ subCategory: undefined })] })],
    ['SUBCATEGORY_NOT_AUTHORIZED', voiceOverBody({ services: [vo({ subCategory: 'mixing' })] })],
    ['SUBCATEGORY_WRONG_TYPE', voiceOverBody({ services: [vo({ subCategory: 1 })] })],
    ['LANGUAGE_REQUIRED', voiceOverBody({ services: [vo({ language: undefined })] })],
    ['LANGUAGE_WRONG_TYPE', voiceOverBody({ services: [vo({ language: 1 })] })],
    ['LANGUAGE_NOT_ACTIVE', voiceOverBody({ services: [vo({ language: 'xx-zz' })] })],
    ['GENDER_AND_AGE_REQUIRED', voiceOverBody({ services: [vo({ genderAndAge: undefined })] })],
    ['GENDER_AND_AGE_WRONG_TYPE', voiceOverBody({ services: [vo({ genderAndAge: true })] })],
    ['GENDER_AND_AGE_NOT_ACTIVE', voiceOverBody({ services: [vo({ genderAndAge: 'baby' })] })],
    ['SCRIPT_REQUIRED', voiceOverBody({ services: [vo({ script: undefined })] })],
    ['SCRIPT_WRONG_TYPE', voiceOverBody({ services: [vo({ script: 42 })] })],
    ['FULFILLMENT_TYPE_NOT_ALLOWED', voiceOverBody({ fulfillmentType: 'express' })],
    ['SERVICES_REQUIRED', voiceOverBody({ services: undefined })],
    [
      'TOPIC_REQUIRED',
      audioAdsBody({
        services: [{ ...audioAdsBody().services[0], topic: undefined }, ...audioAdsBody().services.slice(1)],
      }),
    ],
  ];
  it.each(rows)('%s', async (type, body) => {
    expectError(await call(sb, 'POST', '/projects', { token: full, body }), type, 422);
  });
});

describe('other 4xx codes', () => {
  it('sign-in: USER_NOT_FOUND 401, EMAIL_REQUIRED, EMAIL_REQUIRED_NOT_VALID, PASSWORD_REQUIRED 422; success gives the full token', async () => {
    const auth = (body: unknown) => call(sb, 'POST', '/users/auth', { body });
    expectError(await auth({ email: 'producer@sandbox.test', password: 'nope' }), 'USER_NOT_FOUND', 401);
    expectError(await auth({ password: 'sandbox' }), 'EMAIL_REQUIRED', 422);
    expectError(await auth({ email: 'not-an-email', password: 'sandbox' }), 'EMAIL_REQUIRED_NOT_VALID', 422);
    expectError(await auth({ email: 'producer@sandbox.test' }), 'PASSWORD_REQUIRED', 422);
    const ok = await auth({ email: 'producer@sandbox.test', password: 'sandbox' });
    expect(ok.status).toBe(200);
    expect(ok.body.token).toBe(full);
    expect((await auth({ email: 'other@sandbox.test', password: 'sandbox' })).body.token).toBe(
      sb.tokens.otherUser,
    );
  });

  it('search: SEARCH_NOT_AVAILABLE, SEARCH_NOT_RESULTS, UNITTYPE_NOT_ALLOWED, CURRENCY_NOT_SUPPORTED, CATEGORY_ID_REQUIRED, QUERY_WRONG_TYPE', async () => {
    const search = (q: string) => call(sb, 'GET', `/search?${q}`, { token: full });
    expectError(await search('categoryId=audio_ads'), 'SEARCH_NOT_AVAILABLE', 422);
    expectError(await search('categoryId=voice_over&maximumPrice=0.01'), 'SEARCH_NOT_RESULTS', 422);
    expectError(await search('categoryId=voice_over&unitType=weeks'), 'UNITTYPE_NOT_ALLOWED', 422);
    expectError(await search('categoryId=voice_over&currency=XYZ'), 'CURRENCY_NOT_SUPPORTED', 422);
    expectError(await search('currency=USD'), 'CATEGORY_ID_REQUIRED', 422);
    expectError(await search('categoryId=voice_over&page=0'), 'QUERY_WRONG_TYPE', 422);
    expectError(await search('categoryId=voice_over&minimumPrice=cheap'), 'QUERY_WRONG_TYPE', 422);
  });

  it('categories and tracks: CATEGORY_NOT_AUTHORIZED, ATTRIBUTE_NOT_CATEGORY, ATTRIBUTE_NO_VALUES, TRACK_NO_EXIST', async () => {
    expectError(
      await call(sb, 'GET', '/categories/nope/attributes', { token: full }),
      'CATEGORY_NOT_AUTHORIZED',
      422,
    );
    expectError(
      await call(sb, 'GET', '/categories/voice_over/attribute/tone/values', { token: full }),
      'ATTRIBUTE_NOT_CATEGORY',
      422,
    );
    expectError(
      await call(sb, 'GET', '/categories/voice_over/attribute/script/values', { token: full }),
      'ATTRIBUTE_NO_VALUES',
      404,
    );
    expectError(await call(sb, 'GET', '/tracks/999', { token: full }), 'TRACK_NO_EXIST', 404);
    expectError(await call(sb, 'GET', '/tracks/abc', { token: full }), 'TRACK_NO_EXIST', 404);
  });

  it('action bodies: STATUS_NOT_ALLOWED, REASON_CODE_NOT_ALLOWED, NEW_GENDER_AND_AGE_REQUIRED, INSTRUCTIONS_REQUIRED, CHECK_TALENT_WRONG_TYPE', async () => {
    const put = (body: unknown) => call(sb, 'PUT', `/deliverables/${deliverableId}`, { token: full, body });
    expectError(await put({ status: 'done' }), 'STATUS_NOT_ALLOWED', 422);
    expectError(await put({}), 'STATUS_NOT_ALLOWED', 422);
    expectError(await put({ status: 'rejected', reasonCode: 'whatever' }), 'REASON_CODE_NOT_ALLOWED', 422);
    expectError(
      await put({ status: 'rejected', reasonCode: 'genderAndAgeChange' }),
      'NEW_GENDER_AND_AGE_REQUIRED',
      422,
    );
    expectError(
      await put({ status: 'rejected', reasonCode: 'genderAndAgeChange', newGenderAndAge: 'baby' }),
      'GENDER_AND_AGE_NOT_ACTIVE',
      422,
    );
    const rev = (body: unknown) => call(sb, 'POST', `/revisions/${deliverableId}`, { token: full, body });
    expectError(await rev({}), 'INSTRUCTIONS_REQUIRED', 422);
    expectError(await rev({ instructions: 'x', checkTalent: 'yes' }), 'CHECK_TALENT_WRONG_TYPE', 422);
    expectError(await rev({ instructions: 'x', revisionCode: 'nope' }), 'REASON_CODE_NOT_ALLOWED', 422);
    const cancel = (body: unknown) => call(sb, 'PUT', `/projects/${projectId}`, { token: full, body });
    expectError(await cancel({ status: 'paid' }), 'STATUS_NOT_ALLOWED', 422);
    expectError(await cancel({ status: 'canceled', reasonCode: 'bored' }), 'REASON_CODE_NOT_ALLOWED', 422);
    expectError(
      await call(sb, 'PUT', `/deliverables/project/${projectId}`, { token: full, body: { status: 'nope' } }),
      'STATUS_NOT_ALLOWED',
      422,
    );
    // Nothing changed on the way.
    expect((await call(sb, 'GET', `/deliverables/${deliverableId}`, { token: full })).body.status).toBe(
      'reviewable',
    );
    expect(contestDeliverableId).toBeTruthy();
  });

  it('unknown routes answer 404 JSON', async () => {
    expectError(await call(sb, 'GET', '/nowhere', { token: full }), 'NOT_FOUND', 404);
    expectError(await call(sb, 'DELETE', '/projects', { token: full }), 'NOT_FOUND', 404);
  });
});
