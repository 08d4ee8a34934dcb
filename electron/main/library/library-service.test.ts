import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LibraryItem, Result } from '../../../shared/ipc';
import { voiceOverService } from '../../sandbox/sample-bodies';
import { createAnalyzer, type Analyzer } from '../audio/analyzer';
import { encodeMp3, encodeWav, stereoTones } from '../audio/test-support/test-signals';
import { toErrorBody } from '../app/ipc/router';
import { createEventBus } from '../kernel/events';
import { createMediaRegistry } from '../media/media-registry';
import type { SettingsService } from '../profiles/settings';
import { startTestWorld, type TestWorld } from '../app/test-support/test-world';
import { createLibraryService, type LibraryService } from './library-service';
import { libraryItem } from './test-support/library-item';

// The library as the handlers and the media route see it, over real files: an item's file replaced by a link, a
// folder or junk is refused or reported with a typed error in plain words, and nothing is read through a link.

let dir: string;
let libraryDir: string;
let analyzer: Analyzer;
let service: LibraryService;

const WAV = Buffer.from(
  encodeWav(stereoTones(48_000, [{ dbfs: -20, seconds: 1 }]), { sampleRate: 48_000, bits: 16 }),
);
const SECRET = Buffer.from('bytes from outside the library, never to be served\n');

/** An entry whose file is `WAV`, checksum unknown: the service measures it when asked. */
function item(over: Partial<LibraryItem> = {}): LibraryItem {
  return libraryItem({ profileId: 'sandbox', size: WAV.length, sha256: '', ...over });
}

const fileOf = (it: LibraryItem) => join(libraryDir, ...it.relativePath.split('/'));

/** Lists an item whose file is `WAV`, then puts `replace` in its place (after listing, as a user or tool would). */
async function listed(over: Partial<LibraryItem> = {}, replace?: (path: string) => Promise<void>) {
  const entry = item(over);
  const path = fileOf(entry);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, WAV);
  await service.library.upsert(entry);
  if (replace) {
    await rm(path, { force: true });
    await replace(path);
  }
  return entry;
}

const outside = async () => {
  const path = join(dir, 'outside.wav');
  await writeFile(path, SECRET);
  return path;
};
const linkOut = async (path: string) => symlink(await outside(), path);
const folderIn = async (path: string) => mkdir(path);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'takedesk-library-service-'));
  libraryDir = join(dir, 'Library');
  analyzer = createAnalyzer({ inline: true });
  service = createLibraryService({
    settings: { current: () => ({ libraryDir }) } as unknown as SettingsService,
    events: createEventBus(),
    analyzer,
    profiles: { state: async () => ({ activeId: 'sandbox', profiles: [] }) as never },
  });
  await service.checked;
});
afterEach(async () => {
  await analyzer.close();
  await rm(dir, { recursive: true, force: true });
});

