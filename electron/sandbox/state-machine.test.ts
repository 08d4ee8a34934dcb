import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from './server';
import {
  audioAdsBody,
  call,
  type Loose,
  fakeCatalog,
  fakeServices,
  startSandbox,
  voiceOverBody,
} from './test-support/test-helpers';

// Every row of the state table (docs/service.md#transitions), plus the sandbox's documented choices,
// over real HTTP. Pricing and media are stand-ins here (engine behaviour only); services.test.ts
// covers the real seed data, pricing and media.

let sb: Sandbox;
let token: string;

beforeAll(async () => {
  sb = await startSandbox({
    services: fakeServices(mkdtempSync(join(tmpdir(), 'sbx-sm-'))),
    catalog: fakeCatalog(),
  });
  token = sb.tokens.full;
});
afterAll(() => sb.close());

const req = (method: string, path: string, body?: unknown) => call(sb, method, path, { token, body });

async function newProject(body: Record<string, unknown> = voiceOverBody()) {
  const created = await req('POST', '/projects', body);
  expect(created.status).toBe(200);
  return created.body.id as string;
}

const contestBody = voiceOverBody({ fulfillmentType: 'contest' });

async function delivered(body: Record<string, unknown> = voiceOverBody()) {
  const id = await newProject(body);
  const d = await req('POST', '/_sandbox/deliver', { projectId: id });
  expect(d.body.delivered).toBeGreaterThan(0);
  const list = await req('GET', `/deliverables/project/${id}`);
  return { projectId: id, deliverables: list.body as Array<{ id: string; name: string; status: string }> };
}

const setStatus = (id: string, body: Record<string, unknown>) => req('PUT', `/deliverables/${id}`, body);
const selectWinner = (id: string) => setStatus(id, { status: 'winner' });
const revise = (id: string, body: Record<string, unknown>) => req('POST', `/revisions/${id}`, body);
const approveAll = (projectId: string, status = 'approved') =>
  req('PUT', `/deliverables/project/${projectId}`, { status });

/** A deliverable brought into a given state. */
async function deliverableIn(state: 'reviewable' | 'approved' | 'rejected' | 'revisionRequested' | 'winner') {
  const { projectId, deliverables } = await delivered(state === 'winner' ? contestBody : voiceOverBody());
  const id = deliverables[0]!.id;
  if (state === 'approved' || state === 'rejected' || state === 'winner')
    expect((await setStatus(id, { status: state })).status).toBe(200);
  if (state === 'revisionRequested') {
    expect((await revise(id, { instructions: 'Slower, please.' })).status).toBe(200);
  }
  return { projectId, id, deliverables };
}

/** A 200 whose body has at least `fields`. */
function expectOk(r: { status: number; body: Loose }, fields: Record<string, unknown>) {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body).toMatchObject(fields);
}

function expectError(r: { status: number; body: Loose }, type: string, http: number, body = http) {
  expect(r.body.type, JSON.stringify(r.body)).toBe(type);
  expect(r.status).toBe(http);
  expect(r.body.status).toBe(body);
  expect(typeof r.body.message).toBe('string');
}

