import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LibraryItem } from '../../../shared/ipc';
import { createLibrary, LibraryItemNotFoundError } from './library';
import { PathEscapeError } from './sanitize';
import { createStateNotices } from '../kernel/state-recovery';
import { libraryItem } from './test-support/library-item';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'takedesk-library-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const item = libraryItem;

async function place(rel: string, body = 'abc') {
  const path = join(dir, ...rel.split('/'));
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, body);
  return path;
}

describe('createLibrary', () => {
  it('persists the manifest atomically and reads it back with no network (a fresh instance)', async () => {
    const events: unknown[] = [];
    const lib = createLibrary({ dir: () => dir, emit: (e, p) => events.push([e, p]) });
    await place(item().relativePath);
    await lib.upsert(item());
    await lib.upsert(item({ id: 'b2', projectId: 'p2', relativePath: 'Other (p2)/x.mp3', format: 'mp3' }));
    const raw = JSON.parse(await readFile(join(dir, '.takedesk', 'library.json'), 'utf8')) as {
      items: LibraryItem[];
    };
    expect(raw.items.map((i) => i.id).sort()).toEqual(['a1', 'b2']);
    expect(events).toContainEqual(['library.changed', { count: 2 }]);

    const again = createLibrary({ dir: () => dir });
    expect((await again.list()).length).toBe(2);
    expect((await again.list('p2')).map((i) => i.id)).toEqual(['b2']);
    expect(await again.get('a1')).toMatchObject({ deliverableId: 'd1', sha256: 'abc' });
    expect(await again.get('nope')).toBeNull();
  });

  it('keeps every entry under concurrent upserts', async () => {
    const lib = createLibrary({ dir: () => dir });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        lib.upsert(item({ id: `i${i}`, relativePath: `P (p)/f${i}.wav` })),
      ),
    );
    expect((await createLibrary({ dir: () => dir }).list()).length).toBe(20);
  });

  it('remove deletes the file and its .peaks sidecar', async () => {
    const lib = createLibrary({ dir: () => dir });
    const path = await place(item().relativePath);
    await writeFile(`${path}.peaks`, 'pk');
    await lib.upsert(item({ hasPeaks: true }));
    expect(await lib.remove('a1')).toEqual([]);
    await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(stat(`${path}.peaks`)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(lib.remove('a1')).rejects.toBeInstanceOf(LibraryItemNotFoundError);
  });

  it('pathOf is absolute and inside the library; hostile relative paths are refused', async () => {
    const lib = createLibrary({ dir: () => dir });
    await lib.upsert(item());
    expect(await lib.pathOf('a1')).toBe(join(dir, 'Project (p1)', 'voice_over-part1-v1.wav'));
    await expect(lib.upsert(item({ id: 'evil', relativePath: '../../etc/passwd' }))).rejects.toBeInstanceOf(
      PathEscapeError,
    );
    await expect(lib.pathOf('missing')).rejects.toBeInstanceOf(LibraryItemNotFoundError);
  });

  it('reconcile drops entries whose files vanished and refreshes hasPeaks', async () => {
    const lib = createLibrary({ dir: () => dir });
    const kept = await place('K (k)/a.wav');
    await lib.upsert(item({ id: 'kept', relativePath: 'K (k)/a.wav' }));
    await lib.upsert(item({ id: 'gone', relativePath: 'G (g)/b.wav' }));
    await writeFile(`${kept}.peaks`, 'pk');
    const dropped = await lib.reconcile();
    expect(dropped.map((i) => i.id)).toEqual(['gone']);
    const left = await createLibrary({ dir: () => dir }).list();
    expect(left.map((i) => [i.id, i.hasPeaks])).toEqual([['kept', true]]);
  });

  describe('peaks and script text stay out of the deliverable folders (issue 26 item 8)', () => {
    it('a damaged manifest is rebuilt with the script text kept in the sidecar folder', async () => {
      await place('S (5eed5eed)/voice_over-1-aaaaaaaa-v1.wav', 'take');
      await place('.takedesk/sidecars/S (5eed5eed)/scriptwriting-Script-bbbbbbbb-v1.txt', 'the script');
      await place('.takedesk/sidecars/S (5eed5eed)/voice_over-9-cccccccc-v1.wav', 'not listed from here');
      await writeFile(join(dir, '.takedesk', 'library.json'), '{ "version": 2, "items": [ {');
      const listed = await createLibrary({ dir: () => dir, notices: createStateNotices() }).list();
      expect(listed.map((i) => i.relativePath).sort()).toEqual([
        '.takedesk/sidecars/S (5eed5eed)/scriptwriting-Script-bbbbbbbb-v1.txt',
        'S (5eed5eed)/voice_over-1-aaaaaaaa-v1.wav',
      ]);
    });

    /** Every file under a folder, relative, the hidden folder included. */
    async function tree(root: string): Promise<string[]> {
      const entries = await readdir(root, { recursive: true, withFileTypes: true });
      return entries
        .filter((e) => !e.isDirectory())
        .map((e) =>
          join(e.parentPath, e.name)
            .slice(root.length + 1)
            .split('\\')
            .join('/'),
        )
        .sort();
    }

    it('a commit puts the peaks in the hidden sidecar folder, never beside the file', async () => {
      const lib = createLibrary({ dir: () => dir });
      const planned = 'P (p)/voice_over-1-aaaaaaaa-v1.wav';
      const part = await lib.resolveReal('P (p)/x.part', true);
      await writeFile(part, 'take');
      const peaks = `${part}.peaks`;
      await writeFile(peaks, 'pk');
      const done = await lib.commit({ part, peaks, planned, item: item({ relativePath: planned, size: 4 }) });
      expect(done.hasPeaks).toBe(true);
      expect(await readdir(join(dir, 'P (p)'))).toEqual(['voice_over-1-aaaaaaaa-v1.wav']);
      expect(await readFile(await lib.peaksPathOf(planned), 'utf8')).toBe('pk');
      expect(await lib.peaksPathOf(planned)).toBe(
        join(dir, '.takedesk', 'sidecars', 'P (p)', 'voice_over-1-aaaaaaaa-v1.wav.peaks'),
      );
      // Removing the item removes its sidecar too.
      await lib.remove(done.id);
      await expect(stat(await lib.peaksPathOf(planned))).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('an existing library moves its peaks and script text in at start, losing and renaming no other file, manifest intact', async () => {
      const old = createLibrary({ dir: () => dir });
      const a = await place('A (a)/voice_over-1-aaaaaaaa-v1.wav', 'take a');
      const b = await place('A (a)/voice_over-2-bbbbbbbb-v1.wav', 'take b');
      await writeFile(`${a}.peaks`, 'pk-a');
      await writeFile(`${b}.peaks`, 'pk-b');
      // The producer's own files, a `.peaks` that is no item's, and a link at an item's sidecar name stay put.
      await place('A (a)/client notes.txt', 'notes');
      await place('A (a)/scriptwriting-Script-dddddddd-v1.txt', 'the script');
      await place('A (a)/mix.wav.peaks', 'not ours to move');
      const c = await place('A (a)/voice_over-3-cccccccc-v1.wav', 'take c');
      const outside = join(dir, '..', `outside-${Date.now()}.peaks`);
      await writeFile(outside, 'elsewhere');
      await symlink(outside, `${c}.peaks`);
      for (const [id, rel] of [
        ['a', 'A (a)/voice_over-1-aaaaaaaa-v1.wav'],
        ['b', 'A (a)/voice_over-2-bbbbbbbb-v1.wav'],
        ['c', 'A (a)/voice_over-3-cccccccc-v1.wav'],
      ] as const)
        await old.upsert(item({ id, relativePath: rel, hasPeaks: id !== 'c' }));
      await old.upsert(
        item({
          id: 's',
          format: 'txt',
          relativePath: 'A (a)/scriptwriting-Script-dddddddd-v1.txt',
          size: 10,
        }),
      );
      const before = await old.list();

      const lib = createLibrary({ dir: () => dir });
      expect(await lib.reconcile()).toEqual([]);
      expect(await tree(dir)).toEqual([
        '.takedesk/library.json',
        '.takedesk/sidecars/A (a)/scriptwriting-Script-dddddddd-v1.txt',
        '.takedesk/sidecars/A (a)/voice_over-1-aaaaaaaa-v1.wav.peaks',
        '.takedesk/sidecars/A (a)/voice_over-2-bbbbbbbb-v1.wav.peaks',
        'A (a)/client notes.txt',
        'A (a)/mix.wav.peaks',
        'A (a)/voice_over-1-aaaaaaaa-v1.wav',
        'A (a)/voice_over-2-bbbbbbbb-v1.wav',
        'A (a)/voice_over-3-cccccccc-v1.wav',
        'A (a)/voice_over-3-cccccccc-v1.wav.peaks',
      ]);
      expect(await readFile(await lib.peaksPathOf('A (a)/voice_over-1-aaaaaaaa-v1.wav'), 'utf8')).toBe(
        'pk-a',
      );
      expect(await readFile(outside, 'utf8')).toBe('elsewhere');
      const after = await createLibrary({ dir: () => dir }).list();
      expect(after.map((i) => [i.id, i.relativePath, i.hasPeaks])).toEqual(
        before.map((i) => [
          i.id,
          i.format === 'txt' ? `.takedesk/sidecars/${i.relativePath}` : i.relativePath,
          i.id !== 'c' && i.id !== 's',
        ]),
      );
      expect(await readFile(await lib.pathOf('s'), 'utf8')).toBe('the script');
      await rm(outside, { force: true });
    });
  });

  it('reconcile re-verifies unsynced items: a short or damaged file is dropped and deleted, an intact one loses the flag', async () => {
    const body = 'the whole take';
    const sha = createHash('sha256').update(body).digest('hex');
    const lib = createLibrary({ dir: () => dir });
    // A power cut in the writeback window: the name made it to the disk, the tail of the data did not.
    const short = await place('P (p)/short.wav', body.slice(0, 5));
    await writeFile(`${short}.peaks`, 'pk');
    // Same size, but blocks that were never written read back as zeros.
    const zeros = await place('P (p)/zeros.wav', '\u0000'.repeat(body.length));
    const intact = await place('P (p)/intact.wav', body);
    const common = { size: body.length, sha256: sha, unsynced: true };
    await lib.upsert(item({ id: 'short', relativePath: 'P (p)/short.wav', hasPeaks: true, ...common }));
    await lib.upsert(item({ id: 'zeros', relativePath: 'P (p)/zeros.wav', ...common }));
    await lib.upsert(item({ id: 'intact', relativePath: 'P (p)/intact.wav', ...common }));

    const dropped = await lib.reconcile();
    expect(dropped.map((i) => i.id).sort()).toEqual(['short', 'zeros']);
    await expect(stat(short)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(stat(`${short}.peaks`)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(stat(zeros)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readFile(intact, 'utf8')).toBe(body);
    const raw = JSON.parse(await readFile(join(dir, '.takedesk', 'library.json'), 'utf8')) as {
      items: LibraryItem[];
    };
    expect(raw.items).toHaveLength(1);
    expect(raw.items[0]).toMatchObject({ id: 'intact', sha256: sha });
    expect(raw.items[0]).not.toHaveProperty('unsynced');
  });

  it('reconcile hashes only unsynced items (an item without the flag and a wrong checksum is kept)', async () => {
    const lib = createLibrary({ dir: () => dir });
    await place('P (p)/synced.wav', 'abc');
    await place('P (p)/nohash.txt', 'abcd');
    // Hashing this file would find 'not-its-checksum' wrong and drop it.
    await lib.upsert(item({ id: 'synced', relativePath: 'P (p)/synced.wav', sha256: 'not-its-checksum' }));
    // No checksum recorded: the size alone decides.
    await lib.upsert(
      item({ id: 'nohash', relativePath: 'P (p)/nohash.txt', size: 4, sha256: '', unsynced: true }),
    );
    expect(await lib.reconcile()).toEqual([]);
    const left = await createLibrary({ dir: () => dir }).list();
    expect(left.map((i) => [i.id, i.unsynced ?? false]).sort()).toEqual([
      ['nohash', false],
      ['synced', false],
    ]);
  });

  it('markSynced clears the flag only on the same download, and not after it was removed', async () => {
    const lib = createLibrary({ dir: () => dir });
    await place(item().relativePath);
    await lib.upsert(item({ unsynced: true }));
    expect(await lib.markSynced('a1', '1999-01-01T00:00:00.000Z')).toBe(false);
    expect((await lib.get('a1'))?.unsynced).toBe(true);
    expect(await lib.markSynced('a1', item().downloadedAt)).toBe(true);
    expect(await createLibrary({ dir: () => dir }).get('a1')).not.toHaveProperty('unsynced');
    await lib.upsert(item({ unsynced: true }));
    await lib.remove('a1');
    expect(await lib.markSynced('a1', item().downloadedAt)).toBe(false);
    expect(await lib.list()).toEqual([]);
  });

  it('survives a corrupt manifest by setting it aside', async () => {
    await mkdir(join(dir, '.takedesk'));
    await writeFile(join(dir, '.takedesk', 'library.json'), '{not json');
    const lib = createLibrary({ dir: () => dir });
    expect(await lib.list()).toEqual([]);
    await lib.upsert(item());
    expect((await lib.list()).length).toBe(1);
  });

  it('rebuilds a damaged manifest from its good entries and the files on disk, keeps a copy, and says so (issue 24)', async () => {
    const projectId = '3f2a9c1d-0000-4000-8000-000000000001';
    const first = item({
      id: 'first',
      projectId,
      projectTitle: 'Spring promo',
      deliverableId: '9b1deb4d-0000-4000-8000-000000000002',
      deliverableName: '1',
      relativePath: 'Spring promo (3f2a9c1d)/voice_over-1-9b1deb4d-v2.wav',
      version: 2,
    });
    const second = item({
      id: 'second',
      projectId,
      projectTitle: 'Spring promo',
      deliverableId: '7c0ffee0-0000-4000-8000-000000000003',
      deliverableName: 'Tag line - long',
      relativePath: 'Spring promo (3f2a9c1d)/voice_over-Tag line - long-7c0ffee0-v1.mp3',
      format: 'mp3',
    });
    await place(first.relativePath);
    await place(second.relativePath, 'abcdef');
    await place(`${second.relativePath}.peaks`, 'pk');
    await place('Spring promo (3f2a9c1d)/notes.txt', 'not a download');
    const manifest = JSON.stringify({ version: 2, items: [first, second] }, null, 1);
    // Cut in the middle of the second entry (a crash mid-write, a full disk).
    const damaged = manifest.slice(0, manifest.indexOf('"second"') + 4);
    await writeFile(join(dir, '.takedesk', 'library.json'), damaged).catch(async () => {
      await mkdir(join(dir, '.takedesk'));
      await writeFile(join(dir, '.takedesk', 'library.json'), damaged);
    });
    const notices = createStateNotices();
    const lib = createLibrary({ dir: () => dir, notices });
    const listed = await lib.list();
    expect(listed.find((i) => i.id === 'first')).toEqual(first);
    const rebuilt = listed.find((i) => i.relativePath === second.relativePath);
    expect(rebuilt).toMatchObject({
      projectId: '3f2a9c1d',
      projectTitle: 'Spring promo',
      deliverableId: '7c0ffee0',
      deliverableName: 'Tag line - long',
      serviceSubCategory: 'voice_over',
      version: 1,
      format: 'mp3',
      size: 6,
      sha256: '',
      hasPeaks: true,
    });
    expect(listed).toHaveLength(2);
    const copies = (await readdir(join(dir, '.takedesk'))).filter((name) =>
      name.startsWith('library.damaged-'),
    );
    expect(copies).toHaveLength(1);
    expect(await readFile(join(dir, '.takedesk', copies[0]!), 'utf8')).toBe(damaged);
    const [notice] = notices.take();
    expect(notice).toMatchObject({ file: 'library.json', label: 'The library list file' });
    expect(notice!.message).toMatch(/1 file in the library folder was listed again/u);
    // The rebuilt manifest is on disk: a fresh start lists the same and says nothing more.
    const again = createLibrary({ dir: () => dir, notices });
    expect((await again.list()).map((i) => i.relativePath).sort()).toEqual(
      [first.relativePath, second.relativePath].sort(),
    );
    expect(notices.take()).toEqual([]);
  });

  it('follows a change of the library folder setting', async () => {
    let current = dir;
    const lib = createLibrary({ dir: () => current });
    await lib.upsert(item());
    current = join(dir, 'elsewhere');
    await mkdir(current);
    expect(await lib.list()).toEqual([]);
    current = dir;
    expect((await lib.list()).length).toBe(1);
  });

  it('plans sanitised paths and stable ids', () => {
    const lib = createLibrary({ dir: () => dir });
    const rel = lib.planPath({
      projectId: 'abcdef123456',
      projectTitle: '../../etc',
      serviceSubCategory: 'post-production',
      deliverableName: 'CON',
      deliverableId: 'C0FFEE00-1111-4222-8333-444455556666',
      version: 3,
      format: 'mp3',
    });
    expect(rel).toBe('_._etc (abcdef12)/post-production-_CON-c0ffee00-v3.mp3');
    expect(lib.resolve(rel).startsWith(dir)).toBe(true);
    expect(lib.itemId('d', 1, 'wav')).toBe(lib.itemId('d', 1, 'wav'));
    expect(lib.itemId('d', 1, 'wav')).not.toBe(lib.itemId('d', 2, 'wav'));
  });

  describe('one file per item (issue 13, item 4)', () => {
    const sha = (body: string) => createHash('sha256').update(body).digest('hex');

    it('migrates an old-layout manifest whose items share a file: the overwritten item is dropped, no deliverable file moves', async () => {
      // The old layout put a rejected deliverable and its replacement at one path; the replacement overwrote it.
      const shared = 'Spring (3f2a9c1e)/voice_over-1-v1.wav';
      await place(shared, 'replacement take');
      await place('Spring (3f2a9c1e)/voice_over-2-v1.wav', 'second part');
      // Identical bytes (a script's text survives a rejection): both items keep them, each in a file of its own.
      const script = 'Spring (3f2a9c1e)/scriptwriting-Script-v1.txt';
      await place(script, 'the script');
      const items = [
        item({
          id: 'rejected',
          deliverableId: 'd-old',
          relativePath: shared,
          size: 16,
          sha256: sha('rejected take!!'),
        }),
        item({
          id: 'replacement',
          deliverableId: 'd-new',
          relativePath: shared,
          size: 16,
          sha256: sha('replacement take'),
          downloadedAt: '2025-01-02T00:00:00.000Z',
        }),
        item({
          id: 'other',
          deliverableId: 'd-2',
          relativePath: 'Spring (3f2a9c1e)/voice_over-2-v1.wav',
          size: 11,
          sha256: sha('second part'),
        }),
        item({
          id: 's-old',
          deliverableId: 'd-s1',
          format: 'txt',
          relativePath: script,
          size: 10,
          sha256: sha('the script'),
        }),
        item({
          id: 's-new',
          deliverableId: 'd-s2',
          format: 'txt',
          relativePath: script,
          size: 10,
          sha256: sha('the script'),
          downloadedAt: '2025-01-03T00:00:00.000Z',
        }),
      ];
      await mkdir(join(dir, '.takedesk'), { recursive: true });
      await writeFile(join(dir, '.takedesk', 'library.json'), JSON.stringify({ version: 1, items }));

      const lib = createLibrary({ dir: () => dir });
      const dropped = await lib.reconcile();
      expect(dropped.map((i) => i.id)).toEqual(['rejected']);
      const left = await lib.list();
      expect(left.map((i) => i.id).sort()).toEqual(['other', 'replacement', 's-new', 's-old']);
      // Recorded paths are kept (users' files are not renamed); only the second owner of identical bytes gets a copy.
      expect((await lib.get('replacement'))!.relativePath).toBe(shared);
      expect((await lib.get('other'))!.relativePath).toBe('Spring (3f2a9c1e)/voice_over-2-v1.wav');
      // The script's text (not a deliverable to hand over) goes to the hidden sidecar folder, under the same name.
      expect((await lib.get('s-new'))!.relativePath).toBe(`.takedesk/sidecars/${script}`);
      const copy = (await lib.get('s-old'))!.relativePath;
      expect(copy).not.toBe(`.takedesk/sidecars/${script}`);
      expect(copy.startsWith('.takedesk/sidecars/Spring (3f2a9c1e)/')).toBe(true);
      expect(new Set(left.map((i) => i.relativePath)).size).toBe(left.length);
      for (const kept of left) {
        expect(sha(await readFile(join(dir, ...kept.relativePath.split('/')), 'utf8'))).toBe(kept.sha256);
      }
      // Removing one owner of the script leaves the other's file.
      await lib.remove('s-old');
      expect(await readFile(join(dir, '.takedesk', 'sidecars', ...script.split('/')), 'utf8')).toBe(
        'the script',
      );
      // And it stays migrated: a fresh instance sees the same.
      const again = createLibrary({ dir: () => dir });
      expect((await again.list()).map((i) => [i.id, i.relativePath]).sort()).toEqual(
        (await lib.list()).map((i) => [i.id, i.relativePath]).sort(),
      );
    });

    it('upsert refuses a path another item owns, so removal can never take another item\u2019s file', async () => {
      const lib = createLibrary({ dir: () => dir });
      const path = await place(item().relativePath);
      await lib.upsert(item());
      await expect(lib.upsert(item({ id: 'b2', deliverableId: 'd2' }))).rejects.toThrow(/already/);
      expect((await lib.list()).map((i) => i.id)).toEqual(['a1']);
      expect(await readFile(path, 'utf8')).toBe('abc');
    });
  });

  describe('links inside the library (issue 13, item 5)', () => {
    let outside: string;
    beforeEach(async () => {
      outside = await mkdtemp(join(tmpdir(), 'takedesk-outside-'));
      await writeFile(join(outside, 'precious.wav'), 'keep me');
    });
    afterEach(async () => {
      await rm(outside, { recursive: true, force: true });
    });

    it('remove through a project folder that links outside deletes nothing outside', async () => {
      await symlink(outside, join(dir, 'Project (p1)'), 'dir');
      // An entry that points through the link (a manifest from before, or a folder swapped for a link later).
      await mkdir(join(dir, '.takedesk'), { recursive: true });
      await writeFile(
        join(dir, '.takedesk', 'library.json'),
        JSON.stringify({ version: 2, items: [item({ relativePath: 'Project (p1)/precious.wav', size: 7 })] }),
      );
      const fresh = createLibrary({ dir: () => dir });
      await fresh.remove('a1').catch(() => undefined);
      expect(await readFile(join(outside, 'precious.wav'), 'utf8')).toBe('keep me');
      await expect(fresh.pathOf('a1')).rejects.toThrow();
    });

    it('remove of an item whose file is a link to an outside file deletes the link only', async () => {
      const lib = createLibrary({ dir: () => dir });
      await mkdir(join(dir, 'Project (p1)'));
      await symlink(join(outside, 'precious.wav'), join(dir, ...item().relativePath.split('/')));
      await lib.upsert(item());
      await lib.remove('a1');
      expect(await readFile(join(outside, 'precious.wav'), 'utf8')).toBe('keep me');
    });

    it('the manifest is never written through a .takedesk folder that links outside', async () => {
      await symlink(outside, join(dir, '.takedesk'), 'dir');
      const lib = createLibrary({ dir: () => dir });
      await place(item().relativePath);
      await expect(lib.upsert(item())).rejects.toThrow(/link/i);
      expect(await readdir(outside)).toEqual(['precious.wav']);
    });
  });

  describe('commit: a final name is never taken from another file', () => {
    const sha = (body: string) => createHash('sha256').update(body).digest('hex');
    const noHardLinks = async () => {
      throw Object.assign(new Error('EPERM: operation not permitted, link'), { code: 'EPERM' });
    };

    it.each([
      ['with hard links', undefined],
      ['on a file system without hard links (reserve, then rename)', noHardLinks],
    ])('%s: the planned name, else the next free "(n)" one', async (_label, link) => {
      const lib = createLibrary({ dir: () => dir, link });
      const planned = 'P (p)/voice_over-1-aaaaaaaa-v1.wav';
      const squatter = await place(planned, 'somebody else');
      const commit = async (id: string, body: string) => {
        const part = await lib.resolveReal(`P (p)/${id}.part`, true);
        await writeFile(part, body);
        const done = await lib.commit({
          part,
          planned,
          item: item({ id, deliverableId: id, relativePath: planned, size: body.length, sha256: sha(body) }),
        });
        await expect(stat(part)).rejects.toMatchObject({ code: 'ENOENT' });
        return done;
      };
      expect((await commit('one', 'take one')).relativePath).toBe('P (p)/voice_over-1-aaaaaaaa-v1 (2).wav');
      expect((await commit('two', 'take two')).relativePath).toBe('P (p)/voice_over-1-aaaaaaaa-v1 (3).wav');
      expect(await readFile(squatter, 'utf8')).toBe('somebody else');
      for (const listed of await lib.list()) {
        expect(sha(await readFile(join(dir, ...listed.relativePath.split('/')), 'utf8'))).toBe(listed.sha256);
      }
      // The same item downloaded again with other bytes gets a new name; its older file goes.
      const again = await commit('one', 'take one, again');
      expect(again.relativePath).toBe('P (p)/voice_over-1-aaaaaaaa-v1 (4).wav');
      await expect(stat(join(dir, 'P (p)', 'voice_over-1-aaaaaaaa-v1 (2).wav'))).rejects.toMatchObject({
        code: 'ENOENT',
      });
      expect(await readFile(join(dir, 'P (p)', 'voice_over-1-aaaaaaaa-v1 (3).wav'), 'utf8')).toBe('take two');
    });

    it('takes over what a crash left at the final name: an empty reservation, or the same bytes unlisted', async () => {
      const lib = createLibrary({ dir: () => dir });
      const planned = 'P (p)/a-aaaaaaaa-v1.wav';
      const empty = await place(planned, '');
      const part = await lib.resolveReal('P (p)/a.part', true);
      await writeFile(part, 'the take');
      const one = await lib.commit({
        part,
        planned,
        item: item({ id: 'a', relativePath: planned, size: 8, sha256: sha('the take') }),
      });
      expect(one.relativePath).toBe(planned);
      expect(await readFile(empty, 'utf8')).toBe('the take');

      const planned2 = 'P (p)/b-bbbbbbbb-v1.wav';
      const leftover = await place(planned2, 'the other take');
      const part2 = await lib.resolveReal('P (p)/b.part', true);
      await writeFile(part2, 'the other take');
      const two = await lib.commit({
        part: part2,
        planned: planned2,
        item: item({ id: 'b', relativePath: planned2, size: 14, sha256: sha('the other take') }),
      });
      expect(two.relativePath).toBe(planned2);
      expect(await readFile(leftover, 'utf8')).toBe('the other take');
      await expect(stat(part2)).rejects.toMatchObject({ code: 'ENOENT' });
      expect((await readdir(join(dir, 'P (p)'))).sort()).toEqual(['a-aaaaaaaa-v1.wav', 'b-bbbbbbbb-v1.wav']);
    });
  });
});
