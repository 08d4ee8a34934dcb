/**
 * The API client against the real sandbox on 127.0.0.1: every method, the error codes it can
 * reach with both statuses intact, retries and reconciliation under injected faults.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  isServiceError,
  statusesFor,
  type CreateProjectBodyInput,
  type Operation,
} from '../../../shared/api';
import { createSandbox, type Sandbox } from '../../sandbox/server';
import { createApiClient, type ApiClient, type ApiClientOptions } from './client';
import { ApiClientError } from './errors';
import type { RetryInfo } from './retry';
import {
  HOSTILE_IDS,
  isSpecRequest,
  sandboxControl,
  startLossyProxy,
  type LossyProxy,
} from './test-support/service-stand-ins';

let sandbox: Sandbox;
let proxy: LossyProxy;
let client: ApiClient;
let retries: RetryInfo[];

const noWait = { sleep: async () => {}, random: () => 0 };

function clientFor(baseUrl: string, token: string | null, extra: Partial<ApiClientOptions> = {}): ApiClient {
  return createApiClient({
    baseUrl,
    getToken: async () => token,
    timeoutMs: 5000,
    retry: { ...noWait, onRetry: (info) => retries.push(info) },
    ...extra,
  });
}

beforeAll(async () => {
  sandbox = await createSandbox({ delivery: 'manual' });
  proxy = await startLossyProxy(sandbox.url);
  client = clientFor(sandbox.url, sandbox.tokens.full);
});
afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
});
beforeEach(() => {
  retries = [];
});

let counter = 0;
function voiceOver(overrides: Record<string, unknown> = {}): CreateProjectBodyInput {
  counter++;
  return {
    title: `Client test ${counter} ${Date.now()}`,
    mainService: 'voice_over',
    services: [
      {
        subCategory: 'voice_over',
        language: 'eng-us',
        genderAndAge: 'youngAdultFemale',
        script: 'Fresh bread every morning at the corner bakery.',
      },
    ],
    ...overrides,
  } as CreateProjectBodyInput;
}

/** A delivered project: its id and deliverable ids. */
async function delivered(overrides: Record<string, unknown> = {}) {
  const project = await client.createProject(voiceOver(overrides));
  await sandbox.deliverNow(project.id);
  const deliverables = await client.listDeliverables(project.id);
  return { project, deliverables, ids: deliverables.map((d) => d.id) };
}

/** The rejection, with both statuses. */
/** Cancels the project through `api` and checks the answer: canceled, with the reason code sent. */
async function expectCanceled(api: ApiClient, projectId: string, reason: string, reasonCode: string) {
  const canceled = await api.cancelProject(projectId, { reason, reasonCode });
  expect(canceled).toMatchObject({ id: projectId, status: 'canceled', reasonCode });
  return canceled;
}

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  const e = error as { type?: string; status?: number; bodyStatus?: number; message?: string };
  return { error, type: e.type, status: e.status, bodyStatus: e.bodyStatus, message: e.message };
}

async function expectServiceError(promise: Promise<unknown>, type: string, operation: Operation) {
  const f = await failure(promise);
  expect(isServiceError(f.error), `${type}: ${String(f.error)}`).toBe(true);
  const { http, body } = statusesFor(type as never, operation);
  expect({ type: f.type, status: f.status, bodyStatus: f.bodyStatus }).toEqual({
    type,
    status: http,
    bodyStatus: body,
  });
  expect(f.message).toBeTruthy();
  return f;
}

