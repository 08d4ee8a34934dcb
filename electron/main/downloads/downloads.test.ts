import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Transform } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  EventName,
  EventPayloads,
  DownloadJob,
  DownloadProgress,
  LibraryItem,
  MediaFormat,
} from '../../../shared/ipc';
import {
  call,
  requestWithCa,
  startSandbox,
  audioAdsBody,
  voiceOverBody,
  type Loose,
} from '../../sandbox/test-support/test-helpers';
import { voiceOverService } from '../../sandbox/sample-bodies';
import type { Sandbox } from '../../sandbox/server';
import { createLibrary, syncFile } from '../library/library';
import { partPathFor } from '../library/sanitize';
import { analyzeFile } from '../audio/file-analysis';
import { decodePeaks } from '../audio/peaks';
import { createDownloads, type Downloads, type DownloadsDeps, type ResolvedDownload } from './queue';
import { createLeanHttpGet, leanHttpGet } from './lean-http';
import { createFollowThreads } from './follow-threads';
import { streamGet, streamResponse, withRedirects, type HttpGet } from './transport';
import { createTransferThread } from './transfer-thread';
import { type WriteChunks } from './body-writer';
import { fillingDisk, throttledGet } from './test-support/test-server';
import { HOSTILE_NAMES } from '../library/test-support/hostile-names';

// Integration tests against the real sandbox on 127.0.0.1: real HTTP, real Range/ETag, real cut connections.

interface Known {
  projectId: string;
  projectTitle: string;
  serviceSubCategory: string;
  name: string;
  urls: Record<string, string>;
}

let sb: Sandbox;
let token: string;
const deliverables = new Map<string, Known>();
let voWav = ''; // deliverable id of a voice-over part (wav ~576 KB)
let postId = ''; // post-production deliverable (wav ~8.6 MB)
let scriptId = '';
let voId2 = '';

const sha = (buf: Buffer) => createHash('sha256').update(buf).digest('hex');

const projectOf = (deliverableId: string) => deliverables.get(deliverableId)?.projectId ?? 'unknown';
/** Starts a download of a deliverable the sandbox delivered, named with its own project. */
const startOf = (downloads: Pick<Downloads, 'start'>, deliverableId: string, format: MediaFormat) =>
  downloads.start({ deliverableId, projectId: projectOf(deliverableId), format });
async function direct(url: string): Promise<Buffer> {
  if (sb.certificate) return (await requestWithCa(url, sb.certificate)).body;
  return Buffer.from(await (await fetch(url)).arrayBuffer());
}

beforeAll(async () => {
  sb = await startSandbox();
  token = sb.tokens.full;
  const vo = (await call(sb, 'POST', '/projects', { token, body: voiceOverBody() })).body as Loose;
  const ads = (await call(sb, 'POST', '/projects', { token, body: audioAdsBody() })).body as Loose;
  await sb.deliverNow();
  for (const project of [vo, ads]) {
    const list = (await call(sb, 'GET', `/deliverables/project/${project.id}`, { token })).body as Loose[];
    for (const d of list) {
      deliverables.set(d.id, {
        projectId: project.id,
        projectTitle: project.title,
        serviceSubCategory: d.serviceSubCategory,
        name: d.name,
        urls: d.urls,
      });
      if (d.serviceSubCategory === 'post-production') postId = d.id;
      if (d.serviceSubCategory === 'scriptwriting') scriptId = d.id;
      if (project === vo && !voWav) voWav = d.id;
      else if (project === vo) voId2 = d.id;
    }
  }
}, 120_000);
afterAll(() => sb.close());

const faults = (body: unknown) => call(sb, 'POST', '/_sandbox/faults', { token, body });
const clearFaults = () => call(sb, 'DELETE', '/_sandbox/faults', { token });

async function resolve(
  request: { deliverableId: string; format: MediaFormat },
  over: Partial<ResolvedDownload> = {},
): Promise<ResolvedDownload> {
  // Ask the service each time, like the real wiring does through the API client.
  const d = (await call(sb, 'GET', `/deliverables/${request.deliverableId}`, { token })).body as Loose;
  const known = deliverables.get(request.deliverableId);
  if (!known || !d?.urls) throw new Error(`unknown deliverable ${request.deliverableId}`);
  const url = request.format === 'txt' ? undefined : (d.urls[request.format] as string | undefined);
  return {
    url,
    content: request.format === 'txt' ? (d.urls.content as string) : undefined,
    projectId: known.projectId,
    projectTitle: known.projectTitle,
    serviceSubCategory: d.serviceSubCategory,
    deliverableName: d.name,
    version: 1,
    orderedSeconds: null,
    // Over HTTPS (the `https` project) the sandbox's certificate is the one trusted authority, as for its profile.
    ...(sb.certificate ? { ca: sb.certificate } : {}),
    ...over,
  };
}

/** Same figures, up to float summation order (chunk boundaries differ between streaming and a file pass). */
function expectSameAnalysis(actual: unknown, expected: Record<string, unknown>) {
  expect(Object.keys(actual as object).sort()).toEqual(Object.keys(expected).sort());
  for (const [key, value] of Object.entries(expected)) {
    const got = (actual as Record<string, unknown>)[key];
    if (typeof value === 'number' && Number.isFinite(value)) expect(got, key).toBeCloseTo(value, 9);
    else expect(got, key).toEqual(value);
  }
}

let dir: string;
let libraryDir: string;
let stateFile: string;
let events: Array<{ at: number; event: EventName; payload: unknown }>;
const managers: Array<{ close(): Promise<void> }> = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'takedesk-downloads-'));
  libraryDir = join(dir, 'Library');
  stateFile = join(dir, 'state', 'downloads.json');
  events = [];
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
  await clearFaults();
  await rm(dir, { recursive: true, force: true });
});

