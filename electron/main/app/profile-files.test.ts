import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DownloadJob, LibraryItem, Result } from '../../../shared/ipc';
import { createSandbox, type Sandbox } from '../../sandbox/server';
import { voiceOverService } from '../../sandbox/sample-bodies';
import { createServices, type Services } from './services';
import { startTestWorld, testServicesOptions, type TestWorld } from './test-support/test-world';

/** Calls a channel as a renderer does (the router is the only way in). */
function caller(services: () => Services) {
  const call = <T>(channel: string, input?: unknown) =>
    services().router.invoke(channel, input, { transport: 'browser' }) as Promise<Result<T>>;
  const value = async <T>(channel: string, input?: unknown): Promise<T> => {
    const result = await call<T>(channel, input);
    if (!result.ok) throw new Error(`${channel}: ${result.error.type} ${result.error.message}`);
    return result.value;
  };
  return { call, value };
}

describe('files per profile: the Library and Downloads show the active profile’s own (issue 15 item 1)', () => {
  let world: TestWorld;
  const { call, value } = caller(() => world.services);

  beforeAll(async () => {
    world = await startTestWorld('profile-files');
  });
  afterAll(() => world?.close());

  async function deliveredTake(title: string): Promise<{ projectId: string; deliverableId: string }> {
    const project = await value<{ id: string }>('projects.create', {
      body: { title, mainService: 'voice_over', services: [voiceOverService(['One line to keep.'])] },
    });
    await world.sandbox.deliverNow(project.id);
    const { items } = await value<{ items: Array<{ id: string }> }>('deliverables.list', {
      projectId: project.id,
    });
    return { projectId: project.id, deliverableId: items[0]!.id };
  }

  async function settled(): Promise<DownloadJob[]> {
    for (let i = 0; i < 300; i++) {
      const jobs = await value<DownloadJob[]>('downloads.list');
      if (jobs.every((j) => j.state === 'done' || j.state === 'failed')) return jobs;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('downloads did not settle');
  }

  it('lists, serves and acts on a file only under the profile it was downloaded under', async () => {
    const take = await deliveredTake('Kept by the Sandbox profile');
    const job = await value<DownloadJob>('downloads.start', { ...take, format: 'wav' });
    expect(job.profileId).toBe('sandbox');
    await settled();
    const [item] = await value<LibraryItem[]>('library.list', { projectId: take.projectId });
    expect(item).toMatchObject({ profileId: 'sandbox', format: 'wav' });

    // Another account (a second user of the same service): none of the Sandbox profile's files or jobs.
    await value('profiles.add', {
      name: 'Other account',
      baseUrl: world.sandbox.url,
      token: world.sandbox.tokens.otherUser,
    });
    expect(await value<LibraryItem[]>('library.list')).toEqual([]);
    expect(await value<DownloadJob[]>('downloads.list')).toEqual([]);
    for (const channel of ['library.peaks', 'library.reveal', 'library.remove']) {
      const result = await call(channel, { id: item!.id });
      if (channel === 'library.peaks') expect(result).toEqual({ ok: true, value: null });
      else expect(result).toMatchObject({ ok: false, error: { type: 'NOT_FOUND_LOCAL' } });
    }
    expect(await call('downloads.cancel', { id: job.id })).toMatchObject({
      ok: false,
      error: { type: 'NOT_FOUND' },
    });
    expect(await world.services.media.library(item!.id, new Request('http://x/'))).toMatchObject({
      status: 404,
    });

    // Back on the Sandbox profile: all there, the file untouched by the refused removal.
    await value('profiles.activate', { id: 'sandbox' });
    const back = await value<LibraryItem[]>('library.list', { projectId: take.projectId });
    expect(back.map((i) => i.id)).toEqual([item!.id]);
    expect((await value<DownloadJob[]>('downloads.list')).map((j) => j.id)).toContain(job.id);
    expect(await value('library.peaks', { id: item!.id })).not.toBeNull();
  });

  it('a download under way when the producer switches finishes under its own profile', async () => {
    const take = await deliveredTake('Switched away mid-download');
    const job = await value<DownloadJob>('downloads.start', { ...take, format: 'mp3' });
    const other = (
      await value<{ profiles: Array<{ id: string; name: string }> }>('profiles.list')
    ).profiles.find((p) => p.name === 'Other account')!;
    await value('profiles.activate', { id: other.id });
    expect((await value<DownloadJob[]>('downloads.list')).map((j) => j.id)).not.toContain(job.id);
    await value('profiles.activate', { id: 'sandbox' });
    const done = (await settled()).find((j) => j.id === job.id);
    expect(done).toMatchObject({ state: 'done', profileId: 'sandbox' });
    const items = await value<LibraryItem[]>('library.list', { projectId: take.projectId });
    expect(items).toEqual([expect.objectContaining({ profileId: 'sandbox', format: 'mp3' })]);
  });

  it('files of a profile since removed show under the active profile: the producer keeps them', async () => {
    const other = (
      await value<{ profiles: Array<{ id: string; name: string }> }>('profiles.list')
    ).profiles.find((p) => p.name === 'Other account')!;
    await value('profiles.activate', { id: other.id });
    const take = await deliveredTake('Ordered by the other account');
    await value('downloads.start', { ...take, format: 'wav' });
    await settled();
    const [theirs] = await value<LibraryItem[]>('library.list', { projectId: take.projectId });
    expect(theirs).toMatchObject({ profileId: other.id });

    await value('profiles.activate', { id: 'sandbox' });
    expect(await value<LibraryItem[]>('library.list', { projectId: take.projectId })).toEqual([]);
    await value('profiles.remove', { id: other.id });
    expect(await value<LibraryItem[]>('library.list', { projectId: take.projectId })).toEqual([
      expect.objectContaining({ id: theirs!.id }),
    ]);
    expect(await value('library.peaks', { id: theirs!.id })).not.toBeNull();
  });
});

describe('files of versions before profiles kept their own', () => {
  let sandbox: Sandbox;
  let dir: string;
  let services: Services | null = null;
  beforeAll(async () => {
    sandbox = await createSandbox({ delivery: 'manual' });
    dir = await mkdtemp(join(tmpdir(), 'takedesk-untagged-'));
  });
  afterAll(async () => {
    await services?.dispose();
    await sandbox?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('go to the profile active at the first start, once, and nothing is dropped', async () => {
    const libraryDir = join(dir, 'Library');
    const untagged: Omit<LibraryItem, 'profileId'> = {
      id: 'old-item',
      projectId: 'p-old',
      projectTitle: 'Before profiles',
      deliverableId: 'd-old',
      deliverableName: 'part001',
      serviceSubCategory: 'voice_over',
      version: 1,
      format: 'txt',
      relativePath: 'Before profiles/part001.txt',
      size: 5,
      sha256: '',
      downloadedAt: '2026-01-01T00:00:00.000Z',
      orderedSeconds: null,
      analysis: null,
      hasPeaks: false,
    };
    await mkdir(join(libraryDir, 'Before profiles'), { recursive: true });
    await writeFile(join(libraryDir, 'Before profiles', 'part001.txt'), 'hello');
    await mkdir(join(libraryDir, '.takedesk'), { recursive: true });
    await writeFile(
      join(libraryDir, '.takedesk', 'library.json'),
      JSON.stringify({ version: 2, items: [untagged] }),
    );
    const oldJob: Omit<DownloadJob, 'profileId'> = {
      ...untagged,
      id: 'old-job',
      state: 'done',
      bytes: 5,
      total: 5,
      rate: 0,
      etaSeconds: null,
      error: null,
      libraryId: 'old-item',
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    await writeFile(
      join(dir, 'downloads.json'),
      JSON.stringify({
        version: 1,
        jobs: [
          {
            job: oldJob,
            request: { deliverableId: 'd-old', projectId: 'p-old', format: 'txt' },
            etag: null,
            orderedSeconds: null,
          },
        ],
      }),
    );

    services = await createServices({
      ...testServicesOptions(dir, libraryDir),
      externalSandbox: { url: sandbox.url, token: sandbox.tokens.full },
    });
    const { value } = caller(() => services!);
    expect(await value<LibraryItem[]>('library.list')).toEqual([
      expect.objectContaining({ id: 'old-item', profileId: 'sandbox' }),
    ]);
    expect(await value<DownloadJob[]>('downloads.list')).toEqual([
      expect.objectContaining({ id: 'old-job', profileId: 'sandbox' }),
    ]);
    // Written back: the next start (whatever profile is active then) finds them tagged.
    const manifest = JSON.parse(await readFile(join(libraryDir, '.takedesk', 'library.json'), 'utf8')) as {
      items: LibraryItem[];
    };
    expect(manifest.items.map((i) => i.profileId)).toEqual(['sandbox']);
    // The script text itself is kept, moved to the hidden sidecar folder by the same start (issue 26 item 8).
    expect(
      await readFile(join(libraryDir, '.takedesk', 'sidecars', 'Before profiles', 'part001.txt'), 'utf8'),
    ).toBe('hello');
  });
});