describe('every endpoint', () => {
  it('creates, reads, lists and finds projects', async () => {
    const body = voiceOver();
    const created = await client.createProject(body);
    expect(created.status).toBe('paid');
    expect(created.title).toBe(body.title);
    expect(created.services[0]).toMatchObject({
      subCategory: 'voice_over',
      status: 'paid',
      unitType: 'words',
    });
    // The plain-string script went out in the array form.
    expect(Array.isArray(created.services[0]!.script)).toBe(true);
    expect(created.remarks).toBe('');

    const read = await client.getProject(created.id);
    expect(read.id).toBe(created.id);

    const list = await client.listProjects({ titleQuery: body.title, pageSize: 5 });
    expect(list.projects.map((p) => p.id)).toEqual([created.id]);
    expect(list.page).toBe(1);

    expect((await client.findRecentProject(body.title))?.id).toBe(created.id);
    expect(await client.findRecentProject(`${body.title} (never made)`)).toBeNull();
  });

  it('finds the newest of several projects with the same title', async () => {
    const body = voiceOver();
    await client.createProject(body);
    await new Promise((r) => setTimeout(r, 1100)); // created has one-second resolution
    const second = await client.createProject(body);
    expect((await client.findRecentProject(body.title))?.id).toBe(second.id);
  });

  it('lists, reads, approves, rejects, revises and versions deliverables', async () => {
    const script = [
      { part001: 'First part of the read.' },
      { part002: 'Second part.' },
      { part003: 'Third.' },
    ];
    const { project, deliverables } = await delivered({
      services: [{ subCategory: 'voice_over', language: 'eng-us', genderAndAge: 'seniorMale', script }],
    });
    expect(deliverables).toHaveLength(3);
    const [a, b, c] = deliverables;
    expect(a!.status).toBe('reviewable');
    expect(a!.urls.wav).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\//);

    expect((await client.getDeliverable(a!.id)).id).toBe(a!.id);
    expect(await client.approveDeliverable(a!.id)).toMatchObject({ id: a!.id, status: 'approved' });

    const rejected = await client.rejectDeliverable(b!.id, {
      reason: 'Wrong voice',
      reasonCode: 'genderAndAgeChange',
      newGenderAndAge: 'seniorFemale',
    });
    expect(rejected).toMatchObject({
      id: b!.id,
      status: 'rejected',
      reasonCode: 'genderAndAgeChange',
      newGenderAndAge: 'seniorFemale',
    });

    const revision = await client.createRevision(c!.id, {
      instructions: 'Slower, please.',
      revisionCode: 'quality_issues',
    });
    expect(revision).toMatchObject({
      id: c!.id,
      status: 'revisionRequested',
      instructions: 'Slower, please.',
      checkTalent: false,
    });
    await sandbox.deliverNow(project.id);
    const versions = await client.listVersions(c!.id);
    expect(versions.versions).toHaveLength(2);
    expect(versions.versions[1]!.instructions).toBe('Slower, please.');
  });

  it('approves all pending deliverables and selects a contest winner', async () => {
    const { project } = await delivered();
    const approved = await client.approveAll(project.id);
    expect(approved.length).toBeGreaterThan(0);
    expect(approved.every((d) => d.status === 'approved')).toBe(true);

    const contest = await delivered({ fulfillmentType: 'contest' });
    expect(contest.ids.length).toBeGreaterThan(1);
    expect(await client.selectWinner(contest.ids[0]!)).toMatchObject({ status: 'winner' });
  });

  it('cancels a project', async () => {
    const project = await client.createProject(voiceOver());
    await expectCanceled(client, project.id, 'Duplicate', 'no_longer_needed.duplicated');
  });

  it('searches samples, quotes, and reads categories, attributes, values and tracks', async () => {
    const found = await client.search({ categoryId: 'voice_over', language: 'eng-us', pageSize: 5 });
    expect(found.samples.length).toBeGreaterThan(0);
    expect(found.samples.length).toBeLessThanOrEqual(5);

    const quote = await client.quote({
      mainService: 'voice_over',
      services: [
        { subCategory: 'voice_over', language: 'eng-us', genderAndAge: 'child', script: 'One two three.' },
      ],
    });
    expect(quote.price).toBeGreaterThan(0);

    const categories = await client.listCategories();
    expect(categories.map((c) => c.id)).toEqual(expect.arrayContaining(['voice_over', 'audio_ads']));
    const attributes = await client.getAttributes('voice_over');
    expect(attributes.map((a) => a.id)).toContain('language');
    const languages = await client.getAttributeValues('voice_over', 'language');
    expect(languages.map((v) => v.id)).toContain('eng-us');

    const tracks = await client.listTracks();
    expect(tracks.length).toBeGreaterThan(0);
    const mood = await client.listTracks({ typeId: 'mood' });
    expect(mood.length).toBeGreaterThan(0);
    expect(mood.every((t) => t.type === 'mood')).toBe(true);
    expect((await client.getTrack(tracks[0]!.id)).id).toBe(tracks[0]!.id);
  });

  it('signs in without a token and the token works', async () => {
    const anonymous = clientFor(sandbox.url, null);
    const { token } = await anonymous.signIn('producer@sandbox.test', 'sandbox');
    expect(token).toBeTruthy();
    const list = await clientFor(sandbox.url, token).listProjects({ pageSize: 1 });
    expect(list.total).toBeGreaterThan(0);
  });

  it('encodes ids as path segments', async () => {
    const f = await failure(client.getProject('a b:c@d+e'));
    expect(f.type).toBe('PROJECT_NO_EXIST');
  });
});