function manager(over: Partial<DownloadsDeps> = {}) {
  const library = createLibrary({ dir: () => libraryDir });
  const downloads = createDownloads({
    library,
    resolve: (r) => resolve(r),
    emit: <E extends EventName>(event: E, payload: EventPayloads[E]) => {
      events.push({ at: Date.now(), event, payload });
    },
    stateFile,
    concurrency: () => 2,
    retry: { attempts: 5, baseDelayMs: 5, maxDelayMs: 20 },
    ...over,
  });
  managers.push(downloads);
  return { library, downloads };
}

async function finished(
  downloads: { list(): Promise<DownloadJob[]> },
  id: string,
  states = ['done', 'failed'],
) {
  for (let i = 0; i < 2000; i++) {
    const job = (await downloads.list()).find((j) => j.id === id);
    if (job && states.includes(job.state)) return job;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`job ${id} did not reach ${states.join('/')}`);
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The sandbox cuts the WAV at 3 MB and the retry waits long enough to "quit the app"; a new manager (with a new
 * transport from `transport`) restores the job from the state file and resumes it with Range from the .part.
 */
async function restartMidDownload(transport: () => { get: HttpGet; over: Partial<DownloadsDeps> }) {
  const whole = await direct(deliverables.get(postId)!.urls.wav!);
  const cutAt = 3_000_000;
  await faults({ resetAfterBytes: cutAt, pathPrefix: '/media/' });
  const before = transport();
  const first = manager({
    ...before.over,
    fetchImpl: before.get,
    retry: { attempts: 5, baseDelayMs: 60_000, maxDelayMs: 60_000 },
  });
  const job = await startOf(first.downloads, postId, 'wav');
  const part = partOf(job);
  for (let i = 0; i < 500 && (await stat(part).catch(() => null))?.size !== cutAt; i++) await pause(10);
  expect((await stat(part)).size).toBe(cutAt);
  await first.downloads.close();
  await clearFaults();
  const saved = JSON.parse(await readFile(stateFile, 'utf8')) as Loose;
  expect(saved.jobs[0].job.state).toBe('downloading');

  const after = transport();
  const requests: Array<Record<string, string>> = [];
  const second = manager({
    ...after.over,
    fetchImpl: (u, init) => {
      requests.push(init.headers);
      return after.get(u, init);
    },
  });
  expect((await second.downloads.list())[0]!.id).toBe(job.id);
  const done = await finished(second.downloads, job.id);
  expect(done.state).toBe('done');
  expect(requests[0]!.range).toBe(`bytes=${cutAt}-`);
  expect((await second.library.get(done.libraryId!))!.sha256).toBe(sha(whole));
  expect(sha(await readFile(join(libraryDir, ...done.relativePath.split('/'))))).toBe(sha(whole));
}

/**
 * 20 downloads of the post-production WAV, each cut once by the sandbox at a seeded random offset: every one must
 * resume with Range + If-Range from the cut and end with the served bytes and their checksum.
 */
async function cutAtRandomOffsets(get: HttpGet, over: Partial<DownloadsDeps>, seed: number) {
  const whole = await direct(deliverables.get(postId)!.urls.wav!);
  let state = seed;
  const random = () => (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
  for (let trial = 0; trial < 20; trial++) {
    const offset = 1 + Math.floor(random() * (whole.length - 2));
    const requests: Array<Record<string, string>> = [];
    const cutOnce: HttpGet = async (u, init) => {
      requests.push(init.headers);
      if (requests.length === 1) await faults({ resetAfterBytes: offset, pathPrefix: '/media/' });
      else await clearFaults();
      return get(u, init);
    };
    const { downloads, library } = manager({ ...over, fetchImpl: cutOnce });
    const job = await startOf(downloads, postId, 'wav');
    const done = await finished(downloads, job.id);
    expect(done.state, `trial ${trial} offset ${offset}`).toBe('done');
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(requests[1]!.range).toBe(`bytes=${offset}-`);
    expect(requests[1]!['if-range']).toMatch(/^"/);
    expect((await library.get(done.libraryId!))!.sha256).toBe(sha(whole));
    expect(sha(await readFile(join(libraryDir, ...done.relativePath.split('/'))))).toBe(sha(whole));
    await downloads.close();
    await rm(libraryDir, { recursive: true, force: true });
    await rm(stateFile, { force: true });
  }
}

/** Where a job's `.part` is: beside its planned name, keyed by the job. */
const partOf = (job: DownloadJob) => join(libraryDir, ...partPathFor(job.relativePath, job.id).split('/'));

async function manifestItems(): Promise<LibraryItem[]> {
  const raw = JSON.parse(await readFile(join(libraryDir, '.takedesk', 'library.json'), 'utf8')) as {
    items: LibraryItem[];
  };
  return raw.items;
}

async function filesUnder(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out.push(relative(root, join(entry.parentPath, entry.name)));
  }
  return out.sort();
}

describe('downloads against the sandbox', () => {
  it('wav, mp3, pdf and txt land in the library layout with the served bytes', async () => {
    const { downloads, library } = manager();
    const jobs = [
      await startOf(downloads, voWav, 'wav'),
      await startOf(downloads, voWav, 'mp3'),
      await startOf(downloads, scriptId, 'pdf'),
      await startOf(downloads, scriptId, 'txt'),
    ];
    await downloads.idle();
    const vo = deliverables.get(voWav)!;
    const script = deliverables.get(scriptId)!;
    const expected: Array<[string, Buffer]> = [
      [vo.urls.wav!, await direct(vo.urls.wav!)],
      [vo.urls.mp3!, await direct(vo.urls.mp3!)],
      [script.urls.pdf!, await direct(script.urls.pdf!)],
      ['txt', Buffer.from(script.urls.content!, 'utf8')],
    ];
    const items = await library.list();
    expect((await downloads.list()).map((j) => [j.format, j.state, j.error])).toEqual([
      ['wav', 'done', null],
      ['mp3', 'done', null],
      ['pdf', 'done', null],
      ['txt', 'done', null],
    ]);
    expect(items).toHaveLength(4);
    for (const [i, started] of jobs.entries()) {
      const job = (await downloads.list()).find((j) => j.id === started.id)!;
      expect(job.state).toBe('done');
      const body = expected[i]![1];
      const onDisk = await readFile(join(libraryDir, ...job.relativePath.split('/')));
      expect(sha(onDisk)).toBe(sha(body));
      const item = items.find((it) => it.id === job.libraryId)!;
      expect(item).toMatchObject({ size: body.length, sha256: sha(body), format: job.format });
    }
    expect(jobs[0]!.relativePath).toMatch(
      new RegExp(
        `^Spring campaign \\(${vo.projectId.replace(/-/g, '').slice(0, 8)}\\)/voice_over-1-${voWav.slice(0, 8)}-v1\\.wav$`,
      ),
    );
    expect(jobs[3]!.relativePath).toMatch(
      new RegExp(`/scriptwriting-Script-${scriptId.slice(0, 8)}-v1\\.txt$`),
    );
    expect((await filesUnder(libraryDir)).filter((f) => f.endsWith('.part'))).toEqual([]);
    // A fresh library on the same folder (no network) sees everything.
    expect(await createLibrary({ dir: () => libraryDir }).list()).toHaveLength(4);
  });

  it('20 downloads cut at seeded random offsets all resume (Range + If-Range) to identical bytes', async () => {
    await cutAtRandomOffsets(leanHttpGet, {}, 20_251_121);
  }, 120_000);

  it('one download cut 20 times in a row still finishes identical', async () => {
    const url = deliverables.get(postId)!.urls.wav!;
    const whole = await direct(url);
    let n = 0;
    const cutting: HttpGet = async (u, init) => {
      n++;
      if (n <= 20) await faults({ resetAfterBytes: 100_000 + n * 7919, pathPrefix: '/media/' });
      else await clearFaults();
      return leanHttpGet(u, init);
    };
    const { downloads, library } = manager({ fetchImpl: cutting });
    const job = await startOf(downloads, postId, 'wav');
    const done = await finished(downloads, job.id);
    expect(done.state).toBe('done');
    expect(n).toBe(21);
    expect((await library.get(done.libraryId!))!.sha256).toBe(sha(whole));
  }, 60_000);

  it('an app restart mid-download resumes with Range from the .part and finishes identical', async () => {
    await restartMidDownload(() => ({ get: leanHttpGet, over: {} }));
  }, 60_000);

  it('a changed ETag (If-Range mismatch) restarts from zero and discards the stale .part', async () => {
    const url = deliverables.get(voWav)!.urls.wav!;
    const whole = await direct(url);
    await faults({ resetAfterBytes: 200_000, pathPrefix: '/media/' });
    const first = manager({ retry: { attempts: 5, baseDelayMs: 60_000, maxDelayMs: 60_000 } });
    const job = await startOf(first.downloads, voWav, 'wav');
    const part = partOf(job);
    for (let i = 0; i < 500 && (await stat(part).catch(() => null))?.size !== 200_000; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    await first.downloads.close();
    await clearFaults();
    // The file "changed" on the server: our stored validator no longer matches; the prefix is garbage.
    const saved = JSON.parse(await readFile(stateFile, 'utf8')) as Loose;
    saved.jobs[0].etag = '"an-older-version"';
    await writeFile(stateFile, JSON.stringify(saved));
    await writeFile(part, Buffer.alloc(200_000, 0x55));
    const second = manager();
    const done = await finished(second.downloads, job.id);
    expect(done.state).toBe('done');
    expect((await second.library.get(done.libraryId!))!.sha256).toBe(sha(whole));
  }, 60_000);

  it('a file the service does not have is answered as such (FORMAT_NOT_AVAILABLE), so the caller can ask for another', async () => {
    const { downloads } = manager({
      resolve: async () => {
        throw Object.assign(new Error('This deliverable has no WAV file.'), { type: 'FORMAT_NOT_AVAILABLE' });
      },
    });
    await expect(startOf(downloads, voWav, 'wav')).rejects.toMatchObject({ type: 'FORMAT_NOT_AVAILABLE' });
    const offline = manager({
      resolve: async () => {
        throw Object.assign(new Error('connect ECONNREFUSED'), { type: 'NETWORK_UNREACHABLE' });
      },
    });
    await expect(startOf(offline.downloads, voWav, 'wav')).rejects.toMatchObject({ type: 'RESOLVE_FAILED' });
  });

  it('hostile names from the service stay inside the library', async () => {
    const seen: string[] = [];
    for (const [i, name] of HOSTILE_NAMES.entries()) {
      const { downloads } = manager({
        resolve: (r) =>
          resolve(r, {
            projectTitle: name,
            deliverableName: name,
            serviceSubCategory: name,
            projectId: `${name}${i}`,
          }),
      });
      const job = await startOf(downloads, voWav, 'mp3');
      const done = await finished(downloads, job.id);
      expect(done.state, JSON.stringify(name)).toBe('done');
      await downloads.close();
      // One deliverable version is one library item: each download replaces the previous one's file.
      const files = (await filesUnder(libraryDir)).filter((f) => !f.startsWith('.takedesk'));
      expect(files).toEqual([done.relativePath]);
      seen.push(...files);
    }
    expect(new Set(seen).size).toBe(HOSTILE_NAMES.length);
    for (const file of seen) {
      expect(file.split('/')).toHaveLength(2);
      expect(file.includes('..') || file.includes('\u0000') || file.includes('\u202e')).toBe(false);
    }
    expect(await readdir(dir)).toEqual(expect.arrayContaining(['Library']));
    expect((await readdir(dir)).filter((f) => f !== 'Library' && f !== 'state')).toEqual([]);
  }, 60_000);

  it('a full disk (ENOSPC) fails with DISK_FULL, keeps the .part and never creates the final file', async () => {
    const disk = fillingDisk(1_000_000);
    const { downloads, library } = manager({ fetchImpl: withRedirects(createLeanHttpGet(disk.write)) });
    const job = await startOf(downloads, postId, 'wav');
    const failed = await finished(downloads, job.id);
    expect(failed.state).toBe('failed');
    expect(failed.error?.type).toBe('DISK_FULL');
    expect(failed.error?.message).toMatch(/disk is full/i);
    const final = join(libraryDir, ...job.relativePath.split('/'));
    await expect(stat(final)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await stat(partOf(job))).size).toBeGreaterThan(0);
    expect(await library.list()).toEqual([]);

    // Space freed: resume finishes from the kept .part, identical.
    disk.free();
    await downloads.resume(job.id);
    const done = await finished(downloads, job.id);
    expect(done.state).toBe('done');
    expect((await library.get(done.libraryId!))!.sha256).toBe(
      sha(await direct(deliverables.get(postId)!.urls.wav!)),
    );
  }, 60_000);

  it('permission denied and a vanished library folder give clear error types', async () => {
    const denied: WriteChunks = async () => {
      throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    };
    const a = manager({ fetchImpl: withRedirects(createLeanHttpGet(denied)) });
    const job = await startOf(a.downloads, voWav, 'mp3');
    expect((await finished(a.downloads, job.id)).error?.type).toBe('PERMISSION_DENIED');

    libraryDir = join(dir, 'unplugged-drive', 'Library');
    const b = manager();
    const job2 = await startOf(b.downloads, voWav, 'mp3');
    const failed = await finished(b.downloads, job2.id);
    expect(failed.error?.type).toBe('NOT_FOUND_LOCAL');
    await expect(stat(join(dir, 'unplugged-drive'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('pause keeps the .part, resume continues with Range, cancel deletes the .part', async () => {
    const requests: Array<Record<string, string>> = [];
    const slow = throttledGet(2_000_000);
    const { downloads } = manager({
      fetchImpl: (u, init) => {
        requests.push(init.headers);
        return slow(u, init);
      },
    });
    const job = await startOf(downloads, postId, 'wav');
    const part = partOf(job);
    while (((await downloads.list())[0]?.bytes ?? 0) < 1_000_000) await new Promise((r) => setTimeout(r, 20));
    const paused = await downloads.pause(job.id);
    expect(paused.state).toBe('paused');
    const kept = (await stat(part)).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(8_640_044);
    await new Promise((r) => setTimeout(r, 200));
    expect((await stat(part)).size).toBe(kept); // nothing is written while paused

    await downloads.resume(job.id);
    while (((await downloads.list())[0]?.bytes ?? 0) < kept + 500_000)
      await new Promise((r) => setTimeout(r, 20));
    expect(requests[1]!.range).toBe(`bytes=${kept}-`);
    const canceled = await downloads.cancel(job.id);
    expect(canceled.state).toBe('canceled');
    await expect(stat(part)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(stat(join(libraryDir, ...job.relativePath.split('/')))).rejects.toMatchObject({
      code: 'ENOENT',
    });
    const changes = events
      .filter((e) => e.event === 'downloads.changed')
      .map((e) => (e.payload as DownloadJob).state);
    expect(changes).toEqual(expect.arrayContaining(['queued', 'downloading', 'paused', 'canceled']));
  }, 60_000);

  it('a paused job stays paused across a restart; unfinished ones are queued and resume', async () => {
    const slow = throttledGet(1_000_000);
    const first = manager({ fetchImpl: slow, concurrency: () => 1 });
    const a = await startOf(first.downloads, postId, 'wav');
    const b = await startOf(first.downloads, voWav, 'wav');
    while (((await first.downloads.list())[0]?.bytes ?? 0) < 300_000)
      await new Promise((r) => setTimeout(r, 20));
    await first.downloads.pause(a.id);
    await first.downloads.close();
    const second = manager();
    const jobs = await second.downloads.list();
    expect(jobs.find((j) => j.id === a.id)?.state).toBe('paused');
    expect(jobs.find((j) => j.id === a.id)?.bytes).toBeGreaterThan(0);
    expect((await finished(second.downloads, b.id)).state).toBe('done');
    expect((await second.downloads.list()).find((j) => j.id === a.id)?.state).toBe('paused');
  }, 60_000);

  it('12 downloads cut by a sandbox kill all finish once it is back on another port and they are resumed', async () => {
    // A sandbox of its own, with a data dir so that it comes back with the same tokens and media.
    const sandboxDir = join(dir, 'sandbox');
    let current = await startSandbox({ dataDir: sandboxDir });
    const killed = current;
    try {
      const own = current.tokens.full;
      const body = voiceOverBody({
        services: [voiceOverService(['One.', 'Two.', 'Three.', 'Four.', 'Five.', 'Six.'])],
      });
      const project = (await call(current, 'POST', '/projects', { token: own, body })).body as Loose;
      await current.deliverNow();
      const list = (await call(current, 'GET', `/deliverables/project/${project.id}`, { token: own }))
        .body as Loose[];
      expect(list).toHaveLength(6);
      // Looked up at the sandbox where it is now, as the profile's client does after a restart.
      const resolveHere = async (request: { deliverableId: string; format: MediaFormat }) => {
        const d = (await call(current, 'GET', `/deliverables/${request.deliverableId}`, { token: own }))
          .body as Loose;
        return {
          url: d.urls[request.format] as string,
          projectId: project.id as string,
          projectTitle: project.title as string,
          serviceSubCategory: d.serviceSubCategory as string,
          deliverableName: d.name as string,
          version: 1,
          orderedSeconds: null,
          ...(current.certificate ? { ca: current.certificate } : {}),
        };
      };
      // The media answers wait, so that the kill finds every job unfinished (a small file would otherwise be
      // in the socket's buffers already).
      await call(current, 'POST', '/_sandbox/faults', {
        token: own,
        body: { latencyMs: 30_000, pathPrefix: '/media/' },
      });
      const { downloads } = manager({
        resolve: resolveHere,
        concurrency: () => 3,
        retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 20 },
      });
      const jobs: DownloadJob[] = [];
      for (const d of list) {
        for (const format of ['wav', 'mp3'] as const)
          jobs.push(await downloads.start({ deliverableId: d.id, projectId: project.id, format }));
      }
      expect(jobs).toHaveLength(12);
      // Two are paused before the kill: their link was looked up but never refused.
      await downloads.pause(jobs[10]!.id);
      await downloads.pause(jobs[11]!.id);
      while ((await downloads.list()).filter((j) => j.state === 'downloading').length < 3) await pause(10);
      await pause(100);
      await killed.close(); // its connections are cut, its port refuses
      await downloads.idle();
      const down = await downloads.list();
      expect(down.filter((j) => j.state === 'failed')).toHaveLength(10);
      expect(down.filter((j) => j.state === 'paused')).toHaveLength(2);

      current = await startSandbox({ dataDir: sandboxDir });
      while (new URL(current.url).port === new URL(killed.url).port) {
        await current.close(); // the same port by chance would not show anything: take another
        current = await startSandbox({ dataDir: sandboxDir });
      }
      for (const job of jobs) await downloads.resume(job.id);
      await downloads.idle();
      const back = await downloads.list();
      expect(back.map((j) => [j.state, j.error?.message ?? null])).toEqual(jobs.map(() => ['done', null]));
      for (const job of back) {
        const served = await resolveHere(job);
        const whole = current.certificate
          ? (await requestWithCa(served.url, current.certificate)).body
          : Buffer.from(await (await fetch(served.url)).arrayBuffer());
        expect(sha(await readFile(join(libraryDir, ...job.relativePath.split('/'))))).toBe(sha(whole));
      }
    } finally {
      await killed.close();
      await current.close();
    }
  }, 90_000);

  it('respects the concurrency limit and throttles progress events to at most 4 per second', async () => {
    let inFlight = 0;
    let peak = 0;
    const slow = throttledGet(3_000_000);
    const counting: HttpGet = async (u, init) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      const response = await slow(u, init);
      return { ...response, pump: (options) => response.pump(options).finally(() => inFlight--) };
    };
    const { downloads } = manager({ fetchImpl: counting, concurrency: () => 2 });
    const ids = [voWav, voId2, postId].flatMap((id) => ['wav', 'mp3'].map((format) => ({ id, format })));
    for (const { id, format } of ids) await startOf(downloads, id, format as MediaFormat);
    let maxRunning = 0;
    const started = Date.now();
    while (Date.now() - started < 30_000) {
      const jobs = await downloads.list();
      maxRunning = Math.max(maxRunning, jobs.filter((j) => j.state === 'downloading').length);
      if (jobs.every((j) => j.state === 'done')) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    expect((await downloads.list()).every((j) => j.state === 'done')).toBe(true);
    expect(peak).toBe(2);
    expect(maxRunning).toBe(2);

    const progress = events.filter((e) => e.event === 'downloads.progress');
    expect(progress.length).toBeGreaterThan(3);
    for (let i = 1; i < progress.length; i++) {
      expect(progress[i]!.at - progress[i - 1]!.at).toBeGreaterThanOrEqual(200);
    }
    const span = (progress.at(-1)!.at - progress[0]!.at) / 1000;
    expect(progress.length).toBeLessThanOrEqual(Math.ceil(span * 4) + 1);
    const samples = progress.flatMap((e) => e.payload as DownloadProgress[]);
    expect(samples.some((p) => p.rate > 500_000 && p.etaSeconds !== null && p.total !== null)).toBe(true);
  }, 60_000);

  it('runs the analyze hook on finished audio and records analysis and peaks in the library', async () => {
    const calls: Array<[string, string]> = [];
    const { downloads, library } = manager({
      analyze: async (path, format) => {
        calls.push([path, format]);
        expect((await stat(path)).size).toBeGreaterThan(0); // the final file is complete when analysed
        // As the library's own hook does: the peaks go to the hidden sidecar folder.
        await writeFile(
          await library.peaksPathOf(relative(libraryDir, path).split('\\').join('/'), true),
          'TDPK',
        );
        return {
          durationSeconds: 3,
          sampleRate: 48_000,
          channels: 1,
          bitDepth: 24,
          codec: 'pcm_s24le',
          integratedLufs: -23,
          loudnessRangeLu: 2,
          maxMomentaryLufs: -20,
          maxShortTermLufs: -21,
          truePeakDbtp: -3,
          samplePeakDbfs: -3.2,
        };
      },
    });
    const wav = await startOf(downloads, voWav, 'wav');
    const pdf = await startOf(downloads, scriptId, 'pdf');
    await downloads.idle();
    expect(calls).toEqual([[join(libraryDir, ...wav.relativePath.split('/')), 'wav']]);
    const items = await library.list();
    const wavItem = items.find((i) => i.format === 'wav')!;
    expect(wavItem).toMatchObject({ hasPeaks: true, analysis: { integratedLufs: -23, codec: 'pcm_s24le' } });
    expect(items.find((i) => i.format === 'pdf')).toMatchObject({ hasPeaks: false, analysis: null });
    expect(pdf.format).toBe('pdf');
  });

  it('analyses wav and mp3 in a worker while they stream: same figures and peaks as a pass over the file', async () => {
    const calls: string[] = [];
    const { downloads, library } = manager({
      follow: createFollowThreads({ analyze: true }),
      analyze: async (path) => {
        calls.push(path); // only when following gave no analysis
        return null;
      },
    });
    const slow = await startOf(downloads, postId, 'wav');
    const mp3 = await startOf(downloads, voWav, 'mp3');
    const pdf = await startOf(downloads, scriptId, 'pdf');
    await downloads.idle();
    expect(calls).toEqual([]);
    for (const job of [slow, mp3]) {
      const item = (await library.list()).find(
        (i) => i.deliverableId === job.deliverableId && i.format === job.format,
      )!;
      const path = join(libraryDir, ...item.relativePath.split('/'));
      const bytes = await readFile(path);
      expect(item.sha256).toBe(sha(bytes));
      expect(item.hasPeaks).toBe(true);
      const streamed = decodePeaks(
        new Uint8Array(await readFile(await library.peaksPathOf(item.relativePath))),
      );
      // The reference: one analysis pass over the finished file.
      const reference = await analyzeFile(path, { writePeaks: true });
      const { verdict: _v, peaksPath: _p, ...figures } = reference;
      expectSameAnalysis(item.analysis, figures);
      expect(decodePeaks(new Uint8Array(await readFile(`${path}.peaks`)))).toEqual(streamed);
    }
    const pdfItem = (await library.list()).find((i) => i.format === 'pdf')!;
    expect(pdfItem).toMatchObject({ analysis: null, hasPeaks: false });
    expect(pdfItem.sha256).toBe(sha(await readFile(join(libraryDir, ...pdf.relativePath.split('/')))));
  }, 60_000);

  it('a follow worker that dies leaves a correct checksum (one pass on this thread) and the analyzer as fallback', async () => {
    const broken = join(dir, 'broken-worker.mjs');
    await writeFile(broken, "throw new Error('this worker cannot start');\n");
    const analysed: string[] = [];
    const follow = createFollowThreads({ analyze: true, entry: pathToFileURL(broken) });
    const { downloads, library } = manager({
      follow,
      analyze: async (path) => {
        analysed.push(path);
        return null;
      },
    });
    const job = await startOf(downloads, voWav, 'wav');
    const done = await finished(downloads, job.id);
    await follow.close();
    expect(done.state).toBe('done');
    const item = await library.get(done.libraryId!);
    const path = join(libraryDir, ...item!.relativePath.split('/'));
    expect(item!.sha256).toBe(sha(await readFile(path)));
    expect(analysed).toEqual([path]);
  }, 60_000);

  it('an analysis of the saved file that never ends is given up at its deadline: the job is done without figures', async () => {
    const broken = join(dir, 'broken-worker-2.mjs');
    await writeFile(broken, "throw new Error('this worker cannot start');\n");
    const follow = createFollowThreads({ analyze: true, entry: pathToFileURL(broken) });
    const steps: string[] = [];
    const { downloads, library } = manager({
      follow,
      // An analysis pool that never answers (as a stuck worker would).
      analyze: () => new Promise<never>(() => undefined),
      lateAnalysisDeadline: () => 300,
      emit: <E extends EventName>(event: E, payload: EventPayloads[E]) => {
        const changed = payload as DownloadJob;
        if (event === 'downloads.changed' && changed.verifying) steps.push(changed.verifying);
      },
    });
    const job = await startOf(downloads, voWav, 'wav');
    const done = await finished(downloads, job.id);
    await follow.close();
    expect(done.state).toBe('done');
    expect(done.verifying).toBeUndefined();
    expect((await library.get(done.libraryId!))?.analysis).toBeNull();
    // The row said what the job was doing, step by step, the last one the saved file's analysis.
    expect([...new Set(steps)]).toEqual(['checking', 'measuring', 'saving', 'analysing']);
  }, 60_000);

  it('a follow worker that stops answering is given up at its deadline: the job finishes by one plain pass, and the worker is not reused', async () => {
    const stalled = join(dir, 'stalled-worker.mjs');
    const starts = join(dir, 'stalled-starts.log');
    await writeFile(
      stalled,
      "import { appendFileSync } from 'node:fs';\nimport { parentPort, threadId } from 'node:worker_threads';\n" +
        `appendFileSync(${JSON.stringify(starts)}, threadId + '\\n');\n` +
        'parentPort.on("message", () => {});\n',
    );
    const analysed: string[] = [];
    const follow = createFollowThreads({
      analyze: true,
      entry: pathToFileURL(stalled),
      finishDeadline: () => 300,
    });
    const { downloads, library } = manager({
      follow,
      analyze: async (path) => {
        analysed.push(path);
        return null;
      },
    });
    try {
      for (const format of ['wav', 'mp3'] as const) {
        const started = Date.now();
        const job = await startOf(downloads, voWav, format);
        const done = await finished(downloads, job.id);
        expect(done.state).toBe('done');
        expect(Date.now() - started).toBeLessThan(10_000);
        const item = await library.get(done.libraryId!);
        const path = join(libraryDir, ...item!.relativePath.split('/'));
        expect(item!.sha256).toBe(sha(await readFile(path)));
        expect(analysed.at(-1)).toBe(path);
      }
    } finally {
      await follow.close();
    }
    // Each download had a fresh worker: the stuck one was ended, not kept for the next.
    expect((await readFile(starts, 'utf8')).trim().split('\n')).toHaveLength(2);
  }, 60_000);

  it('a download cut mid-way and resumed still streams one analysis and one checksum over the whole file', async () => {
    let cuts = 0;
    const cutting: HttpGet = async (u, init) => {
      if (cuts++ >= 3) return leanHttpGet(u, init);
      const answer = await streamGet(u, init);
      // Deliver a prefix, then fail like a dropped connection.
      const limited = new Transform({
        transform(chunk: Buffer, _enc, done) {
          done(null, chunk);
        },
      });
      let seen = 0;
      answer.body.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (seen > 200_000) {
          answer.body.destroy();
          limited.destroy(new Error('socket hang up'));
        }
      });
      answer.body.pipe(limited);
      return streamResponse({ ...answer, body: limited });
    };
    const { downloads, library } = manager({
      fetchImpl: cutting,
      follow: createFollowThreads({ analyze: true }),
      retry: { baseDelayMs: 1, maxDelayMs: 5 },
    });
    const job = await startOf(downloads, postId, 'wav');
    await downloads.idle();
    expect(cuts).toBeGreaterThan(3);
    const item = (await library.list()).find((i) => i.id === (job.libraryId ?? i.id) && i.format === 'wav')!;
    const path = join(libraryDir, ...item.relativePath.split('/'));
    expect(item.sha256).toBe(sha(await readFile(path)));
    const { verdict: _v, peaksPath: _p, ...figures } = await analyzeFile(path);
    expectSameAnalysis(item.analysis, figures);
  }, 60_000);

  it('a finished download is flushed in the background: after close() the manifest on disk has no unsynced flag', async () => {
    const whole = await direct(deliverables.get(postId)!.urls.wav!);
    const { downloads } = manager();
    const job = await startOf(downloads, postId, 'wav');
    const done = await finished(downloads, job.id);
    expect(done.state).toBe('done');
    await downloads.close();
    const items = await manifestItems();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ id: done.libraryId, size: whole.length, sha256: sha(whole) });
    expect(items[0]).not.toHaveProperty('unsynced');
  }, 60_000);

  it("'done' comes before the data fsync, which runs on the final file; close() waits for it", async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const calls: Array<{ path: string; doneBefore: boolean; listedUnsynced: boolean | undefined }> = [];
    const { downloads, library } = manager({
      syncFile: async (path) => {
        calls.push({
          path,
          doneBefore: events.some(
            (e) => e.event === 'downloads.changed' && (e.payload as DownloadJob).state === 'done',
          ),
          listedUnsynced: (await manifestItems())[0]?.unsynced,
        });
        await held;
        await syncFile(path);
      },
    });
    const job = await startOf(downloads, voWav, 'wav');
    try {
      const done = await finished(downloads, job.id); // not held up by the flush
      expect(done.state).toBe('done');
      const final = join(libraryDir, ...job.relativePath.split('/'));
      for (let i = 0; i < 500 && calls.length === 0; i++) await pause(5);
      expect(calls).toEqual([{ path: final, doneBefore: true, listedUnsynced: true }]);
      await expect(stat(partOf(job))).rejects.toMatchObject({ code: 'ENOENT' });
      expect((await library.get(done.libraryId!))?.unsynced).toBe(true);

      let closed = false;
      const closing = downloads.close().then(() => (closed = true));
      await pause(100);
      expect(closed).toBe(false); // still flushing
      release();
      await closing;
      expect((await manifestItems())[0]).not.toHaveProperty('unsynced');
    } finally {
      release(); // a failed assertion must not leave close() (afterEach) waiting on the held flush
    }
  }, 60_000);

  it('a background fsync that fails (EIO) leaves items unsynced and the manager working; the next start re-verifies them', async () => {
    const failed: string[] = [];
    const { downloads, library } = manager({
      syncFile: async (path) => {
        failed.push(path);
        throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO', errno: -5 });
      },
    });
    const wav = await startOf(downloads, voWav, 'wav');
    expect((await finished(downloads, wav.id)).state).toBe('done');
    // After the first failure the queue still downloads.
    const mp3 = await startOf(downloads, voWav, 'mp3');
    expect((await finished(downloads, mp3.id)).state).toBe('done');
    await downloads.close();
    expect(failed).toHaveLength(2);
    expect((await library.list()).map((i) => [i.format, i.unsynced]).sort()).toEqual([
      ['mp3', true],
      ['wav', true],
    ]);
    expect((await manifestItems()).every((i) => i.unsynced === true)).toBe(true);

    // The power cut that the flush would have protected against: the mp3's tail never reached the disk.
    const mp3Path = join(libraryDir, ...mp3.relativePath.split('/'));
    await truncate(mp3Path, 1000);
    const next = createLibrary({ dir: () => libraryDir });
    expect((await next.reconcile()).map((i) => i.format)).toEqual(['mp3']);
    await expect(stat(mp3Path)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await manifestItems()).map((i) => [i.format, i.unsynced ?? false])).toEqual([['wav', false]]);
  }, 60_000);

  it('jobs wait for startAfter (the start-up check) before they run', async () => {
    let open!: () => void;
    const { downloads } = manager({ startAfter: new Promise<void>((r) => (open = r)) });
    const job = await startOf(downloads, voWav, 'mp3');
    await pause(100);
    expect((await downloads.list())[0]?.state).toBe('queued');
    open();
    expect((await finished(downloads, job.id)).state).toBe('done');
  });

  it('startProject queues every file of a project', async () => {
    const projectId = deliverables.get(postId)!.projectId;
    const { downloads } = manager({
      resolveProject: async (id, selection) =>
        [...deliverables.entries()]
          .filter(([, d]) => d.projectId === id)
          .flatMap(([deliverableId, d]) =>
            (selection?.formats ?? ['wav', 'mp3', 'pdf', 'txt'])
              .filter((f) => (f === 'txt' ? 'content' : f) in d.urls)
              .map((format) => ({ deliverableId, projectId: id, format })),
          ),
    });
    const jobs = await downloads.startProject(projectId, { formats: ['mp3', 'pdf'] });
    expect(jobs.map((j) => j.format).sort()).toEqual(['mp3', 'mp3', 'pdf']);
    await downloads.idle();
    const states = (await downloads.list()).map((j) => [j.state, j.error]);
    expect(states).toEqual(states.map(() => ['done', null]));
  });
});

describe("downloads through the transfer worker (the app's wiring)", () => {
  /** The app's setting: follow workers that analyse, and a transfer worker on their shared slots. */
  function appTransport() {
    const follow = createFollowThreads({ analyze: true });
    const transfers = createTransferThread({ slots: follow.readBuffers });
    managers.push(transfers, follow);
    const pumped: boolean[] = [];
    const http: HttpGet = async (u, init) => {
      const response = await transfers(u, init);
      pumped.push(typeof response.pump === 'function');
      return response;
    };
    return { follow, http, pumped };
  }

  it('hands the follow thread’s waveform to the live view while a job streams in, ending as the file’s own peaks', async () => {
    const { follow, http } = appTransport();
    // A slow, cut-up link (each answer stops after a few hundred KB, the engine resumes with Range), so that each
    // file takes a few seconds; the MP3 is about a tenth of the WAV.
    for (const [format, cutAt] of [
      ['wav', 400_000],
      ['mp3', 40_000],
    ] as const) {
      await faults({ resetAfterBytes: cutAt, latencyMs: 120, pathPrefix: '/media/' });
      const { downloads, library } = manager({ follow, fetchImpl: withRedirects(http) });
      expect(await downloads.envelope('no-such-job', 0)).toBeNull();
      const job = await startOf(downloads, postId, format);
      // Polled as the review screen does: only the buckets made since the last answer come each time.
      const parts: Float32Array[] = [];
      const frames: number[] = [];
      let buckets = 0;
      let declared: number | null = null;
      while ((await downloads.list()).find((j) => j.id === job.id)?.state !== 'done') {
        const envelope = await downloads.envelope(job.id, buckets);
        if (envelope) {
          expect(envelope.from).toBe(buckets);
          parts.push(envelope.minMax);
          buckets += envelope.minMax.length / 2;
          frames.push(envelope.frames);
          declared = envelope.declaredSeconds;
        }
        await pause(40);
      }
      expect(frames.filter((f, i) => f > (frames[i - 1] ?? 0)).length).toBeGreaterThan(2); // it grew as bytes came
      if (format === 'wav')
        expect(declared).toBeGreaterThan(0); // the header says how long it will be
      else expect(declared).toBeNull();
      expect(await downloads.envelope(job.id, 0)).toBeNull(); // the stream is over: the file's own peaks now

      const item = (await library.list()).find((i) => i.deliverableId === postId && i.format === format)!;
      const finest = decodePeaks(new Uint8Array(await readFile(await library.peaksPathOf(item.relativePath))))
        .levels[0]!.minMax;
      const live = new Float32Array(2 * buckets);
      let at = 0;
      for (const part of parts) {
        live.set(part, at);
        at += part.length;
      }
      // What came live is the file's own peaks, bucket for bucket, none twice (the last ones may land after the
      // last poll: the finished file's peaks take over then).
      expect(buckets).toBeGreaterThan(finest.length / 4);
      // (the sidecar stores them as 16-bit integers, rounded outwards: one step of 1/32767 apart at most)
      const worst = live.reduce((m, v, i) => Math.max(m, Math.abs(v - finest[i]!)), 0);
      expect(worst).toBeLessThanOrEqual(1 / 32767 + 1e-7);
    }
    await clearFaults();
  }, 90_000);

  it('wav, mp3 and pdf land identical, with streamed checksums, figures and peaks equal to a pass over the file', async () => {
    const { follow, http, pumped } = appTransport();
    const { downloads, library } = manager({ follow, fetchImpl: withRedirects(http) });
    const jobs = [
      await startOf(downloads, postId, 'wav'),
      await startOf(downloads, voWav, 'mp3'),
      await startOf(downloads, scriptId, 'pdf'),
    ];
    await downloads.idle();
    expect(pumped).toEqual([true, true, true]); // every body was received and written on the worker
    for (const started of jobs) {
      const job = (await downloads.list()).find((j) => j.id === started.id)!;
      expect([job.state, job.error]).toEqual(['done', null]);
      const path = join(libraryDir, ...job.relativePath.split('/'));
      const served = await direct(deliverables.get(job.deliverableId)!.urls[job.format]!);
      expect(sha(await readFile(path))).toBe(sha(served));
      const item = (await library.get(job.libraryId!))!;
      expect(item.sha256).toBe(sha(served));
      if (job.format === 'pdf') continue;
      const { verdict: _v, peaksPath: _p, ...figures } = await analyzeFile(path);
      expectSameAnalysis(item.analysis, figures);
      expect(item.hasPeaks).toBe(true);
    }
    expect((await filesUnder(libraryDir)).filter((f) => f.endsWith('.part'))).toEqual([]);
  }, 60_000);

  it('20 downloads cut at seeded random offsets all resume to identical bytes and checksums', async () => {
    const { follow, http } = appTransport();
    await cutAtRandomOffsets(http, { follow }, 20_261_122);
  }, 120_000);

  it('an app restart mid-download resumes from the .part written by the worker', async () => {
    await restartMidDownload(() => {
      const { follow, http } = appTransport();
      return { get: http, over: { follow } };
    });
  }, 60_000);
});
