import { createHash, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DownloadJob, EventName, LibraryItem, MediaFormat, Result } from '../../../shared/ipc';
import { call, startSandbox, voiceOverBody, type Loose } from '../../sandbox/test-support/test-helpers';
import { voiceOverService } from '../../sandbox/sample-bodies';
import type { Sandbox } from '../../sandbox/server';
import { createLibrary } from '../library/library';
import { partPathFor } from '../library/sanitize';
import { startTestWorld } from '../app/test-support/test-world';
import { createDownloads, type DownloadsDeps, type ResolvedDownload } from './queue';
import { createLeanHttpGet, leanHttpGet } from './lean-http';
import { fillingDisk, throttledGet } from './test-support/test-server';

// Issue 13, items 4, 5 and 9b: every library file has its own path per deliverable and version, nothing is renamed
// over another item's file, the library never follows a link out of itself, and a DISK_FULL part can be removed.
// Integration tests against the real sandbox on 127.0.0.1.

const sha = (buf: Buffer) => createHash('sha256').update(buf).digest('hex');
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function filesUnder(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isDirectory()) out.push(relative(root, join(entry.parentPath, entry.name)));
  }
  return out.sort();
}

describe('reject and replace, through the services (the issue 13 item 4 scenario)', () => {
  it('the rejected deliverable and its replacement keep their own files; removing the rejected one leaves the replacement', async () => {
    const world = await startTestWorld('reject-replace');
    try {
      const { services, sandbox } = world;
      const value = async <T = unknown>(channel: string, input?: unknown): Promise<T> => {
        const result = (await services.router.invoke(channel, input, { transport: 'browser' })) as Result<T>;
        if (!result.ok) throw new Error(`${channel}: ${result.error.type} ${result.error.message}`);
        return result.value;
      };
      const waitDone = async () => {
        for (let i = 0; i < 600; i++) {
          const jobs = await value<DownloadJob[]>('downloads.list');
          if (jobs.every((j) => j.state === 'done' || j.state === 'failed')) return jobs;
          await pause(50);
        }
        throw new Error('downloads did not finish');
      };
      const project = await value<{ id: string }>('projects.create', {
        body: {
          title: 'Reject me',
          mainService: 'voice_over',
          services: [voiceOverService(['Only one part.'])],
        },
      });
      await sandbox.deliverNow(project.id);
      const {
        items: [first],
      } = await value<{ items: Array<{ id: string; name: string; urls: { wav: string } }> }>(
        'deliverables.list',
        { projectId: project.id },
      );
      await value('downloads.start', { deliverableId: first!.id, format: 'wav', projectId: project.id });
      await waitDone();
      await value('deliverables.reject', { id: first!.id, reason: 'Wrong tone' });
      await sandbox.deliverNow(project.id);
      const { items: list } = await value<{
        items: Array<{ id: string; name: string; status: string; urls: { wav: string } }>;
        // The service's answer after the change (the mirror holds the list as it was before the reject).
      }>('deliverables.list', { projectId: project.id, fresh: true });
      const replacement = list.find((d) => d.id !== first!.id)!;
      expect(replacement.name).toBe(first!.name); // the same name: the old layout put both at one path
      await value('downloads.start', { deliverableId: replacement.id, format: 'wav', projectId: project.id });
      const jobs = await waitDone();
      expect(jobs.map((j) => [j.state, j.error])).toEqual([
        ['done', null],
        ['done', null],
      ]);

      const items = await value<LibraryItem[]>('library.list', { projectId: project.id });
      expect(items).toHaveLength(2);
      const old = items.find((i) => i.deliverableId === first!.id)!;
      const neu = items.find((i) => i.deliverableId === replacement.id)!;
      expect(old.relativePath).not.toBe(neu.relativePath);
      const served = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());
      const libraryDir = join(world.dir, 'Library');
      for (const [item, url] of [
        [old, first!.urls.wav],
        [neu, replacement.urls.wav],
      ] as const) {
        const bytes = await readFile(join(libraryDir, ...item.relativePath.split('/')));
        expect(sha(bytes)).toBe(item.sha256);
        expect(item.sha256).toBe(sha(await served(url)));
      }
      expect(old.sha256).not.toBe(neu.sha256);

      await value('library.remove', { id: old.id });
      await expect(stat(join(libraryDir, ...old.relativePath.split('/')))).rejects.toMatchObject({
        code: 'ENOENT',
      });
      const kept = await readFile(join(libraryDir, ...neu.relativePath.split('/')));
      expect(sha(kept)).toBe(neu.sha256);
      expect(
        (await value<LibraryItem[]>('library.list', { projectId: project.id })).map((i) => i.id),
      ).toEqual([neu.id]);
    } finally {
      await world.close();
    }
  }, 90_000);
});