describe('ids stay in their path segment: the token never reaches another endpoint (issue 13, item 7)', () => {
  const calls = (id: string): Array<() => Promise<unknown>> => [
    () => client.getProject(id),
    () => client.cancelProject(id, { reason: '', reasonCode: 'no_longer_needed' }),
    () => client.listDeliverables(id),
    () => client.approveAll(id),
    () => client.getDeliverable(id),
    () => client.approveDeliverable(id),
    () => client.rejectDeliverable(id),
    () => client.selectWinner(id),
    () => client.listVersions(id),
    () => client.createRevision(id, { instructions: 'x' }),
    () => client.getAttributes(id),
    () => client.getAttributeValues('voice_over', id),
    () => client.getAttributeValues(id, 'language'),
    () => client.getTrack(id),
  ];
  let viaProxy: ApiClient;
  beforeAll(() => {
    viaProxy = clientFor(proxy.url, sandbox.tokens.full);
  });
  // Rebinds `client` in `calls` to the recording proxy for these tests only.
  const through = async (run: () => Promise<void>) => {
    const direct = client;
    client = viaProxy;
    try {
      await run();
    } finally {
      client = direct;
    }
  };

  it.each(HOSTILE_IDS.map((id) => [JSON.stringify(id), id]))(
    'id %s answers VALIDATION_ERROR from every method and sends nothing',
    async (_label, id) => {
      await through(async () => {
        const before = proxy.forwarded.length;
        for (const call of calls(id)) {
          const f = await failure(call());
          expect(f.type, String(f.error)).toBe('VALIDATION_ERROR');
        }
        expect(proxy.forwarded.slice(before)).toEqual([]);
      });
    },
  );

  it('the parsed URL is checked too: a base URL whose query or fragment would swallow the path sends nothing', async () => {
    const before = proxy.forwarded.length;
    for (const base of [`${proxy.url}/?x=1`, `${proxy.url}/#top`, `${proxy.url}/api?`]) {
      const odd = clientFor(base, sandbox.tokens.full);
      for (const run of [() => odd.getProject('p1'), () => odd.listProjects(), () => odd.approveAll('p1')]) {
        expect((await failure(run())).type, base).toBe('VALIDATION_ERROR');
      }
    }
    expect(proxy.forwarded.slice(before)).toEqual([]);
  });

  it('well-formed unknown ids (prototype keys, odd characters) reach only their own endpoint', async () => {
    await through(async () => {
      const before = proxy.forwarded.length;
      for (const id of ['__proto__', 'constructor', 'toString', '...', 'a b', 'é😀', "a'(b)*!~"]) {
        for (const call of calls(id)) {
          const f = await failure(call());
          expect(f.type, `${id}: ${String(f.error)}`).not.toBe('VALIDATION_ERROR');
          expect(f.error).not.toBeInstanceOf(TypeError);
          expect(f.error).not.toBeInstanceOf(URIError);
        }
      }
      const sent = proxy.forwarded.slice(before);
      expect(sent.length).toBeGreaterThan(0);
      expect(sent.filter((request) => !isSpecRequest(request))).toEqual([]);
    });
  });
});

