/**
 * The live-shaped corpus (live-shapes.corpus.ts) replayed through the client from a tiny node:http server on
 * 127.0.0.1: what the client reads from each answer, the items it skips (and logs), the create whose answer
 * cannot be read, and the winner refusals.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readAnswer, DeliverablesResponse, ListProjectsResponse, ProjectListItem } from '../../../shared/api';
import { createApiClient, type ApiClient, type UnreadableReport } from './client';
import { ApiClientError } from './errors';
import { LIVE_CORPUS, WINNER_REFUSALS, type CorpusAnswer } from './test-support/live-shapes.corpus';
import { notFound, startLocalService } from './test-support/service-stand-ins';

let service: Awaited<ReturnType<typeof startLocalService>>;
let baseUrl: string;
let answers: Map<string, CorpusAnswer>;
let seen: string[];
let reports: UnreadableReport[];

beforeAll(async () => {
  service = await startLocalService((req, res) => {
    req.resume();
    req.on('end', () => {
      const route = `${req.method} ${req.url!.split('?')[0]}`;
      seen.push(`${req.method} ${req.url}`);
      const answer = answers.get(route);
      if (!answer) return notFound(res);
      const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
      res.end(text);
    });
  });
  baseUrl = service.baseUrl;
});
afterAll(() => service.close());
beforeEach(() => {
  answers = new Map();
  seen = [];
  reports = [];
});

function serve(...list: CorpusAnswer[]): ApiClient {
  for (const a of list) answers.set(a.route, a);
  return createApiClient({
    baseUrl,
    getToken: async () => 'tok-live-123',
    retry: { sleep: async () => {}, random: () => 0 },
    onUnreadable: (report) => reports.push(report),
  });
}

describe('the corpus reads', () => {
  it('documentation examples: categories, attributes, values, tracks, cancel, quote, sign-in, revision', async () => {
    const c = serve(
      LIVE_CORPUS.categories,
      LIVE_CORPUS.attributes,
      LIVE_CORPUS.attributeValues,
      LIVE_CORPUS.tracks,
      LIVE_CORPUS.cancel,
      LIVE_CORPUS.quote,
      LIVE_CORPUS.signIn,
      LIVE_CORPUS.revision,
    );
    expect((await c.listCategories())[0]?.subCategories[0]?.formats).toEqual(['mp3', 'wav']);
    expect((await c.getAttributes('voice_over'))[0]).toMatchObject({
      id: 'language',
      defaultValue: 'eng-us',
    });
    const values = await c.getAttributeValues('voice_over', 'language');
    expect(values.map((v) => v.id)).toEqual(['eng-us']);
    const tracks = await c.listTracks();
    expect(tracks.map((t) => t.id)).toEqual([20]);
    const canceled = await c.cancelProject('p-live', {
      reason: 'x',
      reasonCode: 'no_longer_needed.duplicated',
    });
    expect(canceled).toMatchObject({
      status: 'canceled',
      price: 31,
      test: true,
      created: '2023-03-03T18:17:38',
    });
    expect((await c.quote({ mainService: 'voice_over', services: [] })).price).toBe(31);
    expect((await c.signIn('a@b.c', 'pw')).token).toMatch(/^eyJ/);
    expect(await c.createRevision('d3', { instructions: 'Slower at 0:03' })).toMatchObject({
      reason: 'both',
      revisionCode: 'quality_issues',
    });
    // The values list and the tracks list each had one item nobody could read: skipped and reported.
    expect(reports.map((r) => [r.operation, r.skipped.map((s) => s.at)])).toEqual([
      ['getAttributeValues', ['[1]']],
      ['listTracks', ['[1]']],
    ]);
  });

  it('a new client’s project: pendingInternalReview, a space in the date, services without units, extras kept', async () => {
    const project = await serve(LIVE_CORPUS.projectPending).getProject('p-live');
    expect(project.status).toBe('pendingInternalReview');
    expect(project.created).toBe('2026-11-23 09:00:00');
    expect(project.services[0]).toMatchObject({ status: 'unassigned', deliveryDays: 2 });
    expect(project.services[0]!.units).toBeUndefined();
    expect(project.services[0]!.unitType).toBeUndefined();
    expect(project['links']).toEqual({ self: '/projects/p-live' });
    expect(project.unreadable).toBeUndefined();
  });

  it('an audio ad: zoned date, unknown project and service statuses, one unreadable service skipped', async () => {
    const project = await serve(LIVE_CORPUS.projectAudioAd).getProject('p-ad');
    expect(project).toMatchObject({ status: 'onHold', created: '2026-11-23T10:00:00+01:00', unreadable: 1 });
    expect(project.services.map((s) => [s.id, s.status])).toEqual([
      ['s-sw', 'assigned'],
      ['s-vo', 'inviting'],
    ]);
    expect(reports[0]).toMatchObject({ operation: 'getProject', skipped: [{ at: 'services[2]' }] });
  });

  it('one bad item in a list of three yields two items and unreadable 1 (projects)', async () => {
    const list = await serve(LIVE_CORPUS.projects).listProjects();
    expect(list.projects.map((p) => p.id)).toEqual(['p1', 'p3']);
    expect(list).toMatchObject({ page: 1, total: 3, unreadable: 1 });
    expect(list.projects[1]).toMatchObject({ status: 'somethingNew', extra: [1, 2] });
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ operation: 'listProjects', method: 'GET', path: '/projects' });
    expect(reports[0]!.skipped).toEqual([
      { at: 'projects[1]', issues: ['id: Invalid input: expected string, received undefined'] },
    ]);
    // The log never carries the token.
    expect(JSON.stringify(reports)).not.toContain('tok-live-123');
  });

  it('deliverables not delivered yet (urls absent or null) read with no files; an unreadable one is skipped', async () => {
    const list = await serve(LIVE_CORPUS.deliverables).listDeliverables('p-live');
    expect(list.map((d) => [d.id, d.status])).toEqual([
      ['d1', 'unassigned'],
      ['d2', 'assigned'],
      ['d3', 'reviewable'],
      ['d4', 'qualityCheck'],
    ]);
    expect(list[0]!.urls).toEqual({});
    expect(list[1]!.urls).toEqual({});
    expect(list[2]!.urls.wav).toBe('https://cdn.example.com/deliverables/d3.wav?sig=abc');
    expect(list[2]!['deliveredAt']).toBe('2026-11-23T12:00:00.000Z');
    expect(list.unreadable).toBe(1);
    expect(reports[0]!.skipped).toEqual([
      {
        at: '[4]',
        id: 'd5',
        issues: ['serviceSubCategory: Invalid input: expected string, received undefined'],
      },
    ]);
  });

  it('single deliverables: a script with its text, an undelivered one with urls null', async () => {
    const c = serve(LIVE_CORPUS.scriptDeliverable, LIVE_CORPUS.pendingDeliverable);
    expect((await c.getDeliverable('d-script')).urls).toMatchObject({ content: 'Looking for bread?' });
    expect(await c.getDeliverable('d2')).toMatchObject({ status: 'assigned', urls: {} });
  });

  it('versions: zone-less and zoned dates, a version without files, an unreadable version skipped', async () => {
    const versions = await serve(LIVE_CORPUS.versions).listVersions('d3');
    expect(versions.versions.map((v) => v.created)).toEqual(['2026-11-23 12:00:00', '2026-11-24T08:00:00Z']);
    expect(versions.versions[1]!.urls).toEqual({});
    expect(versions.unreadable).toBe(1);
  });

  it('approve-all and search answers skip their unreadable items', async () => {
    const c = serve(LIVE_CORPUS.approveAll, LIVE_CORPUS.search);
    const approved = await c.approveAll('p-live');
    expect(approved.map((d) => d.id)).toEqual(['d3', 'd6']);
    expect(approved.unreadable).toBe(1);
    const found = await c.search({ categoryId: 'voice_over' });
    expect(found.samples.map((s) => s.publicId)).toEqual(['pro-1', 'pro-3']);
    expect(found).toMatchObject({ total: 3, unreadable: 1 });
  });

  it('a list answer whose envelope cannot be read is still UNEXPECTED_RESPONSE', async () => {
    const c = serve({ route: 'GET /projects', body: { page: 'one', projects: [] } });
    await expect(c.listProjects()).rejects.toMatchObject({ type: 'UNEXPECTED_RESPONSE', status: 200 });
  });
});

describe('readAnswer, the one helper behind every list', () => {
  it('keeps an answer without a list untouched and counts skipped items only when there are some', () => {
    const good = readAnswer(DeliverablesResponse, [
      { id: 'a', serviceSubCategory: 'voice_over', name: '1', status: 'reviewable', urls: null },
    ]);
    expect(good).toMatchObject({ success: true, skipped: [] });
    expect(good.success && 'unreadable' in good.data).toBe(false);
    expect(readAnswer(ListProjectsResponse, { page: 1, total: 0 }).success).toBe(false);
    // A schema that holds no list reads as a whole.
    expect(readAnswer(ProjectListItem, { id: 'x', title: 'y' }).success).toBe(true);
  });
});

describe('a create whose answer cannot be read is reconciled, never "try again"', () => {
  const body = {
    title: 'Spring campaign',
    mainService: 'voice_over',
    // What the corpus's project was made from: read back, it must not contradict what was sent (a zone-less date
    // near the send time is matched by its body, not its time).
    fulfillmentType: 'speedy',
    services: [
      {
        subCategory: 'voice_over',
        language: 'eng-us',
        genderAndAge: 'teenageGirl',
        script: [{ part001: 'Fresh bread every morning.' }],
      },
    ],
  } as const;

  it('2xx with an unreadable body: the project is looked up by title and returned', async () => {
    const now = new Date();
    // The live service writes its date with a space: the finder compares instants, not strings.
    const created = now.toISOString().slice(0, 19).replace('T', ' ');
    const c = serve(
      { route: 'POST /projects', body: { id: 42, title: 'Spring campaign', services: 'soon' } },
      {
        route: 'GET /projects',
        body: { page: 1, total: 1, projects: [{ id: 'p-live', title: 'Spring campaign', created }] },
      },
      LIVE_CORPUS.projectPending,
    );
    const project = await c.createProject(body);
    expect(project.id).toBe('p-live');
    expect(seen.filter((r) => r.startsWith('POST'))).toHaveLength(1);
    expect(seen.some((r) => r.startsWith('GET /projects?') && r.includes('titleQuery=Spring+campaign'))).toBe(
      true,
    );
  });

  it('2xx unreadable and not found: CREATE_OUTCOME_UNKNOWN (look it up before sending again), sent once', async () => {
    const c = serve(
      { route: 'POST /projects', body: '<html>ok</html>' },
      { route: 'GET /projects', body: { page: 1, total: 0, projects: [] } },
    );
    const error = await c.createProject(body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error).toMatchObject({
      type: 'CREATE_OUTCOME_UNKNOWN',
      details: { title: 'Spring campaign', cause: 'UNEXPECTED_RESPONSE' },
    });
    expect((error as Error).message).not.toMatch(/try again/i);
    expect(seen.filter((r) => r.startsWith('POST'))).toHaveLength(1);
  });
});

describe('a contest winner the service refuses is said plainly', () => {
  it.each(WINNER_REFUSALS)('$name -> WINNER_NOT_OFFERED', async ({ status, body }) => {
    const c = serve({ route: 'PUT /deliverables/d3', status, body });
    const error = await c.selectWinner('d3').catch((e: unknown) => e);
    expect(error).toMatchObject({ type: 'WINNER_NOT_OFFERED', status });
    expect((error as Error).message).toBe('It may not offer picking winners for this project.');
  });

  it('the spec’s own winner errors stay what they are', async () => {
    const c = serve({
      route: 'PUT /deliverables/d3',
      status: 404,
      body: { status: 400, type: 'WINNER_ALREADY_SELECTED', message: 'A winner was already selected.' },
    });
    await expect(c.selectWinner('d3')).rejects.toMatchObject({
      type: 'WINNER_ALREADY_SELECTED',
      status: 404,
    });
  });
});
