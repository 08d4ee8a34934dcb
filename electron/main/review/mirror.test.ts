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
import { startLossyProxy, type LossyProxy } from '../api/test-support';
import { createMemorySettingsStore } from '../profiles';
import { createServices, type Services } from '../services';
import { testServicesOptions } from '../test-world';
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

  it('arrives as schemas 2 and 3 on a database of schema 1, keeping its decisions', () => {
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
    expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: 3 });
    expect(db.prepare('SELECT id, state FROM decisions').all()).toEqual([{ id: 'd1', state: 'queued' }]);
    const mirror = createMirror(db, () => new Date('2026-11-26T10:42:00.000Z'));
    mirror.listed('sandbox', {}, { page: 1, total: 1, projects: [{ id: 'p1', title: 'Kept' }] });
    expect(mirror.readList('sandbox', {})).toMatchObject({
      projects: [{ id: 'p1', title: 'Kept' }],
      asOf: '2026-11-26T10:42:00.000Z',
    });
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
    const list = await app.value<ListProjectsResponse>('projects.list', { page: 1, pageSize: 200 });
    const got = await app.value<Project>('projects.get', { id: project.id });
    const takes = await app.value<ItemList<Deliverable>>('deliverables.list', { projectId: project.id });
    const take = takes.items[0]!;
    const one = await app.value<Deliverable>('deliverables.get', { id: take.id });
    const versions = await app.value<VersionsResponse>('revisions.versions', { deliverableId: take.id });
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

  it('answers from the mirror when a gateway says 503, and from the service again once it answers', async () => {
    const app = await start();
    const loaded = await loadedProject(app);
    // The first try and the client's three retries of a GET all meet the gateway (the watcher never reads versions).
    proxy.drop('GET', `/revisions/${loaded.take.id}/versions`, { status: 503 }, 4);
    const offline = await app.value<VersionsResponse>('revisions.versions', {
      deliverableId: loaded.take.id,
    });
    expect(offline.versions).toEqual(loaded.versions.versions);
    expect(offline.asOf).toBeDefined();
    // Known away now, the next read answers from the mirror at once while its call to the service goes on; once
    // that call is answered, reads come from the service again.
    await vi.waitFor(async () => {
      const online = await app.value<VersionsResponse>('revisions.versions', {
        deliverableId: loaded.take.id,
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
    const slow = await app.value<Project>('projects.get', { id: loaded.project.id });
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
    const early = await app.value<Project>('projects.get', { id: loaded.project.id });
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
});