describe('service errors arrive with type, heading status and body status', () => {
  it('project errors', async () => {
    await expectServiceError(client.getProject('no-such-project'), 'PROJECT_NO_EXIST', 'getProject');
    await expectServiceError(
      client.cancelProject('no-such-project', { reason: '', reasonCode: 'no_longer_needed' }),
      'PROJECT_NO_EXIST',
      'cancelProject',
    );
    const project = await client.createProject(voiceOver());
    await client.cancelProject(project.id, { reason: '', reasonCode: 'no_longer_needed' });
    const f = await expectServiceError(
      client.cancelProject(project.id, { reason: '', reasonCode: 'no_longer_needed' }),
      'PROJECT_ALREADY_CANCELED',
      'cancelProject',
    );
    expect([f.status, f.bodyStatus]).toEqual([400, 404]);
    await expectServiceError(
      client.listDeliverables('no-such-project'),
      'PROJECT_NO_EXIST',
      'listDeliverables',
    );
    await expectServiceError(client.approveAll('no-such-project'), 'PROJECT_NO_EXIST', 'approveAll');
  });

  it('create validation (422)', async () => {
    await expectServiceError(
      client.createProject({ ...voiceOver(), title: 'x'.repeat(101) }),
      'TITLE_TOO_LONG',
      'createProject',
    );
    const { title: _t, ...untitled } = voiceOver();
    await expectServiceError(client.createProject(untitled), 'TITLE_REQUIRED', 'createProject');
    await expectServiceError(
      client.createProject({ ...voiceOver(), remarks: 5 }),
      'REMARKS_WRONG_TYPE',
      'createProject',
    );
    await expectServiceError(
      client.createProject({ ...voiceOver(), mainService: 'podcast' }),
      'MAINSERVICE_NOT_AUTHORIZED',
      'createProject',
    );
    await expectServiceError(
      client.createProject({
        ...voiceOver(),
        services: [{ subCategory: 'voice_over', language: 'eng-us', genderAndAge: 'child' }],
      }),
      'SCRIPT_REQUIRED',
      'createProject',
    );
  });

  it('deliverable state errors', async () => {
    const { ids } = await delivered({
      services: [
        {
          subCategory: 'voice_over',
          language: 'eng-us',
          genderAndAge: 'child',
          script: [{ part001: 'a b' }, { part002: 'c d' }, { part003: 'e f' }],
        },
      ],
    });
    const [a, b, c] = ids as [string, string, string];
    await client.approveDeliverable(a);
    await expectServiceError(
      client.approveDeliverable(a),
      'DELIVERABLE_ALREADY_APPROVED',
      'approveDeliverable',
    );
    await client.createRevision(c, { instructions: 'Again' });
    await expectServiceError(
      client.approveDeliverable(c),
      'DELIVERABLE_NOT_PENDING_REVIEW',
      'approveDeliverable',
    );
    // Sandbox choice: a winner outside a contest project has its own code.
    expect((await failure(client.selectWinner(b))).type).toBe('PROJECT_NOT_CONTEST');
    await client.rejectDeliverable(b, { reasonCode: 'wrong_tone' });
    const rejected = await expectServiceError(
      client.rejectDeliverable(b, {}),
      'DELIVERABLE_ALREADY_REJECTED',
      'rejectDeliverable',
    );
    expect([rejected.status, rejected.bodyStatus]).toEqual([400, 404]);
    await expectServiceError(
      client.createRevision(b, { instructions: 'x' }),
      'DELIVERABLE_REJECTED',
      'createRevision',
    );
    await expectServiceError(
      client.approveDeliverable('no-such-deliverable'),
      'DELIVERABLE_NO_EXIST',
      'approveDeliverable',
    );
    await expectServiceError(
      client.getDeliverable('no-such-deliverable'),
      'DELIVERABLE_NO_EXIST',
      'getDeliverable',
    );
    await expectServiceError(
      client.listVersions('no-such-deliverable'),
      'DELIVERABLE_NO_EXIST',
      'listVersions',
    );
    // An empty id would send `PUT /deliverables/`, not the endpoint: refused before sending (issue 13, item 7).
    expect((await failure(client.approveDeliverable(''))).type).toBe('VALIDATION_ERROR');
  });

  it('revision errors, talent away and approve-all states', async () => {
    const { project, ids } = await delivered();
    const [a] = ids as [string];
    await sandboxControl(
      sandbox.url,
      sandbox.tokens.full,
      'POST',
      `/_sandbox/deliverables/${a}/talent-away`,
      {
        until: '2030-05-01',
      },
    );
    const away = await expectServiceError(
      client.createRevision(a, { instructions: 'x', checkTalent: true }),
      'TALENT_ON_VACATION',
      'createRevision',
    );
    expect(away.message).toContain('2030-05-01');
    await client.createRevision(a, { instructions: 'x' });
    await expectServiceError(
      client.createRevision(a, { instructions: 'y' }),
      'DELIVERABLE_PENDING_REVISION',
      'createRevision',
    );
    await expectServiceError(client.approveAll(project.id), 'PROJECT_NOT_PENDING_APPROVAL', 'approveAll');

    const other = await delivered();
    await client.approveAll(other.project.id);
    const f = await expectServiceError(
      client.approveAll(other.project.id),
      'PROJECT_ALREADY_APPROVED',
      'approveAll',
    );
    expect([f.status, f.bodyStatus]).toEqual([400, 404]);
  });

  it('winner already selected (404 / 400)', async () => {
    const { ids } = await delivered({ fulfillmentType: 'contest' });
    await client.selectWinner(ids[0]!);
    const f = await expectServiceError(
      client.selectWinner(ids[1]!),
      'WINNER_ALREADY_SELECTED',
      'selectWinner',
    );
    expect([f.status, f.bodyStatus]).toEqual([404, 400]);
  });

  it('search errors and scopes', async () => {
    await expectServiceError(client.search({ categoryId: 'audio_ads' }), 'SEARCH_NOT_AVAILABLE', 'search');
    await expectServiceError(
      client.search({ categoryId: 'voice_over', unitType: 'parsecs' }),
      'UNITTYPE_NOT_ALLOWED',
      'search',
    );
    await expectServiceError(
      client.search({ categoryId: 'voice_over', minimumPrice: 1e8 }),
      'SEARCH_NOT_RESULTS',
      'search',
    );
    const noScopes = clientFor(sandbox.url, sandbox.tokens.noScopes);
    await expectServiceError(noScopes.search({ categoryId: 'voice_over' }), 'FORBIDDEN', 'search');
  });

  it('FORBIDDEN for a missing token and for another user’s project', async () => {
    await expectServiceError(clientFor(sandbox.url, null).listProjects(), 'FORBIDDEN', 'listProjects');
    const project = await client.createProject(voiceOver());
    await expectServiceError(
      clientFor(sandbox.url, sandbox.tokens.otherUser).getProject(project.id),
      'FORBIDDEN',
      'getProject',
    );
  });

  it('sign-in errors', async () => {
    const anonymous = clientFor(sandbox.url, null);
    await expectServiceError(anonymous.signIn('producer@sandbox.test', 'wrong'), 'USER_NOT_FOUND', 'signIn');
    await expectServiceError(anonymous.signIn('', 'x'), 'EMAIL_REQUIRED', 'signIn');
    await expectServiceError(anonymous.signIn('producer@sandbox.test', ''), 'PASSWORD_REQUIRED', 'signIn');
  });

  it('catalog errors', async () => {
    await expectServiceError(
      client.getAttributeValues('voice_over', 'noSuchAttribute'),
      'ATTRIBUTE_NOT_CATEGORY',
      'getAttributeValues',
    );
    await expectServiceError(client.getAttributes('podcast'), 'CATEGORY_NOT_AUTHORIZED', 'getAttributes');
    await expectServiceError(client.getTrack(999_999), 'TRACK_NO_EXIST', 'getTrack');
  });

  it('500 codes from injected errors once retries are spent', async () => {
    await sandboxControl(sandbox.url, sandbox.tokens.full, 'POST', '/_sandbox/faults', {
      errorRate: 1,
      pathPrefix: '/projects',
    });
    try {
      await expectServiceError(client.getProject('any'), 'NOT_PROJECT_INFO', 'getProject');
      expect(retries.map((r) => r.reason)).toEqual(['HTTP_500', 'HTTP_500', 'HTTP_500']);
      retries = [];
      await expectServiceError(client.createProject(voiceOver()), 'PROJECT_NOT_CREATED', 'createProject');
      expect(retries).toEqual([]); // a write that got an answer is never sent again
    } finally {
      await sandboxControl(sandbox.url, sandbox.tokens.full, 'DELETE', '/_sandbox/faults');
    }
  });
});

