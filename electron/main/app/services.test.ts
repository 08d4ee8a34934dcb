import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Result } from '../../../shared/ipc';
import type { Sandbox } from '../../sandbox/server';
import { encodeProbeMp3 } from './electron/smoke-test';
import type { Services } from './services';
import { startTestWorld, type TestWorld } from './test-support/test-world';
import { voiceOverService } from '../../sandbox/sample-bodies';

/** The whole main process under Node against a real sandbox: the router is the only way in, as for a renderer. */
describe('main-process services over the router', () => {
  let world: TestWorld;
  let sandbox: Sandbox;
  let services: Services;
  const answers: unknown[] = [];
  const events: unknown[] = [];

  const call = async <T = unknown>(channel: string, input?: unknown): Promise<Result<T>> => {
    const result = (await services.router.invoke(channel, input, { transport: 'browser' })) as Result<T>;
    answers.push(result);
    return result;
  };
  const value = async <T = unknown>(channel: string, input?: unknown): Promise<T> => {
    const result = await call<T>(channel, input);
    if (!result.ok) throw new Error(`${channel}: ${result.error.type} ${result.error.message}`);
    return result.value;
  };

  beforeAll(async () => {
    world = await startTestWorld('services');
    ({ sandbox, services } = world);
    services.events.attach((event, payload) => events.push({ event, payload }));
  });
  afterAll(() => world.close());

  it('answers app info and starts on the Sandbox profile', async () => {
    const info = await value<{ mode: string; secrets: { kind: string } }>('app.info');
    expect(info.mode).toBe('browser');
    expect(info.secrets.kind).toBe('memory');
    const state = await value<{ activeId: string; profiles: Array<{ kind: string }> }>('profiles.list');
    expect(state.activeId).toBe('sandbox');
    expect(state.profiles[0]!.kind).toBe('sandbox');
  });

  it('runs a voice-over order end to end: create, deliver, list, play through the media route, approve', async () => {
    const project = await value<{ id: string; status: string; services: Array<{ units: number }> }>(
      'projects.create',
      {
        body: {
          title: 'Router flow',
          mainService: 'voice_over',
          services: [voiceOverService(['Hello there, producers.', 'Second part here.'])],
        },
      },
    );
    expect(project.status).toBe('paid');
    expect(project.services[0]!.units).toBe(6);
    await sandbox.deliverNow(project.id);
    const { items: deliverables, unreadable } = await value<{
      items: Array<{ id: string; status: string; urls: { wav: string } }>;
      unreadable: number;
    }>('deliverables.list', { projectId: project.id });
    expect(unreadable).toBe(0);
    expect(deliverables.map((d) => d.status)).toEqual(['reviewable', 'reviewable']);

    const media = await value<{ url: string }>('media.remoteUrl', { url: deliverables[0]!.urls.wav });
    const token = media.url.split('/').pop()!;
    const ranged = await services.media.remote(
      token,
      new Request('http://x/', { headers: { range: 'bytes=0-11' } }),
    );
    expect(ranged.status).toBe(206);
    const head = Buffer.from(await ranged.arrayBuffer());
    expect(head.subarray(0, 4).toString()).toBe('RIFF');
    expect(head.subarray(8, 12).toString()).toBe('WAVE');

    const approved = await value<{ status: string }>('deliverables.approve', { id: deliverables[0]!.id });
    expect(approved.status).toBe('approved');
    const again = await call('deliverables.approve', { id: deliverables[0]!.id });
    expect(again).toMatchObject({ ok: false, error: { type: 'DELIVERABLE_ALREADY_APPROVED', status: 404 } });
  });

  it("answers the packaged smoke test's probes: the sandbox's process, and a worker thread decoding an MP3", async () => {
    expect(await services.smoke.sandbox()).toMatch(/answered GET \/projects at http:\/\/127\.0\.0\.1:\d+$/);
    const dir = await mkdtemp(join(tmpdir(), 'takedesk-probe-'));
    try {
      const mp3 = join(dir, 'probe.mp3');
      await writeFile(mp3, await encodeProbeMp3());
      expect(await services.smoke.decodeMp3(mp3)).toMatch(/^a worker thread decoded 1\.0\d s of MP3/);
      await writeFile(mp3, 'not audio');
      await expect(services.smoke.decodeMp3(mp3)).rejects.toThrow();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('keeps the service error codes and both statuses intact through the envelope', async () => {
    const missing = await call('deliverables.reject', { id: 'no-such-deliverable' });
    expect(missing).toMatchObject({
      ok: false,
      error: { type: 'DELIVERABLE_NO_EXIST', status: 400, bodyStatus: 404 },
    });
    const invalid = await call('projects.create', {
      body: { title: 'x'.repeat(101), mainService: 'voice_over' },
    });
    expect(invalid.ok).toBe(false);
    if (!invalid.ok) expect(invalid.error.status).toBe(422);
  });

  it('refuses to proxy a media URL the service never gave', async () => {
    const result = await call('media.remoteUrl', { url: 'http://127.0.0.1:1/secret' });
    expect(result).toMatchObject({ ok: false, error: { type: 'MEDIA_NOT_ALLOWED' } });
  });

  it('searches samples and plays one through the media route', async () => {
    const page = await value<{ samples: Array<{ url: string }>; total: number }>('samples.search', {
      categoryId: 'voice_over',
      pageSize: 5,
    });
    expect(page.total).toBeGreaterThanOrEqual(200);
    const media = await value<{ url: string }>('media.remoteUrl', { url: page.samples[0]!.url });
    const res = await services.media.remote(media.url.split('/').pop()!, new Request('http://x/'));
    expect(res.headers.get('content-type')).toContain('audio/mpeg');
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  });

  it('downloads wav, mp3, pdf and script text into the library, then serves, analyses and checks them offline', async () => {
    const project = await value<{ id: string }>('projects.create', {
      body: {
        title: 'Ad: spring sale / "quotes" & more',
        mainService: 'audio_ads',
        services: [
          {
            subCategory: 'scriptwriting',
            seconds: 15,
            language: 'eng-us',
            topic: 'Spring sale',
            purpose: 'Sell shoes',
            targetAudience: 'Runners',
          },
          { subCategory: 'voice_over', language: 'eng-us', genderAndAge: 'middleAgeMale' },
          { subCategory: 'post-production', seconds: 15, proSelectsMusic: true },
        ],
      },
    });
    await sandbox.deliverNow(project.id);
    const { items: deliverables } = await value<{ items: Array<{ id: string; serviceSubCategory: string }> }>(
      'deliverables.list',
      { projectId: project.id },
    );
    expect(deliverables.map((d) => d.serviceSubCategory).sort()).toEqual([
      'post-production',
      'scriptwriting',
      'voice_over',
    ]);
    const jobs = await value<Array<{ id: string; format: string }>>('downloads.startProject', {
      projectId: project.id,
    });
    expect(jobs.map((j) => j.format).sort()).toEqual(['mp3', 'mp3', 'pdf', 'wav', 'wav']);
    const script = deliverables.find((d) => d.serviceSubCategory === 'scriptwriting')!;
    await value('downloads.start', { deliverableId: script.id, projectId: project.id, format: 'txt' });

    let list: Array<{ state: string; error: unknown }> = [];
    for (let i = 0; i < 300; i++) {
      list = await value('downloads.list');
      if (list.length === 6 && list.every((j) => j.state === 'done' || j.state === 'failed')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(list.map((j) => j.state)).toEqual(Array(6).fill('done'));

    const items = await value<
      Array<{
        id: string;
        format: string;
        relativePath: string;
        hasPeaks: boolean;
        orderedSeconds: number | null;
        analysis: unknown;
      }>
    >('library.list', { projectId: project.id });
    expect(items).toHaveLength(6);
    // Deliverables in the project folder; the script's text in the hidden sidecar folder (issue 26 item 8).
    for (const item of items)
      expect(
        item.relativePath.startsWith(
          `${item.format === 'txt' ? '.takedesk/sidecars/' : ''}Ad_ spring sale _ _quotes_ & more (`,
        ),
        item.relativePath,
      ).toBe(true);
    const post = items.find((i) => i.format === 'wav' && i.relativePath.includes('post-production'))!;
    expect(post.hasPeaks).toBe(true);
    expect(post.orderedSeconds).toBe(15);
    expect(post.analysis).toMatchObject({ sampleRate: 48000, bitDepth: 24 });

    const peaks = await value<{ duration: number; peaks: number[][] }>('library.peaks', { id: post.id });
    expect(peaks.duration).toBeGreaterThan(10);
    expect(peaks.peaks).toHaveLength(2);
    // A missing sidecar is built again on demand (the MP3 on the analysis pool).
    const voice = items.find((i) => i.format === 'mp3' && i.relativePath.includes('voice_over'))!;
    const voicePeaks = join(world.dir, 'Library', '.takedesk', 'sidecars', `${voice.relativePath}.peaks`);
    expect(existsSync(join(world.dir, 'Library', `${voice.relativePath}.peaks`))).toBe(false);
    const before = await value<{ duration: number; peaks: number[][] }>('library.peaks', { id: voice.id });
    await rm(voicePeaks);
    const rebuilt = await value<{ duration: number; peaks: number[][] }>('library.peaks', { id: voice.id });
    expect(rebuilt).toEqual(before);
    expect(existsSync(voicePeaks)).toBe(true);
    const qa = await value<{ checks: Array<{ id: string }> }>('audio.qa', {
      id: post.id,
      target: 'ebu-r128',
    });
    expect(qa.checks.map((c) => c.id)).toEqual(['integrated', 'truePeak', 'duration']);

    await value('media.libraryUrl', { id: post.id });
    const res = await services.media.library(
      post.id,
      new Request('http://x/', { headers: { range: 'bytes=0-3' } }),
    );
    expect(res.status).toBe(206);
    expect(Buffer.from(await res.arrayBuffer()).toString()).toBe('RIFF');

    const removed = await value<unknown[]>('library.remove', { id: post.id });
    expect(removed).toHaveLength(5);
    expect(await call('media.libraryUrl', { id: post.id })).toMatchObject({
      ok: false,
      error: { type: 'NOT_FOUND_LOCAL' },
    });
  });

  it('never lets a token out: every answer and event of a session, including adding an account', async () => {
    await value('profiles.add', { name: 'Other', baseUrl: sandbox.url, token: sandbox.tokens.otherUser });
    await value('projects.list', { page: 1 });
    await value('profiles.activate', { id: 'sandbox' });
    await value('settings.set', { deliveryTarget: 'podcast' });
    await value('watcher.status');
    const everything = JSON.stringify({ answers, events });
    expect(events.length).toBeGreaterThan(0);
    for (const token of Object.values(sandbox.tokens)) expect(everything).not.toContain(token);
  });
});