describe('library paths against the sandbox', () => {
  let sb: Sandbox;
  let token: string;
  /** Six voice-over parts: six deliverables with different audio. */
  let sources: Array<{ id: string; projectId: string; wav: string; mp3: string }> = [];
  const served = new Map<string, Buffer>();

  beforeAll(async () => {
    sb = await startSandbox();
    token = sb.tokens.full;
    const body = voiceOverBody({
      services: [voiceOverService(['One.', 'Two two.', 'Three three three.', 'Four.', 'Five five.', 'Six.'])],
    });
    const project = (await call(sb, 'POST', '/projects', { token, body })).body as Loose;
    await sb.deliverNow();
    const list = (await call(sb, 'GET', `/deliverables/project/${project.id}`, { token })).body as Loose[];
    sources = list.map((d) => ({ id: d.id, projectId: project.id, wav: d.urls.wav, mp3: d.urls.mp3 }));
    for (const s of sources) {
      for (const url of [s.wav, s.mp3]) served.set(url, Buffer.from(await (await fetch(url)).arrayBuffer()));
    }
  }, 120_000);
  afterAll(() => sb.close());

  let dir: string;
  let libraryDir: string;
  let outside: string;
  const managers: Array<{ close(): Promise<void> }> = [];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'takedesk-paths-'));
    libraryDir = join(dir, 'Library');
    outside = join(dir, 'outside');
    await mkdir(libraryDir);
    await mkdir(outside);
    await writeFile(join(outside, 'precious.txt'), 'do not touch');
  });
  afterEach(async () => {
    await Promise.all(managers.splice(0).map((m) => m.close()));
    await rm(dir, { recursive: true, force: true });
  });

  /** Fake deliverables (own ids, hostile names) that each serve one of the real files. */
  type Fake = { deliverableId: string; name: string; url: string; projectTitle?: string };
  function manager(fakes: Fake[], over: Partial<DownloadsDeps> = {}) {
    const library = createLibrary({ dir: () => libraryDir });
    const byId = new Map(fakes.map((f) => [f.deliverableId, f]));
    const downloads = createDownloads({
      library,
      resolve: async (r): Promise<ResolvedDownload> => {
        const fake = byId.get(r.deliverableId)!;
        return {
          url: fake.url,
          projectId: sources[0]!.projectId,
          projectTitle: fake.projectTitle ?? 'Hostile names',
          serviceSubCategory: 'voice_over',
          deliverableName: fake.name,
          version: r.version ?? 1,
          orderedSeconds: null,
        };
      },
      emit: <E extends EventName>(_event: E) => undefined,
      stateFile: join(dir, 'state', 'downloads.json'),
      concurrency: () => 6,
      retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 },
      ...over,
    });
    managers.push(downloads);
    return { library, downloads };
  }

  /** One fake deliverable serving the first source, and the path the library plans for its item. */
  function oneFake(over: Partial<DownloadsDeps> = {}) {
    const fake: Fake = { deliverableId: randomUUID(), name: '1', url: sources[0]!.wav };
    const { downloads, library } = manager([fake], over);
    const planned = library.planPath({
      projectId: sources[0]!.projectId,
      projectTitle: 'Hostile names',
      serviceSubCategory: 'voice_over',
      deliverableName: fake.name,
      deliverableId: fake.deliverableId,
      version: 1,
      format: 'wav',
    });
    return { fake, downloads, library, planned };
  }

  const startWav = (downloads: ReturnType<typeof manager>['downloads'], fake: Fake) =>
    downloads.start({ deliverableId: fake.deliverableId, projectId: 'fake-project', format: 'wav' });

  async function settle(downloads: { list(): Promise<DownloadJob[]> }, count: number) {
    for (let i = 0; i < 1500; i++) {
      const jobs = await downloads.list();
      if (jobs.length === count && jobs.every((j) => ['done', 'failed', 'canceled'].includes(j.state)))
        return jobs;
      await pause(10);
    }
    throw new Error('downloads did not settle');
  }

  /** Every item has its own file, holding the bytes its source served. */
  async function expectOwnFiles(items: LibraryItem[], urlOf: (item: LibraryItem) => string) {
    expect(new Set(items.map((i) => i.relativePath)).size).toBe(items.length);
    for (const item of items) {
      const bytes = await readFile(join(libraryDir, ...item.relativePath.split('/')));
      expect(item.sha256, item.deliverableName).toBe(sha(served.get(urlOf(item))!));
      expect(sha(bytes), item.deliverableName).toBe(item.sha256);
    }
  }

  it('hostile names that sanitise alike ("Take/1", "Take:1", "Take|1", "Take_1", "..", "...") each keep their own file', async () => {
    const names = ['Take/1', 'Take:1', 'Take|1', 'Take_1', '..', '...'];
    const fakes = names.map((name, i) => ({ deliverableId: randomUUID(), name, url: sources[i]!.wav }));
    const { downloads, library } = manager(fakes, { concurrency: () => 1 });
    for (const fake of fakes) await startWav(downloads, fake);
    const jobs = await settle(downloads, fakes.length);
    expect(jobs.map((j) => [j.state, j.error])).toEqual(fakes.map(() => ['done', null]));
    const items = await library.list();
    expect(items).toHaveLength(fakes.length);
    const urlOf = (item: LibraryItem) => fakes.find((f) => f.deliverableId === item.deliverableId)!.url;
    await expectOwnFiles(items, urlOf);
    // Removing each one deletes its own file only.
    for (const [n, item] of items.entries()) {
      await library.remove(item.id);
      await expectOwnFiles(items.slice(n + 1), urlOf);
    }
    expect((await filesUnder(libraryDir)).filter((f) => !f.startsWith('.takedesk'))).toEqual([]);
  }, 60_000);

  it('two colliding jobs running at once never share a .part, and both land complete', async () => {
    const slow = throttledGet(4_000_000);
    const fakes = [0, 1].map((i) => ({ deliverableId: randomUUID(), name: '1', url: sources[i]!.wav }));
    let overlapped = false;
    const { downloads, library } = manager(fakes, {
      fetchImpl: async (url, init) => {
        const response = await slow(url, init);
        return response;
      },
    });
    const jobs = await Promise.all(fakes.map((f) => startWav(downloads, f)));
    // Both are transferring at the same time, each into its own part.
    for (let i = 0; i < 500 && !overlapped; i++) {
      const now = await downloads.list();
      overlapped = now.filter((j) => j.state === 'downloading' && j.bytes > 0).length === 2;
      if (!overlapped) await pause(5);
    }
    expect(overlapped).toBe(true);
    const parts = (await filesUnder(libraryDir)).filter((f) => f.endsWith('.part'));
    expect(parts).toHaveLength(2);
    expect(jobs[0]!.id).not.toBe(jobs[1]!.id);
    await settle(downloads, 2);
    expect((await downloads.list()).map((j) => j.state)).toEqual(['done', 'done']);
    const items = await library.list();
    expect(items).toHaveLength(2);
    await expectOwnFiles(items, (item) => fakes.find((f) => f.deliverableId === item.deliverableId)!.url);
    expect((await filesUnder(libraryDir)).filter((f) => f.endsWith('.part'))).toEqual([]);
  }, 60_000);

  it('a file that already sits at the final name (not this item\u2019s) is never replaced', async () => {
    const { fake, downloads, library, planned } = oneFake();
    const squatter = join(libraryDir, ...planned.split('/'));
    await mkdir(join(squatter, '..'), { recursive: true });
    await writeFile(squatter, 'a file somebody else put here');
    const job = await startWav(downloads, fake);
    expect((await settle(downloads, 1))[0]).toMatchObject({ id: job.id, state: 'done', error: null });
    expect(await readFile(squatter, 'utf8')).toBe('a file somebody else put here');
    const [item] = await library.list();
    expect(item!.relativePath).not.toBe(planned);
    await expectOwnFiles([item!], () => fake.url);
  }, 60_000);

  describe('links inside the library (item 5)', () => {
    it('a project folder that links out of the library: the download fails clearly and writes nothing outside', async () => {
      const { fake, downloads, library, planned } = oneFake();
      await symlink(outside, join(libraryDir, planned.split('/')[0]!), 'dir');
      await startWav(downloads, fake);
      const [job] = await settle(downloads, 1);
      expect(job!.state).toBe('failed');
      expect(job!.error?.type).toBe('PATH_ESCAPE');
      expect(job!.error?.message).toMatch(/link/i);
      expect(await readdir(outside)).toEqual(['precious.txt']);
      expect(await library.list()).toEqual([]);
    }, 60_000);

    it('links at the final name, the .peaks sidecar and the part are never written through', async () => {
      const { fake, downloads, library, planned } = oneFake({
        follow: (await import('./follow-threads')).createFollowThreads({ analyze: true }),
      });
      const final = join(libraryDir, ...planned.split('/'));
      await mkdir(join(final, '..'), { recursive: true });
      const target = join(outside, 'precious.txt');
      await symlink(target, final);
      const sidecar = await library.peaksPathOf(planned, true);
      await symlink(target, sidecar);
      const job = await startWav(downloads, fake);
      await symlink(target, join(libraryDir, ...partPathFor(planned, job.id).split('/')));
      const [settled] = await settle(downloads, 1);
      // The planted part refuses the transfer; nothing outside changes.
      expect(settled!.state).toBe('failed');
      expect(settled!.error?.type).toBe('PATH_ESCAPE');
      expect(await readFile(target, 'utf8')).toBe('do not touch');
      // Without the planted part, the file goes to a path of its own inside; the links stay links.
      await rm(join(libraryDir, ...partPathFor(planned, job.id).split('/')));
      await downloads.resume(job.id);
      const [done] = await settle(downloads, 1);
      expect([done!.state, done!.error]).toEqual(['done', null]);
      expect(await readFile(target, 'utf8')).toBe('do not touch');
      expect(await readdir(outside)).toEqual(['precious.txt']);
      const [item] = await library.list();
      expect(item!.relativePath).not.toBe(planned);
      await expectOwnFiles([item!], () => fake.url);
      expect(item!.hasPeaks).toBe(true);
      await library.remove(item!.id);
      expect(await readFile(target, 'utf8')).toBe('do not touch');
    }, 60_000);
  });

  describe('a full disk (item 9b)', () => {
    it('the DISK_FULL error says the partial file is kept and how to remove it; cancel removes it', async () => {
      const disk = fillingDisk(200_000);
      const { fake, downloads } = oneFake({ fetchImpl: createLeanHttpGet(disk.write) });
      const job = await startWav(downloads, fake);
      const [failed] = await settle(downloads, 1);
      expect(failed!.error?.type).toBe('DISK_FULL');
      expect(failed!.error?.message).toMatch(/partial file is kept/i);
      expect(failed!.error?.message).toMatch(/Retry/);
      expect(failed!.error?.message).toMatch(/Remove partial file/);
      const part = join(libraryDir, ...partPathFor(job.relativePath, job.id).split('/'));
      expect((await stat(part)).size).toBe(200_000);
      const canceled = await downloads.cancel(job.id);
      expect(canceled.state).toBe('canceled');
      await expect(stat(part)).rejects.toMatchObject({ code: 'ENOENT' });
      expect((await filesUnder(libraryDir)).filter((f) => !f.startsWith('.takedesk'))).toEqual([]);
    }, 60_000);
  });

  it('a .part left by an older version (beside the final name) is taken over by its job after the update', async () => {
    const fake = { deliverableId: randomUUID(), name: '1', url: sources[0]!.wav };
    const whole = served.get(fake.url)!;
    const legacyRel = `Hostile names (${sources[0]!.projectId.replace(/-/g, '').slice(0, 8)})/voice_over-1-v1.wav`;
    const legacyPart = join(libraryDir, ...legacyRel.split('/')) + '.part';
    await mkdir(join(legacyPart, '..'), { recursive: true });
    await writeFile(legacyPart, whole.subarray(0, 100_000));
    const jobId = randomUUID();
    const job: DownloadJob = {
      id: jobId,
      projectId: sources[0]!.projectId,
      projectTitle: 'Hostile names',
      deliverableId: fake.deliverableId,
      deliverableName: '1',
      serviceSubCategory: 'voice_over',
      version: 1,
      format: 'wav' as MediaFormat,
      state: 'downloading',
      bytes: 100_000,
      total: whole.length,
      rate: 0,
      etaSeconds: null,
      error: null,
      relativePath: legacyRel,
      libraryId: null,
      createdAt: new Date().toISOString(),
    };
    await mkdir(join(dir, 'state'));
    const etag = (await fetch(fake.url, { method: 'HEAD' })).headers.get('etag');
    await writeFile(
      join(dir, 'state', 'downloads.json'),
      JSON.stringify({
        version: 1,
        jobs: [
          { job, request: { deliverableId: fake.deliverableId, format: 'wav' }, etag, orderedSeconds: null },
        ],
      }),
    );
    const requests: Array<Record<string, string>> = [];
    const { downloads, library } = manager([fake], {
      fetchImpl: (url, init) => {
        requests.push(init.headers);
        return leanHttpGet(url, init);
      },
    });
    const [done] = await settle(downloads, 1);
    expect([done!.state, done!.error]).toEqual(['done', null]);
    expect(requests[0]!.range).toBe('bytes=100000-');
    const [item] = await library.list();
    expect(item!.relativePath).not.toBe(legacyRel);
    expect(item!.sha256).toBe(sha(whole));
    await expect(stat(legacyPart)).rejects.toMatchObject({ code: 'ENOENT' });
  }, 60_000);
});