describe('library files that are not what Takedesk downloaded', () => {
  it('a link in place of an item file is refused by the media route, analysis, QA and the path for reveal/drag', async () => {
    const entry = await listed({}, linkOut);
    const media = createMediaRegistry({
      scheme: { library: (id) => `/media/library/${id}`, remote: (t) => `/media/remote/${t}` },
      library: service.port,
    });
    const served = await media.library(entry.id, new Request('http://x/'));
    expect(served.status).toBe(403);
    const text = await served.text();
    expect(text).toMatch(/is a link/);
    expect(text).not.toContain(SECRET.toString());

    for (const call of [
      () => service.port.analyze(entry.id),
      () => service.port.qa(entry.id, 'ebu-r128'),
      () => service.port.pathOf(entry.id), // what library.reveal, library.startDrag and media.libraryUrl ask
      () => service.port.peaks(entry.id),
    ]) {
      await expect(call()).rejects.toMatchObject({
        type: 'LINK_REFUSED',
        message: expect.stringMatching(/does not read or serve files through links/),
      });
    }
    // Nothing was measured from the outside bytes.
    expect((await service.library.get(entry.id))?.analysis).toBeNull();
  });

  it('the media route does not follow a link put in place after the check (opened without following)', async () => {
    const entry = await listed();
    // The check passes on the real file; by the time the bytes are read a link stands there.
    const media = createMediaRegistry({
      scheme: { library: (id) => `/media/library/${id}`, remote: (t) => `/media/remote/${t}` },
      library: {
        pathOf: async (id) => {
          const path = await service.port.pathOf(id);
          if (path) {
            await rm(path);
            await linkOut(path);
          }
          return path;
        },
      },
    });
    const served = await media.library(entry.id, new Request('http://x/'));
    expect(served.status).toBe(404);
    expect(await served.text()).not.toContain(SECRET.toString());
  });

  it('a folder or junk in place of an item file gives a typed error in plain words (never INTERNAL)', async () => {
    const folder = await listed({ id: 'folder', relativePath: 'Project (p1)/folder-v1.wav' }, folderIn);
    await expect(service.port.analyze(folder.id)).rejects.toMatchObject({
      type: 'NOT_A_FILE',
      message: expect.stringMatching(/is a folder/),
    });
    await expect(service.port.qa(folder.id, 'ebu-r128')).rejects.toMatchObject({
      type: 'NOT_A_FILE',
    });

    for (const [id, format, bytes] of [
      ['junk-wav', 'wav', Buffer.from('RIFF....WAVEjunk, not audio at all')],
      ['junk-mp3', 'mp3', Buffer.alloc(4096, 0x5a)],
      ['empty', 'wav', Buffer.alloc(0)],
    ] as const) {
      const junk = await listed({ id, format, relativePath: `Project (p1)/${id}.${format}` }, (path) =>
        writeFile(path, bytes),
      );
      await expect(service.port.analyze(junk.id), id).rejects.toMatchObject({
        type: 'AUDIO_UNREADABLE',
        message: expect.stringMatching(/could not be read as (WAV|MP3) audio/),
      });
      await expect(service.port.qa(junk.id, 'ebu-r128'), id).rejects.toMatchObject({
        type: 'AUDIO_UNREADABLE',
      });
    }
  });

  it('removing an item whose file is a folder is refused in words and changes nothing', async () => {
    const folder = await listed({}, folderIn);
    await expect(service.port.remove(folder.id)).rejects.toMatchObject({
      type: 'NOT_A_FILE',
      message: expect.stringMatching(/does not delete folders/),
    });
    expect((await service.port.list()).map((i) => i.id)).toEqual([folder.id]);
    const manifest = JSON.parse(await readFile(join(libraryDir, '.takedesk', 'library.json'), 'utf8')) as {
      items: LibraryItem[];
    };
    expect(manifest.items.map((i) => i.id)).toEqual([folder.id]);
  });

  it('removing from a library whose manifest cannot be saved is refused in words, and the list keeps the item', async () => {
    const kept = await listed();
    // A read-only library, modelled for root (whom chmod does not stop): a folder now stands at the manifest's
    // name, so the atomic save's rename fails (EISDIR) exactly as a read-only folder's (EACCES/EROFS) would.
    const manifest = join(libraryDir, '.takedesk', 'library.json');
    await rm(manifest);
    await mkdir(manifest);
    await expect(service.port.remove(kept.id)).rejects.toMatchObject({
      type: 'LIBRARY_NOT_WRITABLE',
      message: expect.stringMatching(/could not be saved .*stays in the library/),
    });
    expect((await service.port.list()).map((i) => i.id)).toEqual([kept.id]);
    expect(await readFile(fileOf(kept))).toEqual(WAV); // its file is still there too
  });

  it('no change shows in the list unless the manifest was saved; a measurement is still given', async () => {
    const kept = await listed();
    const manifest = join(libraryDir, '.takedesk', 'library.json');
    await rm(manifest);
    await mkdir(manifest); // the manifest cannot be saved (see above)
    await expect(
      service.library.upsert(item({ id: 'new', relativePath: kept.relativePath + '.2' })),
    ).rejects.toMatchObject({
      type: 'LIBRARY_NOT_WRITABLE',
      message: expect.stringMatching(/could not be saved .*nothing was changed/),
    });
    await expect(service.library.adoptUntagged('other')).resolves.toBe(0);
    expect((await service.port.list()).map((i) => i.id)).toEqual([kept.id]);
    // Analysis measures the file; that it cannot be remembered does not make it fail.
    expect((await service.port.analyze(kept.id)).integratedLufs).toEqual(expect.any(Number));
    expect((await service.library.get(kept.id))?.analysis).toBeNull();
  });

  it('a junk or linked .peaks sidecar (in the hidden sidecar folder) is not read: the waveform is built again', async () => {
    for (const [id, plant] of [
      ['junk-peaks', (sidecar: string) => writeFile(sidecar, 'not a peaks file')],
      ['linked-peaks', async (sidecar: string) => symlink(await outside(), sidecar)],
    ] as const) {
      const entry = await listed({ id, relativePath: `Project (p1)/${id}.wav` });
      await plant(await service.library.peaksPathOf(entry.relativePath, true));
      const peaks = await service.port.peaks(entry.id);
      expect(peaks?.duration, id).toBeCloseTo(1, 2);
      expect(peaks?.peaks.length, id).toBeGreaterThan(0);
      // Built again into the sidecar folder: nothing is left beside the file in the deliverable folder.
      await expect(stat(`${fileOf(entry)}.peaks`)).rejects.toMatchObject({ code: 'ENOENT' });
    }
    expect(await readFile(join(dir, 'outside.wav'))).toEqual(SECRET); // replaced, never written through
  });

  it('a sound item is still served, analysed and removed', async () => {
    const entry = await listed();
    const media = createMediaRegistry({
      scheme: { library: (id) => `/media/library/${id}`, remote: (t) => `/media/remote/${t}` },
      library: service.port,
    });
    const served = await media.library(entry.id, new Request('http://x/'));
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(WAV);
    expect((await service.port.analyze(entry.id)).integratedLufs).toEqual(expect.any(Number));
    expect(await service.port.remove(entry.id)).toEqual([]);
  });
});