describe('network failures', () => {
  it('NETWORK_UNREACHABLE when nothing listens, after the GET retries', async () => {
    const closed = await startLossyProxy(sandbox.url);
    const url = closed.url;
    await closed.close();
    const f = await failure(clientFor(url, 'x').listProjects());
    expect(f.error).toBeInstanceOf(ApiClientError);
    expect(f).toMatchObject({ type: 'NETWORK_UNREACHABLE', status: 0 });
    expect(retries).toHaveLength(3);
    // A create that could not even connect was certainly not made: no "outcome unknown".
    retries = [];
    expect((await failure(clientFor(url, 'x').createProject(voiceOver()))).type).toBe('NETWORK_UNREACHABLE');
  });

  it('TIMEOUT when the service is slower than the limit', async () => {
    await sandboxControl(sandbox.url, sandbox.tokens.full, 'POST', '/_sandbox/faults', {
      latencyMs: 800,
      pathPrefix: '/categories',
    });
    try {
      const slow = clientFor(sandbox.url, sandbox.tokens.full, {
        timeoutMs: 200,
        retry: { ...noWait, retries: 1 },
      });
      const f = await failure(slow.listCategories());
      expect(f).toMatchObject({ type: 'TIMEOUT', status: 0 });
      expect(f.message).toMatch(/did not answer/);
    } finally {
      await sandboxControl(sandbox.url, sandbox.tokens.full, 'DELETE', '/_sandbox/faults');
    }
  });

  it('GETs retry through injected 5xx and succeed', async () => {
    const project = await client.createProject(voiceOver());
    await sandboxControl(sandbox.url, sandbox.tokens.full, 'POST', '/_sandbox/faults', {
      errorRate: 1,
      pathPrefix: '/projects',
    });
    const healing = clientFor(sandbox.url, sandbox.tokens.full, {
      retry: {
        ...noWait,
        onRetry: (info) => {
          retries.push(info);
          // The fault clears while the client waits, as an outage would.
          if (retries.length === 2)
            void sandboxControl(sandbox.url, sandbox.tokens.full, 'DELETE', '/_sandbox/faults');
        },
        sleep: () => new Promise((r) => setTimeout(r, 50)),
      },
    });
    expect((await healing.getProject(project.id)).id).toBe(project.id);
    expect(retries.map((r) => [r.attempt, r.reason])).toEqual([
      [1, 'HTTP_500'],
      [2, 'HTTP_500'],
    ]);
  });
});

