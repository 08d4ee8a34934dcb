import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliverableReadyEvent, WatcherStatus } from '../../../shared/ipc';
import { createSandbox, type Sandbox } from '../../sandbox/server';
import { createApiClient, type ApiClient } from '../api/client';
import { createMemorySettingsStore, createProfiles, type Profiles } from '../profiles';
import { createMemorySecretStore } from '../secrets';
import { createWatcherMemoryFile } from './memory-file';
import { createTestClock } from './test-support/test-clock';
import { createWatcher, type Watcher, type WatcherMemoryStore } from './watcher';

/** Profiles in memory whose Sandbox profile is `sandbox`. */
function profilesOn(sandbox: Sandbox): Profiles {
  return createProfiles({
    settingsStore: createMemorySettingsStore(),
    secrets: createMemorySecretStore(),
    sandbox: { ensure: async () => ({ url: sandbox.url, token: sandbox.tokens.full }) },
    events: { emit: () => {} },
  });
}

let sandbox: Sandbox;
let profiles: Profiles;
let client: ApiClient;
beforeAll(async () => {
  sandbox = await createSandbox({ delivery: 'manual' });
  profiles = profilesOn(sandbox);
  client = (await profiles.active()).client;
});
afterAll(async () => {
  await sandbox?.close();
});

interface Harness {
  watcher: Watcher;
  ready: Array<DeliverableReadyEvent & { at: number }>;
  statuses: WatcherStatus[];
  /** Every request the watcher made, with the virtual time it was made at. */
  requests: Array<{ at: number; op: string; arg: unknown }>;
  clock: { now: number };
  /** Steps until nothing is due (virtual time stands still). */
  drain(): Promise<void>;
  /** Moves virtual time on by `ms`, firing the watcher's timers in order and waiting for each turn. */
  advance(ms: number): Promise<void>;
  /** The delay of the timer the watcher set last. */
  lastDelay(): number;
}

const T0 = Date.parse('2026-11-23T09:00:00Z');

