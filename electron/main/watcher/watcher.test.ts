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
import { createWatcher, type Watcher, type WatcherMemoryStore } from './watcher';

let sandbox: Sandbox;
let profiles: Profiles;
let client: ApiClient;
beforeAll(async () => {
  sandbox = await createSandbox({ delivery: 'manual' });
  profiles = createProfiles({
    settingsStore: createMemorySettingsStore(),
    secrets: createMemorySecretStore(),
    sandbox: { ensure: async () => ({ url: sandbox.url, token: sandbox.tokens.full }) },
    events: { emit: () => {} },
  });
  client = (await profiles.active()).client;
});
afterAll(async () => {
  await sandbox?.close();
});

interface Harness {
  watcher: Watcher;
  ready: DeliverableReadyEvent[];
  statuses: WatcherStatus[];
  timers: { fn: () => void; ms: number; canceled: boolean }[];
  /** Fires the pending timer and waits for the poll it starts. */
  tick(): Promise<WatcherStatus>;
}

function harness(source: { active: Profiles['active'] } = profiles): Harness {
  const ready: DeliverableReadyEvent[] = [];
  const statuses: WatcherStatus[] = [];
  const timers: Harness['timers'] = [];
  const waiters: ((s: WatcherStatus) => void)[] = [];
  const watcher = createWatcher({
    profiles: source,
    events: {
      emit(event, payload) {
        if (event === 'deliverable.ready') ready.push(payload as DeliverableReadyEvent);
        if (event === 'watcher.status') {
          statuses.push(payload as WatcherStatus);
          waiters.splice(0).forEach((w) => w(payload as WatcherStatus));
        }
      },
    },
    setTimer(fn, ms) {
      const timer = { fn, ms, canceled: false };
      timers.push(timer);
      return () => {
        timer.canceled = true;
      };
    },
  });
  return {
    watcher,
    ready,
    statuses,
    timers,
    tick() {
      const pending = timers.filter((t) => !t.canceled).at(-1);
      if (!pending) throw new Error('no timer pending');
      pending.canceled = true;
      const next = new Promise<WatcherStatus>((resolve) => waiters.push(resolve));
      pending.fn();
      return next;
    },
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

describe('watcher against the sandbox (manual delivery)', () => {
  it('emits deliverable.ready once per delivery: first delivery and each new version', async () => {
    const { watcher, ready } = harness();
    const project = await createProject('Watched project');
    watcher.start();
    await watcher.poke(); // baseline: nothing delivered yet
    expect(ready).toEqual([]);
    expect(watcher.status().watching).toBeGreaterThanOrEqual(1);

    await sandbox.deliverNow(project.id);
    await watcher.poke();
    const deliverables = await client.listDeliverables(project.id);
    expect(ready.map((e) => e.deliverableId).sort()).toEqual(deliverables.map((d) => d.id).sort());
    expect(ready[0]).toMatchObject({
      profileId: 'sandbox',
      projectId: project.id,
      projectTitle: 'Watched project',
    });
    expect(ready[0]!.serviceSubCategory).toBe('voice_over');

    await watcher.poke();
    await watcher.poke();
    expect(ready).toHaveLength(2); // no repeats

    const [first, second] = deliverables;
    await client.createRevision(first!.id, { instructions: 'Slower' });
    await watcher.poke();
    expect(ready).toHaveLength(2);
    await sandbox.deliverNow(project.id);
    await watcher.poke();
    expect(ready).toHaveLength(3);
    expect(ready[2]!.deliverableId).toBe(first!.id);

    // A revision requested and delivered between two polls is still a new version.
    await client.createRevision(second!.id, { instructions: 'Brighter' });
    await sandbox.deliverNow(project.id);
    await watcher.poke();
    expect(ready.map((e) => e.deliverableId)).toEqual([
      ...ready.slice(0, 3).map((e) => e.deliverableId),
      second!.id,
    ]);
    await watcher.poke();
    expect(ready).toHaveLength(4);
    watcher.stop();
  });

  it('does not announce what was already reviewable when it started, but does announce new projects', async () => {
    const before = await createProject('Delivered before start', 1);
    await sandbox.deliverNow(before.id);
    const { watcher, ready } = harness();
    watcher.start();
    await watcher.poke();
    expect(ready.filter((e) => e.projectId === before.id)).toEqual([]);

    const after = await createProject('Created after start', 1);
    await sandbox.deliverNow(after.id);
    await watcher.poke();
    expect(ready.map((e) => e.projectId)).toEqual([after.id]);
    watcher.stop();
  });

  it('stops watching projects that are canceled or have only final deliverables', async () => {
    const done = await createProject('All approved', 1);
    await sandbox.deliverNow(done.id);
    const canceled = await createProject('Canceled');
    await client.cancelProject(canceled.id, { reason: '', reasonCode: 'no_longer_needed' });
    const { watcher } = harness();
    watcher.start();
    await watcher.poke();
    const watching = watcher.status().watching;
    await client.approveAll(done.id);
    await watcher.poke(); // sees the approvals
    await watcher.poke();
    expect(watcher.status().watching).toBe(watching - 1);
    watcher.stop();
  });

  it('backs off while idle (5 s doubling to 60 s) and resets on activity', async () => {
    const { watcher, timers, tick, ready } = harness();
    watcher.start();
    await watcher.poke();
    let mark = timers.length - 1; // the timer the baseline poll set
    const delays = () => timers.slice(mark).map((t) => t.ms);
    for (let i = 0; i < 4; i++) await tick();
    expect(delays()).toEqual([10_000, 20_000, 40_000, 60_000, 60_000]);

    const project = await createProject('Activity resets the pace', 1);
    await tick(); // a new project with no deliverables is not activity yet
    await sandbox.deliverNow(project.id);
    mark = timers.length;
    const status = await tick();
    expect(ready.at(-1)?.projectId).toBe(project.id);
    expect(delays()).toEqual([5_000]);
    expect(status.failing).toBe(false);
    expect(status.nextPollInMs).toBeGreaterThan(4_000);
    expect(status.lastPollAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    watcher.stop();
    expect(watcher.status().nextPollInMs).toBeNull();
  });

  it('polls at once when the active profile changes, and not after stop', async () => {
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
    const before = polls.length;
    sink!('profile.changed', {});
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
    const active = await profiles.active();
    const { watcher, timers, tick } = harness({ active: async () => ({ ...active, client: unreachable }) });
    watcher.start();
    await watcher.poke();
    expect(watcher.status().failing).toBe(true);
    const mark = timers.length;
    const status = await tick();
    await tick();
    expect(status.failing).toBe(true);
    expect(timers.slice(mark).map((t) => t.ms)).toEqual([20_000, 40_000]);
    watcher.stop();
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
  async function appRun(memory: WatcherMemoryStore, polls = 1): Promise<string[]> {
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
    watcher.start();
    for (let i = 0; i < polls; i++) await watcher.poke();
    watcher.stop();
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
      const second = await appRun(memory, 2);
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