describe('transitions table', () => {
  it('create project: valid body -> project paid, each service paid, with price and services', async () => {
    const r = await req('POST', '/projects', voiceOverBody());
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('paid');
    expect(r.body.services).toHaveLength(1);
    for (const s of r.body.services) {
      expect(s.status).toBe('paid');
      expect(typeof s.id).toBe('string');
      expect(typeof s.price).toBe('number');
    }
    expect(r.body.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  });

  it('cancel: project not canceled -> canceled, with reason and reasonCode and no services', async () => {
    const id = await newProject();
    const cancel = { status: 'canceled', reason: 'Changed plans', reasonCode: 'no_longer_needed.duplicated' };
    const r = await req('PUT', `/projects/${id}`, cancel);
    expectOk(r, { id, ...cancel });
    expect(r.body.services).toBeUndefined();
    expect((await req('GET', `/projects/${id}`)).body.status).toBe('canceled');
  });

  it('cancel: project canceled -> PROJECT_ALREADY_CANCELED 400/404', async () => {
    const id = await newProject();
    await req('PUT', `/projects/${id}`, { status: 'canceled' });
    expectError(
      await req('PUT', `/projects/${id}`, { status: 'canceled' }),
      'PROJECT_ALREADY_CANCELED',
      400,
      404,
    );
  });

  const approveRows: Array<
    [from: Parameters<typeof deliverableIn>[0], type: string | null, http?: number, body?: number]
  > = [
    ['reviewable', null],
    ['approved', 'DELIVERABLE_ALREADY_APPROVED', 404, 404],
    ['rejected', 'DELIVERABLE_NOT_PENDING_REVIEW', 404, 404],
    ['revisionRequested', 'DELIVERABLE_NOT_PENDING_REVIEW', 404, 404],
    ['winner', 'DELIVERABLE_NOT_PENDING_REVIEW', 404, 404],
  ];
  it.each(approveRows)('approve single: %s -> %s', async (from, type, http, body) => {
    const { id } = await deliverableIn(from);
    const r = await setStatus(id, { status: 'approved' });
    if (type === null) {
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ id, serviceSubCategory: 'voice_over', name: '1', status: 'approved' });
    } else expectError(r, type, http!, body);
  });

  it('approve all: pending deliverables -> each approved; project completed', async () => {
    const { projectId, deliverables } = await delivered();
    const r = await approveAll(projectId);
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(deliverables.length);
    for (const d of r.body) expect(d.status).toBe('approved');
    expect((await req('GET', `/projects/${projectId}`)).body.status).toBe('completed');
  });

  it('approve all: accepts status "approve" (the spec text) and approves only reviewable ones', async () => {
    const { projectId, deliverables } = await delivered();
    await revise(deliverables[1]!.id, { instructions: 'Again' });
    const r = await approveAll(projectId, 'approve');
    expect(r.status).toBe(200);
    expect(r.body.map((d: { id: string }) => d.id)).toEqual([deliverables[0]!.id]);
    expect((await req('GET', `/projects/${projectId}`)).body.status).toBe('paid');
  });

  it('approve all: project without pending deliverables -> PROJECT_NOT_PENDING_APPROVAL 400/404', async () => {
    const id = await newProject();
    expectError(await approveAll(id), 'PROJECT_NOT_PENDING_APPROVAL', 400, 404);
    const { projectId, deliverables } = await delivered();
    for (const d of deliverables) await revise(d.id, { instructions: 'x' });
    expectError(await approveAll(projectId), 'PROJECT_NOT_PENDING_APPROVAL', 400, 404);
  });

  it('approve all: project already approved -> PROJECT_ALREADY_APPROVED 400/404', async () => {
    const { projectId } = await delivered();
    await approveAll(projectId);
    expectError(await approveAll(projectId), 'PROJECT_ALREADY_APPROVED', 400, 404);
  });

  it.each(['reviewable', 'approved', 'revisionRequested'] as const)(
    'reject: deliverable not rejected (%s) -> rejected with reason, reasonCode, newGenderAndAge',
    async (from) => {
      const { id } = await deliverableIn(from);
      const rejection = {
        reason: 'Wrong voice',
        reasonCode: 'genderAndAgeChange',
        newGenderAndAge: 'seniorMale',
      };
      expectOk(await setStatus(id, { status: 'rejected', ...rejection }), {
        id,
        status: 'rejected',
        ...rejection,
      });
    },
  );

  it('reject: deliverable rejected -> DELIVERABLE_ALREADY_REJECTED 400/404', async () => {
    const { id } = await deliverableIn('rejected');
    expectError(await setStatus(id, { status: 'rejected' }), 'DELIVERABLE_ALREADY_REJECTED', 400, 404);
  });

  it.each(['reviewable', 'approved'] as const)(
    'revision: %s, checkTalent false -> revisionRequested',
    async (from) => {
      const { id } = await deliverableIn(from);
      const revision = { instructions: 'Warmer', revisionCode: 'quality_issues' };
      expectOk(await revise(id, revision), {
        id,
        status: 'revisionRequested',
        ...revision,
        checkTalent: false,
      });
    },
  );

  it('revision: checkTalent true and talent away -> TALENT_ON_VACATION 400 with the date, no change', async () => {
    const { id } = await deliverableIn('reviewable');
    const away = await req('POST', `/_sandbox/deliverables/${id}/talent-away`, { until: '2099-12-05' });
    expect(away.status).toBe(200);
    const r = await revise(id, { instructions: 'x', checkTalent: true });
    expectError(r, 'TALENT_ON_VACATION', 400);
    expect(r.body.message).toContain('2099-12-05');
    expect((await req('GET', `/deliverables/${id}`)).body.status).toBe('reviewable');
    // checkTalent false: posted anyway (support would contact the client).
    expect((await revise(id, { instructions: 'x', checkTalent: false })).status).toBe(200);
  });

  it('revision: checkTalent true and talent back (date past) -> revisionRequested', async () => {
    const { id } = await deliverableIn('reviewable');
    await req('POST', `/_sandbox/deliverables/${id}/talent-away`, { until: '2000-01-01' });
    expect((await revise(id, { instructions: 'x', checkTalent: true })).body.status).toBe(
      'revisionRequested',
    );
  });

  it.each([
    ['rejected', 'DELIVERABLE_REJECTED'],
    ['revisionRequested', 'DELIVERABLE_PENDING_REVISION'],
  ] as const)('revision: deliverable %s -> %s 400/404', async (from, type) => {
    const { id } = await deliverableIn(from);
    expectError(await revise(id, { instructions: 'x' }), type, 400, 404);
  });

  it('winner: pending review in a contest without winner -> winner; the other entries lose', async () => {
    const { projectId, deliverables } = await delivered(contestBody);
    expect(deliverables.length).toBeGreaterThanOrEqual(2);
    for (const [i, d] of deliverables.entries())
      expect(d.name).toMatch(new RegExp(`^Entry ${i + 1} \\(.+\\)$`));
    expectOk(await selectWinner(deliverables[0]!.id), { id: deliverables[0]!.id, status: 'winner' });
    const after = (await req('GET', `/deliverables/project/${projectId}`)).body as Array<{ status: string }>;
    expect(after.map((d) => d.status)).toEqual(['winner', ...deliverables.slice(1).map(() => 'rejected')]);
    expect((await req('GET', `/projects/${projectId}`)).body.status).toBe('completed');
  });

  it('winner: project with a winner -> WINNER_ALREADY_SELECTED 404/400', async () => {
    const { deliverables } = await delivered(contestBody);
    await selectWinner(deliverables[0]!.id);
    expectError(await selectWinner(deliverables[1]!.id), 'WINNER_ALREADY_SELECTED', 404, 400);
  });

  it('winner: deliverable not pending review -> DELIVERABLE_NOT_PENDING_REVIEW 404', async () => {
    const { deliverables } = await delivered(contestBody);
    await setStatus(deliverables[0]!.id, { status: 'approved' });
    expectError(await selectWinner(deliverables[0]!.id), 'DELIVERABLE_NOT_PENDING_REVIEW', 404);
  });

  it('winner: not a contest project -> PROJECT_NOT_CONTEST 422 (sandbox choice)', async () => {
    const { id } = await deliverableIn('reviewable');
    expectError(await selectWinner(id), 'PROJECT_NOT_CONTEST', 422);
  });
});