describe('writes after a lost answer are reconciled, never done twice', () => {
  let lossy: ApiClient;
  beforeAll(() => {
    lossy = clientFor(proxy.url, sandbox.tokens.full);
  });

  it('approve: the retry meets DELIVERABLE_ALREADY_APPROVED and returns the deliverable as ours', async () => {
    const { ids } = await delivered();
    proxy.drop('PUT', `/deliverables/${ids[0]}`, 'after-forward');
    const result = await lossy.approveDeliverable(ids[0]!);
    expect(result).toMatchObject({ id: ids[0], status: 'approved' });
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ method: 'PUT', reason: 'NETWORK_UNREACHABLE' });
  });

  it("once(): a write's lost answer is not sent again (the decisions store reads first); reads still retry", async () => {
    const { ids } = await delivered();
    proxy.drop('PUT', `/deliverables/${ids[0]}`, 'after-forward');
    const before = proxy.forwarded.length;
    const lost = await failure(lossy.once!().approveDeliverable(ids[0]!));
    expect(lost.type).toBe('NETWORK_UNREACHABLE');
    expect((lost.error as ApiClientError).details).toMatchObject({ maybeDelivered: true });
    expect(proxy.forwarded.slice(before).filter((r) => r.startsWith('PUT'))).toHaveLength(1);
    proxy.drop('GET', `/deliverables/${ids[0]}`, 'before-forward');
    expect(await lossy.once!().getDeliverable(ids[0]!)).toMatchObject({ status: 'approved' });
  });

  it('approve: a reset before the request arrived is simply sent again', async () => {
    const { ids } = await delivered();
    proxy.drop('PUT', `/deliverables/${ids[0]}`, 'before-forward');
    const before = proxy.forwarded.length;
    expect(await lossy.approveDeliverable(ids[0]!)).toMatchObject({ status: 'approved' });
    expect(proxy.forwarded.slice(before).filter((r) => r.startsWith('PUT'))).toHaveLength(1);
  });

  it('approve: without a lost answer, ALREADY_APPROVED stays an error', async () => {
    const { ids } = await delivered();
    await client.approveDeliverable(ids[0]!);
    expect((await failure(lossy.approveDeliverable(ids[0]!))).type).toBe('DELIVERABLE_ALREADY_APPROVED');
  });

  it('reject, revision and approve-all reconcile', async () => {
    const { project, ids } = await delivered({
      services: [
        {
          subCategory: 'voice_over',
          language: 'eng-us',
          genderAndAge: 'child',
          script: [{ part001: 'a' }, { part002: 'b' }, { part003: 'c' }],
        },
      ],
    });
    const [a, b] = ids as [string, string];
    proxy.drop('PUT', `/deliverables/${a}`, 'after-forward');
    expect(await lossy.rejectDeliverable(a, { reasonCode: 'wrong_tone' })).toMatchObject({
      id: a,
      status: 'rejected',
      reasonCode: 'wrong_tone',
    });

    // A revision is never resent by the client (a fee): its lost answer is an error marked maybe-delivered, and
    // the decisions store reads the take before anything goes again.
    proxy.drop('POST', `/revisions/${b}`, 'after-forward');
    const posts = () => proxy.forwarded.filter((r) => r === `POST /revisions/${b}`).length;
    const lost = await failure(lossy.createRevision(b, { instructions: 'Warmer' }));
    expect(lost.type).toBe('NETWORK_UNREACHABLE');
    expect((lost.error as ApiClientError).details).toMatchObject({ maybeDelivered: true });
    expect(posts()).toBe(1);
    expect((await client.getDeliverable(b)).status).toBe('revisionRequested');
    const versionsBefore = (await client.listVersions(b)).versions.length;
    await sandbox.deliverNow(project.id);
    expect((await client.listVersions(b)).versions).toHaveLength(versionsBefore + 1); // one revision, not two

    const whole = await delivered();
    proxy.drop('PUT', `/deliverables/project/${whole.project.id}`, 'after-forward');
    const all = await lossy.approveAll(whole.project.id);
    expect(all.map((d) => d.status)).toEqual(whole.ids.map(() => 'approved'));
    expect(retries).toHaveLength(2);
  });

  it('cancel reconciles with PROJECT_ALREADY_CANCELED', async () => {
    const project = await client.createProject(voiceOver());
    proxy.drop('PUT', `/projects/${project.id}`, 'after-forward');
    const canceled = await expectCanceled(lossy, project.id, 'Test', 'no_longer_needed.test_project');
    expect(canceled).not.toHaveProperty('services');
  });

  it('winner reconciles only when that deliverable is now the winner', async () => {
    const contest = await delivered({ fulfillmentType: 'contest' });
    proxy.drop('PUT', `/deliverables/${contest.ids[0]}`, 'after-forward');
    expect(await lossy.selectWinner(contest.ids[0]!)).toMatchObject({ id: contest.ids[0], status: 'winner' });

    const second = await delivered({ fulfillmentType: 'contest' });
    await client.selectWinner(second.ids[0]!);
    proxy.drop('PUT', `/deliverables/${second.ids[1]}`, 'after-forward');
    const f = await failure(lossy.selectWinner(second.ids[1]!));
    expect(f.type).toBe('WINNER_ALREADY_SELECTED');
  });

  it('create is never resent: CREATE_OUTCOME_UNKNOWN, then findRecentProject finds the one project', async () => {
    const body = voiceOver();
    proxy.drop('POST', '/projects', 'after-forward');
    const f = await failure(lossy.createProject(body));
    expect(f.error).toBeInstanceOf(ApiClientError);
    expect(f.type).toBe('CREATE_OUTCOME_UNKNOWN');
    const details = (f.error as ApiClientError).details;
    expect(details).toMatchObject({ title: body.title, cause: 'NETWORK_UNREACHABLE' });
    expect(retries).toEqual([]);

    const matches = await client.listProjects({ titleQuery: body.title });
    expect(matches.projects.filter((p) => p.title === body.title)).toHaveLength(1);
    const found = await lossy.findRecentProject(body.title, { since: details['sentAt'] as string });
    expect(found?.title).toBe(body.title);
    expect(found?.id).toBe(matches.projects[0]!.id);
  });

  it('create that timed out before headers is also CREATE_OUTCOME_UNKNOWN', async () => {
    await sandboxControl(sandbox.url, sandbox.tokens.full, 'POST', '/_sandbox/faults', {
      latencyMs: 600,
      pathPrefix: '/projects',
    });
    try {
      const body = voiceOver();
      const slow = clientFor(sandbox.url, sandbox.tokens.full, { timeoutMs: 150 });
      const f = await failure(slow.createProject(body));
      expect(f.type).toBe('CREATE_OUTCOME_UNKNOWN');
      expect((f.error as ApiClientError).details).toMatchObject({ cause: 'TIMEOUT' });
      expect(retries).toEqual([]);
    } finally {
      await sandboxControl(sandbox.url, sandbox.tokens.full, 'DELETE', '/_sandbox/faults');
    }
  });
});
