import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewSnapshot } from '../../../shared/ipc';
import { createSandbox, type Sandbox } from '../../sandbox/server';
import { voiceOverService } from '../../sandbox/sample-bodies';
import { serviceTime } from '../../../shared/api/schemas';
import { createMemorySettingsStore } from '../profiles';
import { createServices, type Services } from '../app/services';
import { testServicesOptions } from '../app/test-support/test-world';

/** Issue 15 item 3: the app opens on what needs the producer, also right after a restart. */
describe('the review index across an app restart', () => {
  let sandbox: Sandbox;
  let dir: string;
  const running: Services[] = [];
  beforeAll(async () => {
    sandbox = await createSandbox({ delivery: 'manual' });
    dir = await mkdtemp(join(tmpdir(), 'takedesk-review-restart-'));
  });
  afterAll(async () => {
    for (const services of running) await services.dispose();
    await sandbox?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const start = async (settingsStore = createMemorySettingsStore()) => {
    const services = await createServices({
      ...testServicesOptions(dir, join(dir, 'Library')),
      settingsStore,
      externalSandbox: { url: sandbox.url, token: sandbox.tokens.full },
    });
    running.push(services);
    const value = async <T>(channel: string, input?: unknown): Promise<T> => {
      const result = await services.router.invoke(channel, input, { transport: 'browser' });
      if (!result.ok) throw new Error(`${channel}: ${result.error.type}`);
      return result.value as T;
    };
    return { services, value };
  };

  // Before the test below, which closes the sandbox.
  it("a take's versions, read through main, are its project's latest activity (the list's 'Last activity')", async () => {
    const { services, value } = await start();
    const project = await value<{ id: string }>('projects.create', {
      body: {
        title: 'Activity from versions',
        mainService: 'voice_over',
        services: [voiceOverService(['A.'])],
      },
    });
    await sandbox.deliverNow(project.id);
    const takes = await value<{ items: Array<{ id: string }> }>('deliverables.list', {
      projectId: project.id,
    });
    const activity = async () =>
      (await value<ReviewSnapshot>('projects.review')).projects.find((p) => p.project.id === project.id)
        ?.lastActivity;
    expect(await activity()).toBeUndefined(); // the first read of its takes says nothing of when they came
    const read = await value<{ versions: Array<{ created: string }> }>('revisions.versions', {
      deliverableId: takes.items[0]!.id,
    });
    expect(Date.parse((await activity())!)).toBe(serviceTime(read.versions.at(-1)!.created));
    await services.dispose();
    running.pop();
  });

  it('answers projects.review from the saved index before the service is asked anything', async () => {
    const settingsStore = createMemorySettingsStore();
    const first = await start(settingsStore);
    const project = await first.value<{ id: string }>('projects.create', {
      body: {
        title: 'Ready before the restart',
        mainService: 'voice_over',
        services: [voiceOverService(['A.', 'B.'])],
      },
    });
    await sandbox.deliverNow(project.id);
    await first.value('projects.get', { id: project.id });
    await first.value('deliverables.list', { projectId: project.id });
    const before = await first.value<ReviewSnapshot>('projects.review');
    expect(before.projects.find((p) => p.project.id === project.id)?.counts).toMatchObject({ ready: 2 });
    await first.services.dispose();
    running.pop();

    // The service is away at the next start: whatever the list shows comes from the saved index.
    await sandbox.close();
    const second = await start(settingsStore);
    const after = await second.value<ReviewSnapshot>('projects.review');
    const row = after.projects.find((p) => p.project.id === project.id);
    expect(row?.counts).toMatchObject({ ready: 2 });
    expect(row?.asOf).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(after.profileId).toBe('sandbox');
  });
});