describe('an item that is not in the library here', () => {
  it('a removed item, or one never downloaded, is "not in the library" for analysis, QA and removal, in words', async () => {
    const removed = await listed();
    await service.port.remove(removed.id);
    for (const id of [removed.id, 'never-downloaded']) {
      for (const step of [
        () => service.port.analyze(id),
        () => service.port.qa(id, 'ebu-r128'),
        () => service.port.remove(id),
      ]) {
        await expect(step()).rejects.toMatchObject({
          type: 'NOT_FOUND_LOCAL',
          status: 0,
          message: 'This file is not in the library.',
        });
      }
    }
  });
});

describe('analysis of damaged audio (fast-check, fixed seed, bounded)', () => {
  const MP3 = Buffer.from(encodeMp3(stereoTones(44_100, [{ dbfs: -20, seconds: 1 }]), 44_100));
  // Bytes that look like audio for a while: a cut or bit-flipped real file, a real header on junk, or plain junk.
  const damaged = (base: Buffer) =>
    fc.oneof(
      fc.nat({ max: base.length }).map((n) => base.subarray(0, n)),
      fc
        .tuple(fc.nat({ max: base.length - 1 }), fc.integer({ min: 1, max: 255 }))
        .map(([at, flip]) => Buffer.from(base.map((b, i) => (i === at ? b ^ flip : b)))),
      fc.uint8Array({ maxLength: 2048 }).map((junk) => Buffer.concat([base.subarray(0, 64), junk])),
      fc.uint8Array({ maxLength: 2048 }).map((junk) => Buffer.from(junk)),
    );

  it('audio.analyze and audio.qa answer a measurement or a typed error, never an untyped one', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom('wav', 'mp3')
          .chain((format) => fc.tuple(fc.constant(format), damaged(format === 'wav' ? WAV : MP3))),
        async ([format, bytes]) => {
          const id = `fuzz-${n++}`;
          const entry = await listed({ id, format, relativePath: `Fuzz (f)/${id}.${format}` }, (path) =>
            writeFile(path, bytes),
          );
          for (const call of [
            () => service.port.analyze(entry.id),
            () => service.port.qa(entry.id, 'podcast'),
          ]) {
            const outcome = await call().then(
              () => null,
              (error: unknown) => error,
            );
            if (outcome !== null) expect(toErrorBody(outcome).type, String(outcome)).not.toBe('INTERNAL');
          }
        },
      ),
      { seed: 20261126, numRuns: 40, endOnFailure: true },
    );
  }, 60_000);
});

