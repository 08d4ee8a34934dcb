/**
 * The client against a sandbox answering in live shapes (`liveShapes`, issue 14) on 127.0.0.1: deliverables
 * listed before any file exists, services without units, live date spellings, extra fields, an unknown status,
 * and a contest winner the service refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateProjectBodyInput } from '../../../shared/api';
import { serviceTime } from '../../../shared/api';
import {
  LIVE_PAGE_SIZE_CAP,
  LIVE_SEED_TITLE,
  LIVE_UNKNOWN_SERVICE_STATUS,
  liveDate,
} from '../../sandbox/live-shapes';
import { createSandbox, type Sandbox } from '../../sandbox/server';
import { createApiClient, type ApiClient, type UnreadableReport } from './client';
import { voiceOverService } from '../../sandbox/sample-bodies';

let sandbox: Sandbox;
let client: ApiClient;
const clock = Date.parse('2026-11-23T09:00:00Z');
const reports: UnreadableReport[] = [];

beforeAll(async () => {
  sandbox = await createSandbox({ delivery: 'manual', liveShapes: true, now: () => new Date(clock) });
  client = createApiClient({
    baseUrl: sandbox.url,
    getToken: async () => sandbox.tokens.full,
    retry: { sleep: async () => {}, random: () => 0 },
    onUnreadable: (report) => reports.push(report),
  });
});
afterAll(async () => {
  await sandbox?.close();
});

function voiceOver(title: string, extra: Partial<CreateProjectBodyInput> = {}): CreateProjectBodyInput {
  return {
    title,
    mainService: 'voice_over',
    services: [voiceOverService(['Fresh bread.', 'Every morning.', 'At the corner.'])],
    ...extra,
  } as CreateProjectBodyInput;
}

async function raw(path: string): Promise<unknown> {
  const res = await fetch(`${sandbox.url}${path}`, { headers: { 'x-access-token': sandbox.tokens.full } });
  return res.json();
}

describe('a live-shaped sandbox, read by the client', () => {
  it('answers in live shapes on the wire', async () => {
    const project = await client.createProject(voiceOver('Wire shapes'));
    const wire = (await raw(`/projects/${project.id}`)) as Record<string, unknown>;
    expect(String(wire.created)).toMatch(/^\d{4}-\d{2}-\d{2}( |T)\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:00)?$/);
    expect(serviceTime(String(wire.created))).toBe(clock);
    expect(wire.created).not.toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(wire).toHaveProperty('updatedAt');
    const [service] = wire.services as Array<Record<string, unknown>>;
    expect(service).not.toHaveProperty('units');
    expect(service).not.toHaveProperty('unitType');
    expect(service!.status).toBe(LIVE_UNKNOWN_SERVICE_STATUS);
    const deliverables = (await raw(`/deliverables/project/${project.id}`)) as Array<Record<string, unknown>>;
    expect(deliverables.map((d) => d.status)).toEqual(['unassigned', 'unassigned', 'unassigned']);
    expect(deliverables[0]!.urls).toBeNull();
    expect(deliverables[1]).not.toHaveProperty('urls');
  });

  it('lists deliverables before they have files, sees them assigned, then reviewable; reviews and approves one', async () => {
    const created = await client.createProject(voiceOver('Live lifecycle'));
    expect(created.services[0]).toMatchObject({ status: LIVE_UNKNOWN_SERVICE_STATUS });
    expect(created.services[0]!.units).toBeUndefined();

    const waiting = await client.listDeliverables(created.id);
    expect(waiting.map((d) => [d.status, d.urls])).toEqual([
      ['unassigned', {}],
      ['unassigned', {}],
      ['unassigned', {}],
    ]);
    expect(waiting.unreadable).toBeUndefined();
    expect((await client.listVersions(waiting[0]!.id)).versions).toEqual([]);

    await sandbox.deliverNow(created.id); // a pro accepted
    const assigned = await client.listDeliverables(created.id);
    expect(assigned.map((d) => d.status)).toEqual(['assigned', 'assigned', 'assigned']);
    expect((await client.getProject(created.id)).services[0]!.status).toBe('assigned');
    await expect(client.approveDeliverable(assigned[0]!.id)).rejects.toMatchObject({
      type: 'DELIVERABLE_NOT_PENDING_REVIEW',
    });

    await sandbox.deliverNow(created.id);
    const delivered = await client.listDeliverables(created.id);
    expect(delivered.map((d) => d.id)).toEqual(waiting.map((d) => d.id)); // the same deliverables, now with files
    expect(delivered.every((d) => d.status === 'reviewable' && d.urls.wav && d.urls.mp3)).toBe(true);
    const versions = await client.listVersions(delivered[0]!.id);
    expect(versions.versions).toHaveLength(1);
    expect(Number.isNaN(Date.parse(versions.versions[0]!.created.replace(' ', 'T')))).toBe(false);
    expect(await client.approveDeliverable(delivered[0]!.id)).toMatchObject({ status: 'approved' });
    expect(reports).toEqual([]);
  });

  it('lists projects and finds a new one by title whatever the spelling of its date', async () => {
    const since = new Date(clock).toISOString().slice(0, 19);
    const titles = ['Finder A', 'Finder B', 'Finder C'];
    for (const title of titles) await client.createProject(voiceOver(title));
    const list = await client.listProjects({ pageSize: 50 });
    expect(list.unreadable).toBeUndefined();
    expect(list.projects.length).toBeGreaterThanOrEqual(3);
    for (const title of titles) expect((await client.findRecentProject(title, { since }))?.title).toBe(title);
  });

  it('starts with a completed project revised after approval: completed, with a take ready for review', async () => {
    const { projects } = await client.listProjects({ titleQuery: LIVE_SEED_TITLE, pageSize: 10 });
    expect(projects.map((p) => [p.title, p.status, p.fulfillmentType])).toEqual([
      [LIVE_SEED_TITLE, 'completed', 'booking'],
    ]);
    const takes = await client.listDeliverables(projects[0]!.id);
    expect(takes.map((d) => d.status).sort()).toEqual(['approved', 'reviewable']);
    const revised = takes.find((d) => d.status === 'reviewable')!;
    expect((await client.listVersions(revised.id)).versions).toHaveLength(2);
  });

  it('keeps to its own page size whatever is asked, and `total` counts the account, not the search', async () => {
    for (let i = 0; i < 60; i++) await client.createProject(voiceOver(`Paged ${i}`));
    const all = await client.listProjects({ page: 1, pageSize: 100 });
    expect(all.projects).toHaveLength(LIVE_PAGE_SIZE_CAP);
    const second = await client.listProjects({ page: 2, pageSize: 100 });
    expect(second.projects.length).toBeGreaterThan(0);
    expect(second.projects.map((p) => p.id)).not.toContain(all.projects[0]!.id); // the next 50, not a repeat
    const search = await client.listProjects({ page: 1, pageSize: 100, titleQuery: 'Paged 5' });
    expect(search.projects.map((p) => p.title).sort()).toEqual([
      'Paged 5',
      'Paged 50',
      'Paged 51',
      'Paged 52',
      'Paged 53',
      'Paged 54',
      'Paged 55',
      'Paged 56',
      'Paged 57',
      'Paged 58',
      'Paged 59',
    ]);
    expect(search.total).toBe(all.total); // every project of the account
    expect(search.total).toBeGreaterThan(60);
  });

  it('keeps a completed project completed while an approved take is revised, and delivers the revision', async () => {
    const project = await client.createProject(
      voiceOver('Revised after approval', { fulfillmentType: 'booking' }),
    );
    await sandbox.deliverNow(project.id);
    await sandbox.deliverNow(project.id);
    await client.approveAll(project.id);
    expect((await client.getProject(project.id)).status).toBe('completed');
    const [take] = await client.listDeliverables(project.id);
    await client.createRevision(take!.id, {
      instructions: 'Warmer, please.',
      revisionCode: 'quality_issues',
    });
    expect((await client.getProject(project.id)).status).toBe('completed');
    expect((await client.listDeliverables(project.id))[0]!.status).toBe('revisionRequested');
    await sandbox.deliverNow(project.id);
    const revised = await client.listVersions(take!.id);
    expect(revised.status).toBe('reviewable');
    expect(revised.versions).toHaveLength(2);
    expect((await client.getProject(project.id)).status).toBe('completed');
  });

  it('spells dates the live ways, zone offsets included, always the same instant', () => {
    const spellings = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const text = String(liveDate('2026-11-23T09:00:00', `record-${i}`));
      expect(serviceTime(text)).toBe(Date.parse('2026-11-23T09:00:00Z'));
      spellings.add(text);
    }
    expect([...spellings].sort()).toEqual([
      '2026-11-23 09:00:00',
      '2026-11-23T04:00:00-05:00',
      '2026-11-23T09:00:00+00:00',
      '2026-11-23T09:00:00Z',
      '2026-11-23T11:00:00+02:00',
    ]);
  });

  it('refuses a contest winner, and the client says so plainly', async () => {
    const contest = await client.createProject(voiceOver('Live contest', { fulfillmentType: 'contest' }));
    await sandbox.deliverNow(contest.id);
    await sandbox.deliverNow(contest.id);
    const [entry] = await client.listDeliverables(contest.id);
    await expect(client.selectWinner(entry!.id)).rejects.toMatchObject({
      type: 'WINNER_NOT_OFFERED',
      status: 422,
      message: 'It may not offer picking winners for this project.',
    });
    // Approving the preferred take still works.
    expect(await client.approveDeliverable(entry!.id)).toMatchObject({ status: 'approved' });
  });
});
