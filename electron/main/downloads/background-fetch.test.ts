import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliverableReadyEvent, DownloadJob, LibraryItem, LivePeaks, Result } from '../../../shared/ipc';
import { startTestWorld, type TestWorld } from '../app/test-support/test-world';

/**
 * Background fetch and live peaks, through the router against a real sandbox: a delivery the watcher announces goes
 * into the library by itself, analysed, and a long file's waveform can be drawn while it streams in.
 */
describe('background fetch', () => {
  let world: TestWorld;

  const call = async <T>(channel: string, input?: unknown) =>
    (await world.services.router.invoke(channel, input, { transport: 'browser' })) as Result<T>;
  const value = async <T>(channel: string, input?: unknown): Promise<T> => {
    const result = await call<T>(channel, input);
    if (!result.ok) throw new Error(`${channel}: ${result.error.type} ${result.error.message}`);
    return result.value;
  };
  const control = async (path: string, body: unknown) => {
    const res = await fetch(`${world.sandbox.url}${path}`, {
      method: 'POST',
      headers: { 'x-access-token': world.sandbox.tokens.full, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBeLessThan(300);
  };
  /** What the watcher emits when it notices a delivery (its polling is tested in watcher.test.ts). */
  const announce = async (projectId: string, deliverable: { id: string; name: string; sub: string }) => {
    const state = await value<{ activeId: string }>('profiles.list');
    world.services.events.emit('deliverable.ready', {
      profileId: state.activeId,
      projectId,
      projectTitle: '',
      deliverableId: deliverable.id,
      deliverableName: deliverable.name,
      serviceSubCategory: deliverable.sub,
    } satisfies DeliverableReadyEvent);
  };
  const waitFor = async <T>(what: () => Promise<T | null | undefined>, ms = 30_000): Promise<T> => {
    const until = Date.now() + ms;
    for (;;) {
      const found = await what();
      if (found) return found;
      if (Date.now() > until) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  const deliveredAd = async (title: string, seconds: number) => {
    const project = await value<{ id: string }>('projects.create', {
      body: {
        title,
        mainService: 'audio_ads',
        services: [
          { subCategory: 'voice_over', language: 'eng-us', genderAndAge: 'middleAgeMale' },
          { subCategory: 'post-production', seconds, proSelectsMusic: true },
        ],
      },
    });
    await world.sandbox.deliverNow(project.id);
    const { items } = await value<{ items: Array<{ id: string; name: string; serviceSubCategory: string }> }>(
      'deliverables.list',
      { projectId: project.id, fresh: true },
    );
    const post = items.find((d) => d.serviceSubCategory === 'post-production')!;
    return { projectId: project.id, post: { id: post.id, name: post.name, sub: post.serviceSubCategory } };
  };

  beforeAll(async () => {
    world = await startTestWorld('background-fetch', { backgroundFetch: true });
  });
  afterAll(() => world.close());

  it('is on by default and can be turned off in the settings', async () => {
    expect(await value('settings.get')).toMatchObject({ backgroundFetch: true });
    expect(await value('settings.set', { backgroundFetch: false })).toMatchObject({ backgroundFetch: false });
    const { projectId, post } = await deliveredAd('Not fetched', 5);
    await announce(projectId, post);
    await new Promise((r) => setTimeout(r, 300));
    expect(
      (await value<Array<{ deliverableId: string }>>('downloads.list')).map((j) => j.deliverableId),
    ).not.toContain(post.id);
    await value('settings.set', { backgroundFetch: true });
    expect(await call('settings.set', { backgroundFetch: 'yes' })).toMatchObject({
      ok: false,
      error: { type: 'VALIDATION_ERROR' },
    });
  });

  it('fetches an announced delivery into the library with its loudness, without being asked', async () => {
    const { projectId, post } = await deliveredAd('Fetched by itself', 5);
    await announce(projectId, post);
    const item = await waitFor(async () =>
      (await value<LibraryItem[]>('library.list', { projectId })).find((i) => i.deliverableId === post.id),
    );
    expect(item).toMatchObject({ format: 'wav', hasPeaks: true });
    expect(item.analysis?.integratedLufs).toEqual(expect.any(Number));
  });

  it('a paused download of version 1 does not stand in for version 2: the revised delivery is fetched', async () => {
    const { projectId, post } = await deliveredAd('Revised take', 5);
    const ofPost = async () =>
      (await value<DownloadJob[]>('downloads.list')).filter((j) => j.deliverableId === post.id);
    // The media answers wait, so version 1's download is under way when it is paused.
    await control('/_sandbox/faults', { latencyMs: 60_000, pathPrefix: '/media/' });
    try {
      await announce(projectId, post);
      const v1 = await waitFor(async () => (await ofPost()).find((j) => j.state === 'downloading'));
      expect(v1.version).toBe(1);
      expect(await value('downloads.pause', { id: v1.id })).toMatchObject({ state: 'paused' });
    } finally {
      await control('/_sandbox/faults', {});
    }
    await value('revisions.create', { deliverableId: post.id, instructions: 'A little slower, please.' });
    await world.sandbox.deliverNow(projectId);
    await announce(projectId, post);

    const item = await waitFor(async () =>
      (await value<LibraryItem[]>('library.list', { projectId })).find(
        (i) => i.deliverableId === post.id && i.version === 2,
      ),
    );
    expect(item.format).toBe('wav');
    // The library entry is written as the job commits, a moment before the job itself reads `done`.
    const states = await waitFor(async () => {
      const now = (await ofPost()).map((j) => [j.version, j.state]).sort();
      return now.some(([, state]) => state === 'verifying') ? null : now;
    });
    expect(states).toEqual([
      [1, 'paused'],
      [2, 'done'],
    ]);
  }, 60_000);

  it('draws a long file as it streams in: live peaks grow, then the library has the whole file', async () => {
    const { projectId, post } = await deliveredAd('Long take', 120);
    // A slow, cut-up link: each answer stops after 3 MB and the engine resumes with Range.
    await control('/_sandbox/faults', { resetAfterBytes: 3_000_000, latencyMs: 150, pathPrefix: '/media/' });
    try {
      expect(await value('downloads.livePeaks', { deliverableId: post.id })).toBeNull();
      await announce(projectId, post);
      const first = await waitFor(async () => {
        const peaks = await value<LivePeaks | null>('downloads.livePeaks', { deliverableId: post.id });
        return peaks && peaks.received > 0 ? peaks : null;
      });
      // The whole length is known from the start; only part of it is drawn from real samples.
      expect(first.duration).toBeGreaterThan(119);
      expect(first.duration).toBeLessThan(121);
      expect(first.received).toBeLessThan(first.duration);
      expect(first.peaks).toHaveLength(2);
      const [max] = first.peaks as [number[], number[]];
      expect(max.length).toBeGreaterThan(1000);
      expect(max.slice(0, 50).some((v) => v > 0.01)).toBe(true);
      expect(max.slice(-50).every((v) => v === 0)).toBe(true);
      const later = await waitFor(async () => {
        const peaks = await value<LivePeaks | null>('downloads.livePeaks', { deliverableId: post.id });
        return peaks && peaks.received > first.received ? peaks : null;
      });
      expect(later.received).toBeGreaterThan(first.received);
    } finally {
      await control('/_sandbox/faults', {});
    }
    await waitFor(
      async () =>
        (await value<LibraryItem[]>('library.list', { projectId })).find((i) => i.deliverableId === post.id),
      60_000,
    );
    // Once the job is done the stream is over: the file's own peaks take over.
    await waitFor(async () => (await value('downloads.livePeaks', { deliverableId: post.id })) === null);
    expect(await call('downloads.livePeaks', { deliverableId: '../x' })).toMatchObject({ ok: false });
  }, 90_000);
});
