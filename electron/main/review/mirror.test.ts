import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  Deliverable,
  ItemList,
  ListProjectsResponse,
  Project,
  VersionsResponse,
} from '../../../shared/api';
import { createSandbox, type Sandbox } from '../../sandbox/server';
import { voiceOverService } from '../../sandbox/sample-bodies';
import type { RefreshedRead } from '../../../shared/ipc';
import { startLossyProxy, type LossyProxy } from '../api/test-support/service-stand-ins';
import { createMemorySettingsStore } from '../profiles';
import { createServices, type Services } from '../app/services';
import { testServicesOptions } from '../app/test-support/test-world';
import { openDatabase } from './database';
import { DECISIONS_MIGRATIONS } from './decisions';
import { createMirror } from './mirror';
import { DATABASE_MIGRATIONS } from './migrations';

type AsOf = { asOf?: string };

describe('the read mirror in the database', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'takedesk-mirror-db-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('arrives as schemas 2 to 4 on a database of schema 1, keeping its decisions', () => {
    const path = join(dir, 'takedesk.sqlite');
    const first = openDatabase(path, DECISIONS_MIGRATIONS).db;
    first
      .prepare(
        `INSERT INTO decisions (id, account, profile_id, lane, decision, state, queued_at)
         VALUES ('d1', 'sandbox', 'sandbox', 'p1', '{"kind":"approve","deliverableId":"x"}', 'queued', 'now')`,
      )
      .run();
    first.close();
    const { db, reset } = openDatabase(path, DATABASE_MIGRATIONS);
    expect(reset).toBeNull();
    expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: 4 });
    expect(db.prepare('SELECT id, state FROM decisions').all()).toEqual([{ id: 'd1', state: 'queued' }]);
    const mirror = createMirror(db, () => new Date('2026-11-26T10:42:00.000Z'));
    mirror.listed('sandbox', {}, { page: 1, total: 1, projects: [{ id: 'p1', title: 'Kept' }] });
    expect(mirror.readList('sandbox', {})).toMatchObject({
      projects: [{ id: 'p1', title: 'Kept' }],
      asOf: '2026-11-26T10:42:00.000Z',
    });
    db.close();
  });

  it('moves the list rows of schema 2 into their own table (schema 4), in the same order', () => {
    const path = join(dir, 'takedesk.sqlite');
    const before = DATABASE_MIGRATIONS.filter((m) => m.version < 4);
    const first = openDatabase(path, before).db;
    const insert = first.prepare(
      'INSERT INTO mirror_projects (account, id, list_row, list_read_at, created, detail, detail_read_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    insert.run(
      'a',
      'old',
      '{"id":"old","title":"Older"}',
      '2026-11-20T09:00:00.000Z',
      1,
      '{"id":"old"}',
      'x',
    );
    insert.run('a', 'new', '{"id":"new","title":"Newer"}', '2026-11-21T09:00:00.000Z', 2, null, null);
    insert.run(
      'a',
      'undated',
      '{"id":"undated","title":"Undated"}',
      '2026-11-19T09:00:00.000Z',
      null,
      null,
      null,
    );
    first.close();
    const { db, reset } = openDatabase(path, DATABASE_MIGRATIONS);
    expect(reset).toBeNull();
    const mirror = createMirror(db);
    expect(mirror.readList('a', {})).toEqual({
      page: 1,
      total: 3,
      projects: [
        { id: 'new', title: 'Newer' },
        { id: 'old', title: 'Older' },
        { id: 'undated', title: 'Undated' },
      ],
      asOf: '2026-11-21T09:00:00.000Z',
    });
    expect(mirror.readProject('a', 'old')).toEqual({ id: 'old', asOf: 'x' });
    db.close();
  });

  it('reads the whole list page after page as one read of it would, also after rows change between pages', () => {
    const { db } = openDatabase(join(dir, 'takedesk.sqlite'), DATABASE_MIGRATIONS);
    const mirror = createMirror(db);
    const at = (i: number) => ({
      id: `p${String(i).padStart(3, '0')}`,
      title: `Project ${i}`,
      // Two of each date: the order within one date is the id's.
      ...(i % 10 === 9 ? {} : { created: new Date(Date.UTC(2026, 0, 1 + Math.floor(i / 2))).toISOString() }),
    });
    const rows = Array.from({ length: 45 }, (_, i) => at(i));
    mirror.rows('a', rows);
    const pages = (pageSize: number) =>
      Array.from({ length: Math.ceil(rows.length / pageSize) + 1 }, (_, i) =>
        mirror.readList('a', { page: i + 1, pageSize })!,
      );
    const whole = mirror.readList('a', { page: 1, pageSize: 100 })!.projects.map((p) => p.id);
    expect(whole).toHaveLength(45);
    for (const size of [7, 10, 45]) {
      const read = pages(size);
      expect(read.flatMap((p) => p.projects.map((r) => r.id))).toEqual(whole);
      expect(read.every((p) => p.total === 45)).toBe(true);
    }
    // A project arrives between two pages: the pages read after it count it and start again from their place.
    mirror.readList('a', { page: 1, pageSize: 10 });
    mirror.rows('a', [{ id: 'p999', title: 'Newest', created: '2027-01-01T00:00:00Z' }]);
    const second = mirror.readList('a', { page: 2, pageSize: 10 })!;
    expect(second.total).toBe(46);
    expect(second.projects[0]!.id).toBe(whole[9]);
    db.close();
  });

  it('keeps each account to itself, and says null for what was never loaded', () => {
    const { db } = openDatabase(join(dir, 'takedesk.sqlite'), DATABASE_MIGRATIONS);
    const mirror = createMirror(db);
    const take = { id: 'd1', name: '1', serviceSubCategory: 'voice_over', status: 'reviewable', urls: {} };
    mirror.listed('a', {}, { page: 1, total: 1, projects: [{ id: 'p1', title: 'Of A' }] });
    mirror.deliverables('a', 'p1', [take as Deliverable]);
    expect(mirror.readList('b', {})).toBeNull();
    expect(mirror.readDeliverables('b', 'p1')).toBeNull();
    expect(mirror.readDeliverables('a', 'p1')?.items).toEqual([take]);
    expect(mirror.needsReview('a')).toEqual(['p1']);
    expect(mirror.needsReview('b')).toEqual([]);
    // A search answers only from the pages it was given.
    expect(mirror.readList('a', { titleQuery: 'Of' })).toBeNull();
    // A later list of the project replaces the earlier one: a take no longer listed is gone.
    mirror.deliverables('a', 'p1', []);
    expect(mirror.readDeliverables('a', 'p1')?.items).toEqual([]);
    expect(mirror.needsReview('a')).toEqual([]);
    db.close();
  });
});