function harness(options: { source?: Pick<Profiles, 'active'>; client?: ApiClient } = {}): Harness {
  const source = options.source ?? profiles;
  const clock = createTestClock(T0);
  const ready: Harness['ready'] = [];
  const statuses: WatcherStatus[] = [];
  const requests: Harness['requests'] = [];
  const counting = (inner: ApiClient): ApiClient =>
    new Proxy(inner, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          requests.push({ at: clock.now, op: String(key), arg: args[0] });
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  const watcher = createWatcher({
    profiles: {
      async active() {
        const active = await source.active();
        return { ...active, client: counting(options.client ?? active.client) };
      },
    },
    events: {
      emit(event, payload) {
        if (event === 'deliverable.ready')
          ready.push({ ...(payload as DeliverableReadyEvent), at: clock.now });
        if (event === 'watcher.status') {
          statuses.push(payload as WatcherStatus);
          clock.turned();
        }
      },
    },
    now: clock.date,
    setTimer: clock.setTimer,
  });
  return {
    watcher,
    ready,
    statuses,
    requests,
    clock,
    async drain() {
      while (await watcher.step());
    },
    advance: clock.advance,
    lastDelay: clock.lastDelay,
  };
}

async function createProject(title: string, parts = 2) {
  return client.createProject({
    title,
    mainService: 'voice_over',
    services: [
      {
        subCategory: 'voice_over',
        language: 'eng-us',
        genderAndAge: 'middleAgeMale',
        script: Array.from({ length: parts }, (_, i) => ({
          [`part00${i + 1}`]: `Part ${i + 1} of the read.`,
        })),
      },
    ],
  });
}

/** Most requests made in any 60 s window. */
function peakPerMinute(requests: Harness['requests'], from: number, to: number): number {
  let peak = 0;
  const times = requests.map((r) => r.at).filter((t) => t >= from && t <= to);
  for (const t of times) peak = Math.max(peak, times.filter((u) => u >= t && u < t + 60_000).length);
  return peak;
}

describe('watcher against the sandbox (manual delivery)', () => {
  it('emits deliverable.ready once per delivery: first delivery and each new version', async () => {
    const { watcher, ready, drain } = harness();
    const project = await createProject('Watched project');
    await drain(); // baseline: nothing delivered yet
    expect(ready).toEqual([]);
    expect(watcher.status().watching).toBeGreaterThanOrEqual(1);

    await sandbox.deliverNow(project.id);
    await watcher.poke({ projectId: project.id });
    await drain();
    const deliverables = await client.listDeliverables(project.id);
    expect(ready.map((e) => e.deliverableId).sort()).toEqual(deliverables.map((d) => d.id).sort());
    expect(ready[0]).toMatchObject({
      profileId: 'sandbox',
      projectId: project.id,
      projectTitle: 'Watched project',
    });
    expect(ready[0]!.serviceSubCategory).toBe('voice_over');

    await watcher.poke({ projectId: project.id });
    await drain();
    expect(ready).toHaveLength(2); // no repeats

    // A revision pokes by deliverable: the watcher knows its project from the deliverables it has read.
    const [first, second] = deliverables;
    await client.createRevision(first!.id, { instructions: 'Slower' });
    await watcher.poke({ deliverableId: first!.id });
    await drain();
    expect(ready).toHaveLength(2);
    await sandbox.deliverNow(project.id);
    await watcher.poke({ deliverableId: first!.id });
    await drain();
    expect(ready).toHaveLength(3);
    expect(ready[2]!.deliverableId).toBe(first!.id);

    // A revision requested and delivered between two checks is still a new version.
    await client.createRevision(second!.id, { instructions: 'Brighter' });
    await sandbox.deliverNow(project.id);
    await watcher.poke({ deliverableId: second!.id });
    await drain();
    expect(ready.map((e) => e.deliverableId)).toEqual([
      ...ready.slice(0, 3).map((e) => e.deliverableId),
      second!.id,
    ]);
    await watcher.poke({ projectId: project.id });
    await drain();
    expect(ready).toHaveLength(4);
  });

  it('does not announce what was already reviewable when it started, but does announce new projects', async () => {
    const before = await createProject('Delivered before start', 1);
    await sandbox.deliverNow(before.id);
    const { watcher, ready, drain } = harness();
    await drain();
    expect(ready.filter((e) => e.projectId === before.id)).toEqual([]);

    // Created in the app: the watcher is told at once, before any listing names it.
    const after = await createProject('Created after start', 1);
    await watcher.poke({ projectId: after.id, title: after.title });
    await sandbox.deliverNow(after.id);
    await watcher.poke({ projectId: after.id });
    await drain();
    expect(ready.map((e) => [e.projectId, e.projectTitle])).toEqual([[after.id, 'Created after start']]);

    // Created elsewhere (the web dashboard): the next listing finds it, and its delivery is news.
    const elsewhere = await createProject('Created elsewhere', 1);
    await sandbox.deliverNow(elsewhere.id);
    await watcher.poke();
    await drain();
    expect(ready.map((e) => e.projectId)).toEqual([after.id, elsewhere.id]);
    expect(ready[1]!.projectTitle).toBe('Created elsewhere');
  });

  it('stops watching projects that are canceled or have only final deliverables, until the producer acts', async () => {
    const done = await createProject('All approved', 1);
    await sandbox.deliverNow(done.id);
    const canceled = await createProject('Canceled');
    await client.cancelProject(canceled.id, { reason: '', reasonCode: 'no_longer_needed' });
    const { watcher, drain, requests } = harness();
    await drain();
    const watching = watcher.status().watching;
    await client.approveAll(done.id);
    await watcher.poke({ projectId: done.id });
    await drain(); // sees the approvals
    expect(watcher.status().watching).toBe(watching - 1);
    expect(requests.filter((r) => r.arg === canceled.id)).toEqual([]);
  });

  it('stops watching a decided contest: the losing entries wait for nothing', async () => {
    const contest = await client.createProject({
      title: 'Decided contest',
      mainService: 'voice_over',
      fulfillmentType: 'contest',
      services: [
        { subCategory: 'voice_over', language: 'eng-us', genderAndAge: 'middleAgeMale', script: 'Hi there.' },
      ],
    });
    await sandbox.deliverNow(contest.id);
    const { watcher, drain } = harness();
    await drain();
    const watching = watcher.status().watching;
    const entries = await client.listDeliverables(contest.id);
    expect(entries.length).toBeGreaterThan(1);
    await client.selectWinner(entries[0]!.id);
    await watcher.poke({ projectId: contest.id });
    await drain();
    expect(watcher.status().watching).toBe(watching - 1);
  });

  it('checks a project the app listed without waiting for its own next listing, in its budget, once', async () => {
    const { watcher, drain, requests } = harness();
    await drain();
    const fresh = await createProject('Listed by the app', 1);
    await drain();
    expect(requests.filter((r) => r.arg === fresh.id)).toEqual([]); // its own listing is minutes away
    const listed = await client.listProjects({ pageSize: 5 });
    await watcher.observe('sandbox', listed.projects);
    await drain();
    expect(requests.filter((r) => r.arg === fresh.id).map((r) => r.op)).toEqual(['listDeliverables']);
    await watcher.observe('sandbox', listed.projects); // seen again: not checked again before its interval
    await drain();
    expect(requests.filter((r) => r.arg === fresh.id)).toHaveLength(1);
  });

  it('keeps a project new since the first listing hot: a check before its delivery is followed within 60 s', async () => {
    const h = harness();
    h.watcher.start();
    await h.advance(60_000); // the first listing and its checks are done
    const fresh = await createProject('Made on the web dashboard', 1);
    await h.watcher.observe('sandbox', (await client.listProjects({ pageSize: 5 })).projects);
    await h.advance(5_000);
    expect(h.requests.filter((r) => r.arg === fresh.id).map((r) => r.op)).toEqual(['listDeliverables']);
    await sandbox.deliverNow(fresh.id); // delivered just after that first look
    const deliveredAt = h.clock.now;
    await h.advance(60_000);
    const seen = h.ready.find((e) => e.projectId === fresh.id);
    expect(seen?.at).toBeDefined();
    expect(seen!.at - deliveredAt).toBeLessThanOrEqual(60_000);
    h.watcher.stop();
  });

  it('keeps watching a project whose take was rejected until its replacement arrives', async () => {
    const replaced = await createProject('Take rejected', 1);
    await sandbox.deliverNow(replaced.id);
    const { watcher, drain, ready } = harness();
    await drain();
    const [take] = await client.listDeliverables(replaced.id);
    await client.rejectDeliverable(take!.id, {});
    await watcher.poke({ deliverableId: take!.id }); // as the reject handler does
    await drain();
    const watching = watcher.status().watching;
    await sandbox.deliverNow(replaced.id); // the replacement
    await watcher.poke({ projectId: replaced.id });
    await drain();
    const replacement = (await client.listDeliverables(replaced.id)).find((d) => d.id !== take!.id);
    expect(ready.map((e) => e.deliverableId)).toEqual([replacement!.id]);
    expect(watcher.status().watching).toBe(watching);
  });

  it('polls at once when the active profile changes (not when only its reachability does), and not after stop', async () => {
    let sink: ((event: string, payload: unknown) => void) | null = null;
    const polls: WatcherStatus[] = [];
    const watcher = createWatcher({
      profiles,
      events: {
        emit: (event, payload) => {
          if (event === 'watcher.status') polls.push(payload as WatcherStatus);
        },
        attach: (s) => {
          sink = s as typeof sink;
          return () => {
            sink = null;
          };
        },
      },
      setTimer: () => () => {},
    });
    const { start } = watcher; // detached call: the watcher must not depend on `this`
    start();
    await watcher.poke();
    const state = (activeId: string, reachability: string) => ({
      activeId,
      profiles: [{ id: activeId, signedOut: false, reachability }],
    });
    let before = polls.length;
    sink!('profile.changed', state('a', 'reachable'));
    await new Promise((r) => setTimeout(r, 200));
    expect(polls.length).toBeGreaterThan(before);
    // Only the service's reachability changed (an outcome of a request): no request of its own.
    before = polls.length;
    sink!('profile.changed', state('a', 'unreachable'));
    await new Promise((r) => setTimeout(r, 200));
    expect(polls.length).toBe(before);
    sink!('profile.changed', state('b', 'unknown'));
    await new Promise((r) => setTimeout(r, 200));
    expect(polls.length).toBeGreaterThan(before);
    watcher.stop();
    expect(sink).toBeNull();
  });

  it('backs off and reports failing when the service cannot be reached', async () => {
    const port = await freePort();
    const unreachable = createApiClient({
      baseUrl: `http://127.0.0.1:${port}`,
      getToken: async () => 't',
      retry: { retries: 0 },
    });
    const { watcher, advance, lastDelay, statuses } = harness({ client: unreachable });
    watcher.start();
    await advance(0);
    await advance(lastDelay());
    expect(statuses.at(-1)!.failing).toBe(true);
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      delays.push(lastDelay());
      await advance(lastDelay());
    }
    expect(delays).toEqual([8_000, 16_000, 32_000, 60_000, 60_000]);
    watcher.stop();
    expect(watcher.status().nextPollInMs).toBeNull();
  });
});