describe('through the router (what the renderer calls), against a real sandbox', () => {
  let world: TestWorld;
  beforeAll(async () => {
    world = await startTestWorld('library-links');
  });
  afterAll(() => world?.close());
  const call = <T>(channel: string, input?: unknown) =>
    world.services.router.invoke(channel, input, { transport: 'browser' }) as Promise<Result<T>>;
  const value = async <T>(channel: string, input?: unknown): Promise<T> => {
    const result = await call<T>(channel, input);
    if (!result.ok) throw new Error(`${channel}: ${result.error.type} ${result.error.message}`);
    return result.value;
  };

  /** A project of two voice-over parts, delivered and both downloaded; `listedNow` reads its library list. */
  async function twoTakesDownloaded(title: string) {
    const project = await value<{ id: string }>('projects.create', {
      body: { title, mainService: 'voice_over', services: [voiceOverService(['One.', 'Two.'])] },
    });
    await world.sandbox.deliverNow(project.id);
    const { items } = await value<{ items: Array<{ id: string }> }>('deliverables.list', {
      projectId: project.id,
    });
    for (const d of items)
      await value('downloads.start', { deliverableId: d.id, projectId: project.id, format: 'wav' });
    const listedNow = async () => value<LibraryItem[]>('library.list', { projectId: project.id });
    for (let i = 0; i < 300 && (await listedNow()).length < 2; i++)
      await new Promise((r) => setTimeout(r, 50));
    return { items, listedNow };
  }

  it('reveal, drag-out, the media URL and route refuse a link; remove refuses a folder; none is INTERNAL', async () => {
    const { listedNow } = await twoTakesDownloaded('Linked');
    const [linked, foldered] = await listedNow();
    const inLibrary = (it: LibraryItem) => join(world.dir, 'Library', ...it.relativePath.split('/'));
    await rm(inLibrary(linked!));
    await symlink(await outside(), inLibrary(linked!));
    await rm(inLibrary(foldered!));
    await mkdir(inLibrary(foldered!));

    for (const channel of ['library.reveal', 'library.startDrag', 'media.libraryUrl', 'library.peaks']) {
      expect(await call(channel, { id: linked!.id }), channel).toMatchObject({
        ok: false,
        error: { type: 'LINK_REFUSED', message: expect.stringMatching(/is a link/) },
      });
    }
    const served = await world.services.media.library(linked!.id, new Request('http://x/'));
    expect(served.status).toBe(403);
    expect(await served.text()).not.toContain(SECRET.toString());

    expect(await call('library.remove', { id: foldered!.id })).toMatchObject({
      ok: false,
      error: { type: 'NOT_A_FILE', message: expect.stringMatching(/is a folder/) },
    });
    expect((await listedNow()).map((i) => i.id).sort()).toEqual([linked!.id, foldered!.id].sort());
    // Removing the linked item deletes the link itself, never what it points to.
    await value('library.remove', { id: linked!.id });
    expect(await readFile(join(dir, 'outside.wav'))).toEqual(SECRET);
  }, 60_000);
  it('lists each file with its take’s status as last known, following a decision (issue 26 item 8)', async () => {
    const { items, listedNow } = await twoTakesDownloaded('Statuses');
    const statusOf = async (deliverableId: string) =>
      (await listedNow()).find((it) => it.deliverableId === deliverableId)?.takeStatus;
    expect(await statusOf(items[0]!.id)).toBe('reviewable');

    await value('deliverables.approve', { id: items[0]!.id, heard: { status: 'reviewable' } });
    await value('deliverables.reject', { id: items[1]!.id, reason: 'Wrong voice' });
    expect(await statusOf(items[0]!.id)).toBe('approved');
    expect(await statusOf(items[1]!.id)).toBe('rejected');
    // Only a listing adds it: the manifest keeps what is on disk.
    const manifest = await readFile(join(world.dir, 'Library', '.takedesk', 'library.json'), 'utf8');
    expect(manifest).not.toContain('takeStatus');
  }, 60_000);
});
