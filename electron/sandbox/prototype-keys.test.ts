import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorCode } from '../../shared/api';
import { listAttributeValues, listAttributes } from '../../shared/catalogue/categories';
import type { Sandbox } from './server';
import { audioAdsBody, call, startSandbox, voiceOverBody, type Loose } from './test-support/test-helpers';

// Issue 13 item 8: request values that name Object.prototype's members (`constructor`, `__proto__`,
// `toString`, ...) are ordinary unknown ids: a spec-shaped 4xx, never a 500.

const KEYS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'] as const;

let sb: Sandbox;
let projectId: string;
let deliverableId: string;
beforeAll(async () => {
  sb = await startSandbox();
  projectId = (await call(sb, 'POST', '/projects', { token: sb.tokens.full, body: voiceOverBody() })).body.id;
  await sb.deliverNow();
  deliverableId = (await call(sb, 'GET', `/deliverables/project/${projectId}`, { token: sb.tokens.full }))
    .body[0].id;
});
afterAll(() => sb.close());

function expectSpecError(r: { status: number; body: Loose }, what: string) {
  expect(r.status, `${what} -> ${r.status} ${JSON.stringify(r.body)}`).toBeGreaterThanOrEqual(400);
  expect(r.status, what).toBeLessThan(500);
  expect(Object.keys(r.body).sort(), what).toEqual(['message', 'status', 'type']);
  expect(isErrorCode(r.body.type), `${what}: ${r.body.type}`).toBe(true);
  expect(r.body.status, what).toBeTypeOf('number');
}

type Row = [method: string, path: (key: string) => string, body?: (key: string) => unknown];
const PATH_ROUTES: Row[] = [
  ['GET', (k) => `/categories/${k}/attributes`],
  ['GET', (k) => `/categories/${k}/attribute/language/values`],
  ['GET', (k) => `/categories/voice_over/attribute/${k}/values`],
  ['GET', (k) => `/categories/${k}/attribute/${k}/values`],
  ['GET', (k) => `/projects/${k}`],
  ['PUT', (k) => `/projects/${k}`, () => ({ status: 'canceled' })],
  ['GET', (k) => `/deliverables/project/${k}`],
  ['PUT', (k) => `/deliverables/project/${k}`, () => ({ status: 'approved' })],
  ['GET', (k) => `/deliverables/${k}`],
  ['PUT', (k) => `/deliverables/${k}`, () => ({ status: 'approved' })],
  ['PUT', (k) => `/deliverables/${k}`, () => ({ status: 'rejected' })],
  ['PUT', (k) => `/deliverables/${k}`, () => ({ status: 'winner' })],
  ['GET', (k) => `/revisions/${k}/versions`],
  ['POST', (k) => `/revisions/${k}`, () => ({ instructions: 'x' })],
  ['GET', (k) => `/tracks/${k}`],
  ['GET', (k) => `/media/${k}.wav`],
  ['POST', (k) => `/_sandbox/deliverables/${k}/talent-away`, () => ({ until: '2030-01-01' })],
];
const VALUE_ROUTES: Row[] = [
  ['GET', (k) => `/search?categoryId=${k}`],
  ['GET', (k) => `/search?categoryId=voice_over&currency=${k}`],
  ['GET', (k) => `/search?categoryId=voice_over&unitType=${k}`],
  ['GET', (k) => `/search?categoryId=voice_over&language=${k}`],
  ['GET', (k) => `/search?categoryId=voice_over&genderAndAge=${k}`],
  ['GET', (k) => `/search?categoryId=voice_over&purpose=${k}`],
  ['GET', (k) => `/search?${k}=1`],
  ['GET', (k) => `/projects?page=${k}`],
  ['POST', () => '/projects', (k) => voiceOverBody({ mainService: k })],
  ['POST', () => '/projects', (k) => voiceOverBody({ fulfillmentType: k })],
  ['POST', () => '/projects', (k) => voiceOverBody({ services: [{ subCategory: k }] })],
  [
    'POST',
    () => '/projects',
    (k) =>
      voiceOverBody({
        services: [{ subCategory: 'voice_over', language: k, genderAndAge: k, script: 'Hi' }],
      }),
  ],
  [
    'POST',
    () => '/projects',
    (k) => audioAdsBody({ services: [{ subCategory: 'post-production', seconds: k }] }),
  ],
  ['POST', () => '/quote', (k) => ({ mainService: k, services: [] })],
  ['PUT', () => `/projects/${projectId}`, (k) => ({ status: 'canceled', reasonCode: k })],
  ['PUT', () => `/deliverables/${deliverableId}`, (k) => ({ status: k })],
  ['PUT', () => `/deliverables/${deliverableId}`, (k) => ({ status: 'rejected', reasonCode: k })],
  ['POST', () => `/revisions/${deliverableId}`, (k) => ({ instructions: 'x', revisionCode: k })],
  ['POST', () => '/users/auth', (k) => ({ email: `${k}@sandbox.test`, password: k })],
];

describe.each(KEYS)('the key %j', (key) => {
  it('in every path parameter: a spec-shaped 4xx', async () => {
    for (const [method, path, body] of PATH_ROUTES) {
      const r = await call(sb, method, path(key), { token: sb.tokens.full, body: body?.(key) });
      expectSpecError(r, `${method} ${path(key)}`);
    }
  });

  it('in queries and bodies: never a 5xx (a 4xx is spec-shaped)', async () => {
    for (const [method, path, body] of VALUE_ROUTES) {
      const r = await call(sb, method, path(key), { token: sb.tokens.full, body: body?.(key) });
      const what = `${method} ${path(key)} ${JSON.stringify(body?.(key) ?? '')}`;
      if (r.status >= 400) expectSpecError(r, what);
      else expect(r.status, what).toBe(200);
    }
  });

  it('as a category id in the seed data lookups', () => {
    expect(listAttributes(key)).toMatchObject({ ok: false, code: 'CATEGORY_NOT_AUTHORIZED' });
    expect(listAttributeValues(key, 'language')).toMatchObject({
      ok: false,
      code: 'CATEGORY_NOT_AUTHORIZED',
    });
    expect(listAttributeValues('voice_over', key)).toMatchObject({
      ok: false,
      code: 'ATTRIBUTE_NOT_CATEGORY',
    });
  });
});

it('the sandbox still answers after all of them', async () => {
  expect((await call(sb, 'GET', `/projects/${projectId}`, { token: sb.tokens.full })).status).toBe(200);
});