describe('watcher pacing (a fixed request budget; docs/service.md#no-published-limits)', () => {
  let many: Sandbox;
  let manyProfiles: Profiles;
  beforeAll(async () => {
    many = await createSandbox({ delivery: 'manual' });
    manyProfiles = profilesOn(many);
    const api = (await manyProfiles.active()).client;
    for (let i = 0; i < 120; i++) {
      await api.createProject({
        title: `In work ${i}`,
        mainService: 'voice_over',
        services: [
          { subCategory: 'voice_over', language: 'eng-us', genderAndAge: 'middleAgeMale', script: 'Hi.' },
        ],
      });
    }
  });
  afterAll(() => many?.close());

  it('spends at most 30 requests a minute while shown and 12 while hidden, with 120 projects in work', async () => {
    const h = harness({ source: manyProfiles });
    h.watcher.start();
    await h.advance(12 * 60_000);
    expect(h.watcher.status().watching).toBe(120);
    expect(peakPerMinute(h.requests, T0, h.clock.now)).toBeLessThanOrEqual(30);
    // Every project was looked at in the first 6 minutes, and again since (the rest go in turn).
    const checked = new Set(h.requests.filter((r) => r.op === 'listDeliverables').map((r) => r.arg));
    expect(checked.size).toBe(120);

    h.watcher.attend({ projectId: null, visible: false });
    const hiddenFrom = h.clock.now;
    await h.advance(10 * 60_000);
    expect(peakPerMinute(h.requests, hiddenFrom + 5_000, h.clock.now)).toBeLessThanOrEqual(12);
    h.watcher.stop();
  });

  it('says how long a round of the projects in work takes: the budget wins, the round gets longer', async () => {
    const h = harness({ source: manyProfiles });
    h.watcher.start();
    await h.advance(6 * 60_000);
    // 120 projects at 30 a minute fit in the usual 8 minutes…
    expect(h.watcher.status().cycleMs).toBe(8 * 60_000);
    // …at 12 a minute (window hidden) they do not: a round takes 120 slots of 5 s, and the status says so.
    h.watcher.attend({ projectId: null, visible: false });
    expect(h.watcher.status().cycleMs).toBe(10 * 60_000);
    h.watcher.stop();
  });

  it('tells when a project was checked and will be next, and "Check now" waits for the budget', async () => {
    const api = (await manyProfiles.active()).client;
    const { projects } = await api.listProjects({ page: 1, pageSize: 100 });
    const target = projects[7]!;
    const h = harness({ source: manyProfiles });
    h.watcher.start();
    await h.advance(6 * 60_000); // past the first look at everything
    const before = h.watcher.project(target.id);
    expect(before.watched).toBe(true);
    expect(before.checkedAt).not.toBeNull();
    expect(before.nextInMs).toBeGreaterThan(60_000); // a cold project: minutes away
    expect(h.watcher.project('00000000-0000-4000-8000-000000000000')).toEqual({
      watched: false,
      checkedAt: null,
      nextInMs: null,
    });

    // Clicking Check now ten times in a row spends no request beyond the budget's slots.
    const from = h.clock.now;
    const spent = h.requests.length;
    for (let i = 0; i < 10; i++) await h.watcher.checkNow(target.id);
    expect(h.requests.length).toBe(spent);
    expect(h.watcher.project(target.id).nextInMs).toBeLessThanOrEqual(2_000);
    await h.advance(2_000);
    const checks = h.requests.filter(
      (r) => r.op === 'listDeliverables' && r.arg === target.id && r.at >= from,
    );
    expect(checks).toHaveLength(1);
    expect(peakPerMinute(h.requests, T0, h.clock.now)).toBeLessThanOrEqual(30);
    expect(Date.parse(h.watcher.project(target.id).checkedAt!)).toBeGreaterThanOrEqual(from);
    h.watcher.stop();
  });

  it('notices a delivery within 60 s on a project the producer touched, within 10 min on the others', async () => {
    const api = (await manyProfiles.active()).client;
    const { projects } = await api.listProjects({ page: 1, pageSize: 100 });
    const [touched, untouched] = [projects[3]!, projects[40]!];
    const h = harness({ source: manyProfiles });
    h.watcher.start();
    await h.advance(8 * 60_000); // past the first look at everything
    await h.watcher.poke({ projectId: touched.id }); // e.g. a revision asked
    await h.advance(90_000);

    await many.deliverNow(touched.id);
    const hotAt = h.clock.now;
    await h.advance(60_000);
    const hot = h.ready.find((e) => e.projectId === touched.id);
    expect(hot?.at).toBeDefined();
    expect(hot!.at - hotAt).toBeLessThanOrEqual(60_000);

    await many.deliverNow(untouched.id);
    const coldAt = h.clock.now;
    await h.advance(10 * 60_000);
    const cold = h.ready.find((e) => e.projectId === untouched.id);
    expect(cold?.at).toBeDefined();
    expect(cold!.at - coldAt).toBeLessThanOrEqual(10 * 60_000);
    expect(peakPerMinute(h.requests, T0, h.clock.now)).toBeLessThanOrEqual(30);
    h.watcher.stop();
  });

  it('checks the project on screen every 15 s while the window is shown', async () => {
    const api = (await manyProfiles.active()).client;
    const { projects } = await api.listProjects({ page: 1, pageSize: 100 });
    const onScreen = projects[7]!;
    const h = harness({ source: manyProfiles });
    h.watcher.start();
    await h.advance(8 * 60_000);
    h.watcher.attend({ projectId: onScreen.id, visible: true });
    const from = h.clock.now;
    await h.advance(60_000);
    const looks = h.requests.filter((r) => r.arg === onScreen.id && r.at >= from).length;
    expect(looks).toBeGreaterThanOrEqual(4);
    expect(looks).toBeLessThanOrEqual(5);
    h.watcher.stop();
  });

  it('honours a 429 and its Retry-After before asking again', async () => {
    const throttled = createApiClient({
      baseUrl: many.url,
      getToken: async () => many.tokens.full,
      retry: { retries: 0 },
    });
    const faults = (body: unknown) =>
      fetch(`${many.url}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-access-token': many.tokens.full },
        body: JSON.stringify(body),
      });
    await faults({ throttleSeconds: 120 });
    try {
      const h = harness({ source: manyProfiles, client: throttled });
      h.watcher.start();
      await h.advance(0);
      expect(h.statuses.at(-1)!.failing).toBe(true);
      expect(h.lastDelay()).toBeGreaterThanOrEqual(120_000);
      await h.advance(119_000);
      expect(h.requests).toHaveLength(1);
      await faults({});
      await h.advance(2_000);
      expect(h.requests).toHaveLength(2);
      expect(h.statuses.at(-1)!.failing).toBe(false);
      h.watcher.stop();
    } finally {
      await faults({});
    }
  });
});

/** A port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('watcher memory across restarts', () => {
  /** One app run: a watcher on the memory file polls `polls` times; returns the projects it announced. */
  async function appRun(memory: WatcherMemoryStore): Promise<string[]> {
    const ready: string[] = [];
    const watcher = createWatcher({
      profiles,
      events: {
        emit: (event, payload) => {
          if (event === 'deliverable.ready') ready.push((payload as DeliverableReadyEvent).projectId);
        },
      },
      memory,
      setTimer: () => () => {},
    });
    while (await watcher.step());
    return ready;
  }

  it('announces what was delivered while the app was closed, and only that', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'takedesk-watcher-'));
    try {
      const file = join(dir, 'watcher.json');
      const memory = createWatcherMemoryFile(file);
      const alreadyThere = await createProject('Reviewable before the first run', 1);
      await sandbox.deliverNow(alreadyThere.id);
      const pending = await createProject('Delivered while closed', 1);

      expect(await appRun(memory)).toEqual([]); // first run: a baseline, remembered on disk
      await sandbox.deliverNow(pending.id); // the app is closed
      const second = await appRun(memory);
      expect(second).toContain(pending.id);
      expect(second).not.toContain(alreadyThere.id);
      expect(second.filter((id) => id === pending.id)).toHaveLength(1);
      expect(await appRun(memory)).toEqual([]); // nothing new the next time

      // A corrupt file is an empty memory (a fresh baseline, no flood of old deliveries).
      await writeFile(file, '{"sandbox": "not a memory"}');
      expect(await memory.load()).toEqual({});
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('watcher against a live-shaped sandbox (pages capped at 50, completed projects revised after approval)', () => {
  let live: Sandbox;
  let liveProfiles: Profiles;
  let api: ApiClient;
  /** The live sandbox's clock: a day before the watcher's, or moved back to date a project long ago. */
  let liveNow = T0 - 86_400_000;
  const inWork: string[] = [];
  const completed: string[] = [];
  let old = '';

  async function liveProject(title: string) {
    return api.createProject({
      title,
      mainService: 'voice_over',
      fulfillmentType: 'booking',
      services: [
        { subCategory: 'voice_over', language: 'eng-us', genderAndAge: 'middleAgeMale', script: 'Hi.' },
      ],
    });
  }

  /** Live shapes deliver in two steps (a pro accepts, then delivers); then every take is approved. */
  async function completeProject(id: string) {
    await live.deliverNow(id);
    await live.deliverNow(id);
    await api.approveAll(id);
  }

  beforeAll(async () => {
    live = await createSandbox({ delivery: 'manual', liveShapes: true, now: () => new Date(liveNow) });
    liveProfiles = profilesOn(live);
    api = (await liveProfiles.active()).client;
    // Ordered 100 days ago and completed: its revision window has closed.
    liveNow = T0 - 100 * 86_400_000;
    old = (await liveProject('Completed long ago')).id;
    await completeProject(old);
    liveNow = T0 - 86_400_000;
    for (let i = 0; i < 40; i++) {
      const { id } = await liveProject(`Completed ${i}`);
      await completeProject(id);
      completed.push(id);
    }
    for (let i = 0; i < 70; i++) inWork.push((await liveProject(`In work ${i}`)).id);
  });
  afterAll(() => live?.close());

  it('reads every page of a service that keeps to 50 a page, and watches only what it listed', async () => {
    const first = await api.listProjects({ page: 1, pageSize: 100 });
    expect(first.projects).toHaveLength(50); // the service's cap, not what was asked
    const h = harness({ source: liveProfiles });
    await h.drain();
    const pages = h.requests
      .filter((r) => r.op === 'listProjects')
      .map((r) => (r.arg as { page: number }).page);
    expect(pages).toEqual([1, 2, 3]); // 50, 50, then 11: short, the end
    expect(h.watcher.status().watching).toBe(70);
    const checked = new Set(h.requests.filter((r) => r.op === 'listDeliverables').map((r) => r.arg));
    for (const id of inWork) expect(checked.has(id)).toBe(true);
  });

  it('notices a revision asked after completion (elsewhere) and its delivery, within the budget', async () => {
    const h = harness({ source: liveProfiles });
    h.watcher.start();
    // The listing, a first look at everything in work, then at the completed ones, two a minute at most (the
    // first look at each is the baseline: without a memory, what is there at start is not news).
    await h.advance(30 * 60_000);
    const firstLooks = new Set(h.requests.filter((r) => r.op === 'listDeliverables').map((r) => r.arg));
    for (const id of completed) expect(firstLooks.has(id)).toBe(true);
    // Another device asks for a revision of an approved take of a completed project; the service keeps the
    // project `completed`.
    const revised = completed[17]!;
    const [take] = await api.listDeliverables(revised);
    await api.createRevision(take!.id, { instructions: 'A touch slower, please.' });
    expect((await api.getProject(revised)).status).toBe('completed');
    await live.deliverNow(revised);
    const deliveredAt = h.clock.now;
    await h.advance(60 * 60_000);
    const seen = h.ready.find((e) => e.deliverableId === take!.id);
    expect(seen?.at).toBeDefined();
    expect(seen!.at - deliveredAt).toBeLessThanOrEqual(60 * 60_000);

    // Within the budget, the completed ones at a low rate, and never one whose revision window has closed.
    expect(peakPerMinute(h.requests, T0, h.clock.now)).toBeLessThanOrEqual(30);
    // (The revised one is in work again: checked as such until it is decided.)
    const completedLooks = h.requests.filter(
      (r) => r.op === 'listDeliverables' && r.arg !== revised && completed.includes(r.arg as string),
    );
    expect(peakPerMinute(completedLooks, T0, h.clock.now)).toBeLessThanOrEqual(2);
    expect(h.requests.filter((r) => r.arg === old)).toEqual([]);

    h.watcher.attend({ projectId: null, visible: false });
    const hiddenFrom = h.clock.now;
    await h.advance(30 * 60_000);
    expect(peakPerMinute(h.requests, hiddenFrom + 5_000, h.clock.now)).toBeLessThanOrEqual(12);
    h.watcher.stop();
  });
});
