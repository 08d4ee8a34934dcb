import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LibraryItem } from '../../../shared/ipc';
import { createLibrary, LibraryItemNotFoundError } from './library';
import { PathEscapeError } from './sanitize';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'takedesk-library-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function item(over: Partial<LibraryItem> = {}): LibraryItem {
  return {
    id: 'a1',
    projectId: 'p1',
    projectTitle: 'Project',
    serviceSubCategory: 'voice_over',
    deliverableId: 'd1',
    deliverableName: 'part1',
    version: 1,
    format: 'wav',
    relativePath: 'Project (p1)/voice_over-part1-v1.wav',
    size: 3,
    sha256: 'abc',
    downloadedAt: '2025-01-01T00:00:00.000Z',
    orderedSeconds: null,
    analysis: null,
    hasPeaks: false,
    ...over,
  };
}

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
      version: 3,
      format: 'mp3',
    });
    expect(rel).toBe('_._etc (abcdef12)/post-production-_CON-v3.mp3');
    expect(lib.resolve(rel).startsWith(dir)).toBe(true);
    expect(lib.itemId('d', 1, 'wav')).toBe(lib.itemId('d', 1, 'wav'));
    expect(lib.itemId('d', 1, 'wav')).not.toBe(lib.itemId('d', 2, 'wav'));
  });
});