describe('what the read mirror forgets', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'takedesk-mirror-prune-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  let clock = Date.parse('2026-11-26T10:00:00.000Z');
  const open = () => {
    const { db } = openDatabase(join(dir, 'takedesk.sqlite'), DATABASE_MIGRATIONS);
    return { db, mirror: createMirror(db, () => new Date((clock += 1000))) };
  };
  const row = (id: string, day: number) => ({
    id,
    title: id,
    created: `2026-11-${String(day).padStart(2, '0')}T10:00:00Z`,
  });
  const take = (id: string) =>
    ({ id, name: id, serviceSubCategory: 'voice_over', status: 'reviewable', urls: {} }) as Deliverable;
  /** A project loaded whole: its list row, its answer, one take and that take's versions. */
  const load = (mirror: ReturnType<typeof createMirror>, id: string, day: number) => {
    mirror.project('a', { ...row(id, day), services: [] } as unknown as Project);
    mirror.deliverables('a', id, [take(`${id}-take`)]);
    mirror.versions('a', { ...take(`${id}-take`), versions: [] } as VersionsResponse);
  };
  const ids = (mirror: ReturnType<typeof createMirror>) =>
    mirror.readList('a', { pageSize: 100 })?.projects.map((p) => p.id) ?? [];

  it('forgets a project the service no longer lists once a whole read of the list proves it, with its takes', () => {
    const { db, mirror } = open();
    for (const [i, id] of ['p1', 'p2', 'p3', 'gone'].entries()) load(mirror, id, i + 1);
    mirror.rows('b', [row('gone', 4)]); // another account's row of the same id stays
    expect(ids(mirror)).toEqual(['gone', 'p3', 'p2', 'p1']);
    // Pages of two: the service lists three projects now.
    mirror.listed(
      'a',
      { page: 1, pageSize: 2 },
      { page: 1, total: 3, projects: [row('p3', 3), row('p2', 2)] },
    );
    expect(ids(mirror)).toContain('gone');
    mirror.listed('a', { page: 2, pageSize: 2 }, { page: 2, total: 3, projects: [row('p1', 1)] });
    expect(ids(mirror)).toEqual(['p3', 'p2', 'p1']);
    // The pages of a read may land in any order (each answer comes when the service gives it).
    load(mirror, 'later-gone', 5);
    mirror.listed('a', { page: 2, pageSize: 2 }, { page: 2, total: 3, projects: [row('p1', 1)] });
    expect(ids(mirror)).toContain('later-gone');
    mirror.listed(
      'a',
      { page: 1, pageSize: 2 },
      { page: 1, total: 3, projects: [row('p3', 3), row('p2', 2)] },
    );
    expect(ids(mirror)).toEqual(['p3', 'p2', 'p1']);
    expect(mirror.readProject('a', 'gone')).toBeNull();
    expect(mirror.readDeliverables('a', 'gone')).toBeNull();
    expect(mirror.readDeliverable('a', 'gone-take')).toBeNull();
    expect(mirror.readVersions('a', 'gone-take')).toBeNull();
    expect(mirror.readDeliverables('a', 'p1')?.items).toHaveLength(1);
    expect(mirror.readVersions('a', 'p1-take')).not.toBeNull();
    expect(mirror.readList('b', {})?.projects.map((p) => p.id)).toEqual(['gone']);
    db.close();
  });

  it('forgets nothing on a read that does not prove it: a search, a partial read, a page missing, a count that differs, pages that count differently, a project read meanwhile', () => {
    const { db, mirror } = open();
    for (const [i, id] of ['p1', 'p2', 'gone'].entries()) load(mirror, id, i + 1);
    const all = ['gone', 'p2', 'p1'];
    // A search's pages say nothing of what else there is.
    mirror.listed('a', { page: 1, titleQuery: 'p' }, { page: 1, total: 3, projects: [row('p1', 1)] });
    expect(ids(mirror)).toEqual(all);
    // The first page only (a long list refreshed from its top).
    mirror.listed('a', { page: 1, pageSize: 1 }, { page: 1, total: 2, projects: [row('p2', 2)] });
    expect(ids(mirror)).toEqual(all);
    // Pages that count differently (a project made or gone between them): the read proves nothing.
    mirror.listed(
      'a',
      { page: 1, pageSize: 2 },
      { page: 1, total: 2, projects: [row('p2', 2), row('p1', 1)] },
    );
    mirror.listed('a', { page: 2, pageSize: 2 }, { page: 2, total: 3, projects: [] });
    expect(ids(mirror)).toEqual(all);
    // Page 3 without page 2.
    mirror.listed('a', { page: 1, pageSize: 1 }, { page: 1, total: 2, projects: [row('p2', 2)] });
    mirror.listed('a', { page: 3, pageSize: 1 }, { page: 3, total: 2, projects: [] });
    expect(ids(mirror)).toEqual(all);
    // The rows read are fewer than the service counts (a row passed over while the pages shifted).
    mirror.listed('a', { page: 1, pageSize: 2 }, { page: 1, total: 3, projects: [row('p2', 2)] });
    mirror.listed('a', { page: 2, pageSize: 2 }, { page: 2, total: 3, projects: [] });
    expect(ids(mirror)).toEqual(all);
    // Read again (its project page opened) while the list was being read: the service still has it.
    mirror.listed(
      'a',
      { page: 1, pageSize: 2 },
      { page: 1, total: 2, projects: [row('p2', 2), row('p1', 1)] },
    );
    load(mirror, 'gone', 3);
    mirror.listed('a', { page: 2, pageSize: 2 }, { page: 2, total: 2, projects: [] });
    expect(ids(mirror)).toEqual(all);
    db.close();
  });

  it('forgets whole every account it is not asked to keep', () => {
    const { db, mirror } = open();
    load(mirror, 'p1', 1);
    mirror.listed('a', { page: 1, titleQuery: 'p' }, { page: 1, total: 1, projects: [row('p1', 1)] });
    mirror.rows('b', [row('q1', 1)]);
    mirror.deliverables('b', 'q1', [take('q1-take')]);
    mirror.keepAccounts(['b', 'c']);
    for (const table of [
      'mirror_list',
      'mirror_projects',
      'mirror_pages',
      'mirror_deliverables',
      'mirror_versions',
    ])
      expect(db.prepare(`SELECT count(*) AS n FROM ${table} WHERE account = 'a'`).get()).toEqual({ n: 0 });
    expect(mirror.readList('a', {})).toBeNull();
    expect(mirror.readList('b', {})?.projects.map((p) => p.id)).toEqual(['q1']);
    expect(mirror.readDeliverables('b', 'q1')?.items).toHaveLength(1);
    db.close();
  });
});