describe('simulated creatives (sandbox choices)', () => {
  it('nothing is delivered before the work arrives; voice over gives one deliverable per script part', async () => {
    const id = await newProject();
    expect((await req('GET', `/deliverables/project/${id}`)).body).toEqual([]);
    await req('POST', '/_sandbox/deliver', { projectId: id });
    const list = (await req('GET', `/deliverables/project/${id}`)).body;
    expect(list.map((d: { name: string }) => d.name)).toEqual(['1', '2']);
    for (const d of list) {
      expect(d.status).toBe('reviewable');
      expect(d.urls.wav).toMatch(new RegExp(`^${sb.url}/media/[A-Za-z0-9_-]+\\.wav$`));
      expect(d.urls.mp3).toMatch(/\.mp3$/);
    }
  });

  it('audio ads: scriptwriting (pdf + content), voice over and post production (wav + mp3)', async () => {
    const { deliverables } = await delivered(audioAdsBody());
    const full = await Promise.all(
      deliverables.map(async (d) => (await req('GET', `/deliverables/${d.id}`)).body),
    );
    expect(full.map((d) => d.serviceSubCategory)).toEqual(['scriptwriting', 'voice_over', 'post-production']);
    expect(full[0].urls.pdf).toMatch(/\.pdf$/);
    expect(full[0].urls.content.length).toBeGreaterThan(20);
    for (const d of full.slice(1)) expect(Object.keys(d.urls).sort()).toEqual(['mp3', 'wav']);
  });

  it('revision -> a new version with its instructions, then reviewable again', async () => {
    const { id } = await deliverableIn('reviewable');
    await revise(id, { instructions: 'More energy' });
    expect((await req('POST', '/_sandbox/deliver', {})).body.delivered).toBeGreaterThanOrEqual(1);
    const v = await req('GET', `/revisions/${id}/versions`);
    expect(v.status).toBe(200);
    expect(v.body.status).toBe('reviewable');
    expect(v.body.versions).toHaveLength(2);
    expect(v.body.versions[0].instructions).toBeNull();
    expect(v.body.versions[1].instructions).toBe('More energy');
    expect(v.body.versions[1].urls.wav).not.toBe(v.body.versions[0].urls.wav);
  });

  it('versions say when a revision was asked for and when the status last changed (sandbox record)', async () => {
    const { id } = await deliverableIn('reviewable');
    const before = Date.now() - 2000;
    await revise(id, { instructions: 'Slower at [0:02.1]' });
    const asked = await req('GET', `/revisions/${id}/versions`);
    expect(asked.body.status).toBe('revisionRequested');
    const askedAt = Date.parse(`${asked.body.statusChanged as string}Z`);
    expect(askedAt).toBeGreaterThanOrEqual(before);
    await req('POST', '/_sandbox/deliver', {});
    await setStatus(id, { status: 'approved' });
    const v = await req('GET', `/revisions/${id}/versions`);
    expect(v.body.status).toBe('approved');
    expect(v.body.versions[0].requested).toBeUndefined();
    expect(v.body.versions[1].requested).toBe(asked.body.statusChanged);
    expect(Date.parse(`${v.body.statusChanged as string}Z`)).toBeGreaterThanOrEqual(askedAt);
    // The create answer stays as the spec shows it: no sandbox-only date in it.
    const { id: other } = await deliverableIn('reviewable');
    const created = await revise(other, { instructions: 'Again' });
    expect(created.body).not.toHaveProperty('requested');
  });

  it('reject -> a replacement deliverable arrives (new talent, new gender and age when asked)', async () => {
    const { projectId, id } = await deliverableIn('reviewable');
    await setStatus(id, {
      status: 'rejected',
      reasonCode: 'genderAndAgeChange',
      newGenderAndAge: 'seniorFemale',
    });
    await req('POST', '/_sandbox/deliver', { projectId });
    const list = (await req('GET', `/deliverables/project/${projectId}`)).body as Array<{
      id: string;
      name: string;
      status: string;
    }>;
    expect(list).toHaveLength(3);
    expect(list[2]).toMatchObject({ name: '1', status: 'reviewable' });
  });

  it('cancel -> pending deliverables rejected, approved ones kept, nothing more arrives', async () => {
    const { projectId, deliverables } = await delivered();
    await setStatus(deliverables[0]!.id, { status: 'approved' });
    await req('PUT', `/projects/${projectId}`, { status: 'canceled' });
    const list = (await req('GET', `/deliverables/project/${projectId}`)).body;
    expect(list.map((d: { status: string }) => d.status)).toEqual(['approved', 'rejected']);
    expect((await req('POST', '/_sandbox/deliver', { projectId })).body.delivered).toBe(0);
    expectError(await revise(deliverables[0]!.id, { instructions: 'x' }), 'DELIVERABLE_REJECTED', 400, 404);
  });

  it('50 concurrent approvals of one deliverable -> exactly one 200', async () => {
    const { id } = await deliverableIn('reviewable');
    const results = await Promise.all(
      Array.from({ length: 50 }, () => setStatus(id, { status: 'approved' })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200))
      expect(r.body.type).toBe('DELIVERABLE_ALREADY_APPROVED');
  });

  it('50 concurrent approve-alls of one project -> exactly one 200', async () => {
    const { projectId } = await delivered();
    const results = await Promise.all(Array.from({ length: 50 }, () => approveAll(projectId)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
  });
});

describe('delivery timing and reset', () => {
  it('with delivery = N ms, work arrives on its own after the delay (first delivery and revisions)', async () => {
    const timed = await startSandbox({
      delivery: 150,
      services: fakeServices(mkdtempSync(join(tmpdir(), 'sbx-timed-'))),
      catalog: fakeCatalog(),
    });
    try {
      const t = timed.tokens.full;
      const id = (await call(timed, 'POST', '/projects', { token: t, body: voiceOverBody() })).body.id;
      expect((await call(timed, 'GET', `/deliverables/project/${id}`, { token: t })).body).toEqual([]);
      const waitFor = async (check: () => Promise<boolean>) => {
        for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 50));
        expect(await check()).toBe(true);
      };
      await waitFor(
        async () => (await call(timed, 'GET', `/deliverables/project/${id}`, { token: t })).body.length === 2,
      );
      const d = (await call(timed, 'GET', `/deliverables/project/${id}`, { token: t })).body[0].id;
      await call(timed, 'POST', `/revisions/${d}`, { token: t, body: { instructions: 'Again' } });
      await waitFor(
        async () =>
          (await call(timed, 'GET', `/deliverables/${d}`, { token: t })).body.status === 'reviewable',
      );
    } finally {
      await timed.close();
    }
  });

  it('POST /_sandbox/reset wipes projects but keeps the tokens', async () => {
    const own = await startSandbox({
      services: fakeServices(mkdtempSync(join(tmpdir(), 'sbx-reset-'))),
      catalog: fakeCatalog(),
    });
    try {
      const t = own.tokens.full;
      await call(own, 'POST', '/projects', { token: t, body: voiceOverBody() });
      expect((await call(own, 'GET', '/projects', { token: t })).body.total).toBe(1);
      expect((await call(own, 'POST', '/_sandbox/reset', { token: t, body: {} })).status).toBe(200);
      expect((await call(own, 'GET', '/projects', { token: t })).body).toEqual({
        page: 1,
        total: 0,
        projects: [],
      });
    } finally {
      await own.close();
    }
  });
});
