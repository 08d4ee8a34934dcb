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