/**
 * Issue 23 item 6: with the service down — a refused connection, a gateway's 503, or after a restart — every read that
 * was loaded answers from the mirror, marked `asOf`; what was never loaded says so in words.
 */
describe('reads while the service cannot be reached', () => {
  let dir: string;
  let sandbox: Sandbox;
  let proxy: LossyProxy;
  const running: Services[] = [];
  const settingsStore = createMemorySettingsStore();

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'takedesk-mirror-'));
    sandbox = await createSandbox({ delivery: 'manual' });
    proxy = await startLossyProxy(sandbox.url);
  });
  afterEach(async () => {
    for (const services of running.splice(0)) await services.dispose();
    await proxy.close();
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  });

  const start = async () => {
    const services = await createServices({
      ...testServicesOptions(dir, join(dir, 'Library')),
      settingsStore,
      externalSandbox: { url: proxy.url, token: sandbox.tokens.full },
    });
    await services.settings.set({ backgroundFetch: false });
    running.push(services);
    const call = (channel: string, input?: unknown) =>
      services.router.invoke(channel, input, { transport: 'browser' });
    const value = async <T>(channel: string, input?: unknown): Promise<T & AsOf> => {
      const result = await call(channel, input);
      if (!result.ok) throw new Error(`${channel}: ${result.error.type} ${result.error.message}`);
      return result.value as T & AsOf;
    };
    return { services, call, value };
  };

  /** A delivered voice-over project, read the way the project and review pages read it. */
  const loadedProject = async (app: Awaited<ReturnType<typeof start>>) => {
    const project = await app.value<Project>('projects.create', {
      body: { title: 'Loaded before', mainService: 'voice_over', services: [voiceOverService(['A.', 'B.'])] },
    });
    await sandbox.deliverNow(project.id);
    // Each read from the service itself (`fresh`), as after the producer's own decision.
    const list = await app.value<ListProjectsResponse>('projects.list', {
      page: 1,
      pageSize: 200,
      fresh: true,
    });
    const got = await app.value<Project>('projects.get', { id: project.id, fresh: true });
    const takes = await app.value<ItemList<Deliverable>>('deliverables.list', {
      projectId: project.id,
      fresh: true,
    });
    const take = takes.items[0]!;
    const one = await app.value<Deliverable>('deliverables.get', { id: take.id, fresh: true });
    const versions = await app.value<VersionsResponse>('revisions.versions', {
      deliverableId: take.id,
      fresh: true,
    });
    for (const answer of [list, got, takes, one, versions]) expect(answer.asOf).toBeUndefined();
    return { project: got, list, takes, take: one, versions };
  };

  it('answers every loaded read from the mirror, as of when it was read, while connections are refused', async () => {
    const app = await start();
    const loaded = await loadedProject(app);
    const other = await app.value<Project>('projects.create', {
      body: { title: 'Never opened', mainService: 'voice_over', services: [voiceOverService(['C.'])] },
    });

    await proxy.setDown(true);
    const list = await app.value<ListProjectsResponse>('projects.list', { page: 1, pageSize: 200 });
    expect(list.projects.map((p) => p.id)).toContain(loaded.project.id);
    expect(list.asOf).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d/);
    const project = await app.value<Project>('projects.get', { id: loaded.project.id });
    expect({ ...project, asOf: undefined }).toEqual({ ...loaded.project, asOf: undefined });
    expect(project.asOf).toBeDefined();
    const takes = await app.value<ItemList<Deliverable>>('deliverables.list', {
      projectId: loaded.project.id,
    });
    expect(takes.items).toEqual(loaded.takes.items);
    expect(takes.asOf).toBeDefined();
    const take = await app.value<Deliverable>('deliverables.get', { id: loaded.take.id });
    expect(take.status).toBe('reviewable');
    const versions = await app.value<VersionsResponse>('revisions.versions', {
      deliverableId: loaded.take.id,
    });
    expect(versions.versions).toEqual(loaded.versions.versions);

    // Created but never opened here: its page says so plainly instead of the network's error.
    const never = await app.call('projects.get', { id: other.id });
    expect(never.ok).toBe(false);
    if (!never.ok) {
      expect(never.error.type).toBe('NOT_LOADED_OFFLINE');
      expect(never.error.message).toMatch(/not loaded on this computer yet/);
    }
    // A refusal of the service is not "offline": it is not answered from the mirror.
    await proxy.setDown(false);
    const missing = await app.call('projects.get', { id: 'no-such-project' });
    expect(missing.ok || missing.error.type).toBe('PROJECT_NO_EXIST');
  });

  it("answers a loaded read at once while the service holds it, and the service's answer follows as an event", async () => {
    const app = await start();
    const refreshed: RefreshedRead[] = [];
    app.services.events.attach((event, payload) => {
      if (event === 'read.refreshed') refreshed.push(payload as RefreshedRead);
    });
    const loaded = await loadedProject(app);
    const id = loaded.take.id;
    // Approved on another device: straight to the sandbox.
    const approved = await fetch(`${sandbox.url}/deliverables/${id}`, {
      method: 'PUT',
      headers: { 'x-access-token': sandbox.tokens.full, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'approved' }),
    });
    expect(approved.status).toBe(200);

    proxy.drop('GET', `/deliverables/${id}`, 'hold');
    const t0 = performance.now();
    const stale = await app.value<Deliverable>('deliverables.get', { id });
    expect(performance.now() - t0).toBeLessThan(1_000);
    expect(stale).toMatchObject({ id, status: 'reviewable' });
    expect(stale.asOf).toBeDefined();
    expect(refreshed).toEqual([]);
    await vi.waitFor(() => expect(proxy.holding()).toBe(1));
    proxy.release();
    await vi.waitFor(() =>
      expect(refreshed).toEqual([
        {
          profileId: 'sandbox',
          channel: 'deliverables.get',
          input: { id },
          value: expect.objectContaining({ id, status: 'approved' }),
        },
      ]),
    );
    expect(refreshed[0]!.value).not.toHaveProperty('asOf');
    // The mirror keeps the service's answer: the next read shows it at once.
    expect(await app.value<Deliverable>('deliverables.get', { id })).toMatchObject({ status: 'approved' });

    // A fresh read waits for the service (it is not answered from what was loaded), and sends no event.
    proxy.drop('GET', `/revisions/${id}/versions`, 'hold');
    const asked = app.value<VersionsResponse>('revisions.versions', { deliverableId: id, fresh: true });
    const early = await Promise.race([asked, new Promise((r) => setTimeout(() => r('waiting'), 500))]);
    expect(early).toBe('waiting');
    expect(proxy.holding()).toBe(1);
    proxy.release();
    expect((await asked).asOf).toBeUndefined();
    // A read never loaded here waits for the service as before.
    const other = await app.value<Project>('projects.create', {
      body: { title: 'New here', mainService: 'voice_over', services: [voiceOverService(['E.'])] },
    });
    expect((await app.value<Project>('projects.get', { id: other.id })).asOf).toBeUndefined();
    await new Promise((r) => setTimeout(r, 100));
    expect(refreshed.map((r) => r.channel)).toEqual(['deliverables.get', 'deliverables.get']);
  });

  it('a fresh read of what is already on its way to the service waits for that request, not another', async () => {
    const app = await start();
    const loaded = await loadedProject(app);
    const id = loaded.take.id;
    await fetch(`${sandbox.url}/deliverables/${id}`, {
      method: 'PUT',
      headers: { 'x-access-token': sandbox.tokens.full, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'approved' }),
    });
    // Every request for the take is held (a second one would be held too, and counted).
    proxy.drop('GET', `/deliverables/${id}`, 'hold', 5);
    // The screen is answered from what was loaded, then asks for the service's own answer (it may have missed the
    // event that carries it): one request reaches the service, and both learn its answer.
    const stale = await app.value<Deliverable>('deliverables.get', { id });
    expect(stale).toMatchObject({ status: 'reviewable', asOf: expect.any(String) });
    const fresh = app.value<Deliverable>('deliverables.get', { id, fresh: true });
    await vi.waitFor(() => expect(proxy.holding()).toBe(1));
    await new Promise((r) => setTimeout(r, 200));
    expect(proxy.holding()).toBe(1);
    proxy.release();
    expect(await fresh).toMatchObject({ id, status: 'approved' });
    expect((await fresh).asOf).toBeUndefined();
    // Once it has landed, the next fresh read is a request of its own.
    const again = app.value<Deliverable>('deliverables.get', { id, fresh: true });
    await vi.waitFor(() => expect(proxy.holding()).toBe(1));
    proxy.release();
    expect(await again).toMatchObject({ status: 'approved' });
    proxy.clear();
  });

  it("shows the service's answer to the producer's decision in the next loaded read, not the take as it was", async () => {
    const app = await start();
    const loaded = await loadedProject(app);
    const id = loaded.take.id;
    await app.value('deliverables.approve', { id, heard: { version: 1, status: 'reviewable' } });
    await proxy.setDown(true);
    await vi.waitFor(async () => {
      const take = await app.value<Deliverable>('deliverables.get', { id });
      expect(take).toMatchObject({ id, status: 'approved' });
      expect(take.asOf).toBeDefined();
    });
    const versions = await app.value<VersionsResponse>('revisions.versions', { deliverableId: id });
    expect(versions).toMatchObject({ status: 'approved' });
    const takes = await app.value<ItemList<Deliverable>>('deliverables.list', {
      projectId: loaded.project.id,
    });
    expect(takes.items.find((d) => d.id === id)?.status).toBe('approved');
  });

  it('answers from the mirror when a gateway says 503, and from the service again once it answers', async () => {
    const app = await start();
    const loaded = await loadedProject(app);
    // The first try and the client's three retries of a GET all meet the gateway (the watcher never reads versions).
    proxy.drop('GET', `/revisions/${loaded.take.id}/versions`, { status: 503 }, 4);
    const offline = await app.value<VersionsResponse>('revisions.versions', {
      deliverableId: loaded.take.id,
      fresh: true,
    });
    expect(offline.versions).toEqual(loaded.versions.versions);
    expect(offline.asOf).toBeDefined();
    // Known away now, the next read answers from the mirror at once while its call to the service goes on; once
    // that call is answered, reads come from the service again.
    await vi.waitFor(async () => {
      const online = await app.value<VersionsResponse>('revisions.versions', {
        deliverableId: loaded.take.id,
        fresh: true,
      });
      expect(online.asOf).toBeUndefined();
    });
  });

  it('answers from the mirror after a few seconds when the service hangs, at once when it is known to be away', async () => {
    const app = await start();
    const loaded = await loadedProject(app);
    // A service that takes the request and never answers: the client would wait its timeout, and retry.
    proxy.drop('GET', `/projects/${loaded.project.id}`, 'hang', 100);
    let t0 = performance.now();
    const slow = await app.value<Project>('projects.get', { id: loaded.project.id, fresh: true });
    expect(slow.asOf).toBeDefined();
    expect(performance.now() - t0).toBeLessThan(6_000);

    // A refused call tells main the service is away: from then on what was loaded answers without waiting.
    await proxy.setDown(true);
    await app.call('projects.get', { id: 'never-loaded' });
    const profiles = await app.value<{ profiles: Array<{ id: string; reachability: string }> }>(
      'profiles.list',
    );
    expect(profiles.profiles.find((p) => p.id === 'sandbox')?.reachability).toBe('unreachable');
    await proxy.setDown(false);
    t0 = performance.now();
    const early = await app.value<Project>('projects.get', { id: loaded.project.id, fresh: true });
    expect(early.asOf).toBeDefined();
    expect(performance.now() - t0).toBeLessThan(1_000);
  }, 30_000);

  it('keeps what the watcher read too: a project the app never listed opens offline', async () => {
    // Made on another device: straight to the sandbox.
    const answer = await fetch(`${sandbox.url}/projects`, {
      method: 'POST',
      headers: { 'x-access-token': sandbox.tokens.full, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Seen by the watcher',
        mainService: 'voice_over',
        services: [voiceOverService(['W.'])],
      }),
    });
    const made = (await answer.json()) as { id: string };
    const app = await start();
    // The watcher's first poll lists the projects (the app itself reads nothing here).
    await vi.waitFor(async () => {
      const status = await app.value<{ lastPollAt: string | null }>('watcher.status');
      expect(status.lastPollAt).not.toBeNull();
    }, 15_000);
    await proxy.setDown(true);
    await vi.waitFor(async () => {
      const list = await app.value<ListProjectsResponse>('projects.list', { page: 1, pageSize: 200 });
      expect(list.asOf).toBeDefined();
      expect(list.projects.map((p) => p.id)).toContain(made.id);
    }, 15_000);
  }, 30_000);

  it('still answers after a restart with the service down', async () => {
    const first = await start();
    const loaded = await loadedProject(first);
    await first.services.dispose();
    running.splice(0);

    await proxy.setDown(true);
    const second = await start();
    const list = await second.value<ListProjectsResponse>('projects.list', { page: 1, pageSize: 200 });
    expect(list.projects.map((p) => p.id)).toContain(loaded.project.id);
    expect(list.asOf).toBeDefined();
    const project = await second.value<Project>('projects.get', { id: loaded.project.id });
    expect(project.title).toBe('Loaded before');
    const takes = await second.value<ItemList<Deliverable>>('deliverables.list', {
      projectId: loaded.project.id,
    });
    expect(takes.items.map((d) => d.id)).toEqual(loaded.takes.items.map((d) => d.id));
    const versions = await second.value<VersionsResponse>('revisions.versions', {
      deliverableId: loaded.take.id,
    });
    expect(versions.versions.length).toBe(loaded.versions.versions.length);
    // A search never made here is not guessed from other rows.
    const search = await second.call('projects.list', { page: 1, pageSize: 200, titleQuery: 'Loaded' });
    expect(search.ok || search.error.type).toBe('NOT_LOADED_OFFLINE');
  });

  it("forgets a removed account's reads (not its decisions), and at start those of an account no profile has", async () => {
    const app = await start();
    await loadedProject(app);
    await app.value('profiles.add', { name: 'Other', baseUrl: proxy.url, token: sandbox.tokens.otherUser });
    const other = await app.value<Project>('projects.create', {
      body: { title: 'Of the other', mainService: 'voice_over', services: [voiceOverService(['D.'])] },
    });
    await app.value('projects.get', { id: other.id });
    const inspect = openDatabase(join(dir, 'takedesk.sqlite'), DATABASE_MIGRATIONS).db;
    const accounts = () =>
      (
        inspect
          .prepare(
            'SELECT account FROM mirror_projects UNION SELECT account FROM mirror_list ORDER BY account',
          )
          .all() as Array<{
          account: string;
        }>
      ).map((r) => r.account);
    const [otherAccount] = accounts().filter((a) => a !== 'sandbox');
    expect(otherAccount).toContain('|');
    // A decision queued under it stays for when the same account comes back.
    inspect
      .prepare(
        `INSERT INTO decisions (id, account, profile_id, lane, decision, state, queued_at)
         VALUES ('kept', ?, 'x', 'p', '{"kind":"approve","deliverableId":"x"}', 'queued', 'now')`,
      )
      .run(otherAccount!);
    const otherProfile = (await app.value<{ activeId: string }>('profiles.list')).activeId;
    await app.value('profiles.remove', { id: otherProfile });
    await vi.waitFor(() => expect(accounts()).toEqual(['sandbox']));
    expect(
      inspect.prepare('SELECT count(*) AS n FROM mirror_list WHERE account = ?').get(otherAccount!),
    ).toEqual({ n: 0 });
    expect(inspect.prepare("SELECT id FROM decisions WHERE id = 'kept'").all()).toEqual([{ id: 'kept' }]);

    // Rows of an account with no profile (left by an earlier version) go at the next start.
    await app.services.dispose();
    running.splice(0);
    createMirror(inspect).rows('https://gone.example|sub:x', [{ id: 'p1', title: 'Left' }]);
    expect(accounts()).toContain('https://gone.example|sub:x');
    await start();
    expect(accounts()).toEqual(['sandbox']);
    inspect.close();
  });
});
