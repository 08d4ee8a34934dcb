import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJsonFile } from '../kernel/json-file';
import { createReviewIndex, SavedReviewIndexSchema, type SavedReviewIndex } from './review-index';

const row = (id: string, status = 'paid') => ({ id, title: `Project ${id}`, status }) as const;
const take = (id: string, status: string, name = id) => ({
  id,
  status,
  name,
  serviceSubCategory: 'voice_over',
});

function setup() {
  const changes: string[] = [];
  const index = createReviewIndex({ emit: (_event, payload) => void changes.push(payload.profileId) });
  return { index, changes };
}

describe('review index', () => {
  it('keeps each profile to itself: one account never sees another one’s projects', () => {
    const { index } = setup();
    index.projects('a', [row('p1')]);
    index.deliverables('a', 'p1', [take('d1', 'reviewable')]);
    index.projects('b', [row('p2')]);
    expect(index.snapshot('a').projects.map((p) => p.project.id)).toEqual(['p1']);
    expect(index.snapshot('b').projects).toEqual([{ project: row('p2'), counts: null }]);
    expect(index.snapshot('c').projects).toEqual([]);
    expect(index.projectOf('a', 'd1')).toBe('p1');
    expect(index.projectOf('b', 'd1')).toBeUndefined();
  });

  it('follows decisions and cancels from their answers, announcing a change only when something changed', () => {
    const { index, changes } = setup();
    index.projects('a', [row('p1')]);
    index.deliverables('a', 'p1', [take('d1', 'reviewable'), take('d2', 'reviewable')]);
    expect(index.snapshot('a').projects[0]!.counts).toMatchObject({ ready: 2, approved: 0 });
    changes.length = 0;

    index.deliverables('a', 'p1', [take('d1', 'reviewable'), take('d2', 'reviewable')]);
    expect(changes).toEqual([]); // the same answer again: nothing to redraw

    index.decided('a', [{ id: 'd1', status: 'approved' }]);
    expect(index.snapshot('a').projects[0]!.counts).toMatchObject({ ready: 1, approved: 1 });
    index.decided('b', [{ id: 'd2', status: 'approved' }]); // another profile's answer never lands here
    expect(index.snapshot('a').projects[0]!.counts).toMatchObject({ ready: 1, approved: 1 });

    index.status('a', 'p1', 'canceled');
    expect(index.snapshot('a').projects[0]!.project.status).toBe('canceled');
    expect(changes).toEqual(['a', 'a']);
  });

  it('"Next needing review": the next waiting take across projects, oldest project first, wrapping round', () => {
    const { index } = setup();
    index.projects('a', [
      { ...row('new'), created: '2026-11-25T10:00:00' },
      { ...row('old'), created: '2026-11-20T10:00:00' },
      { ...row('gone', 'canceled'), created: '2026-11-01T10:00:00' },
    ]);
    index.deliverables('a', 'new', [take('n1', 'reviewable', '1')]);
    index.deliverables('a', 'old', [
      take('o10', 'reviewable', '10'),
      take('o2', 'reviewable', '2'),
      take('o1', 'approved', '1'),
    ]);
    index.deliverables('a', 'gone', [take('g1', 'reviewable', '1')]);

    expect(index.nextReady('a')).toEqual({ projectId: 'old', deliverableId: 'o2' });
    expect(index.nextReady('a', 'o2')).toEqual({ projectId: 'old', deliverableId: 'o10' });
    expect(index.nextReady('a', 'o10')).toEqual({ projectId: 'new', deliverableId: 'n1' });
    expect(index.nextReady('a', 'n1')).toEqual({ projectId: 'old', deliverableId: 'o2' });
    // Previous: the same order backwards.
    expect(index.nextReady('a', 'n1', true)).toEqual({ projectId: 'old', deliverableId: 'o10' });
    expect(index.nextReady('a', 'o2', true)).toEqual({ projectId: 'new', deliverableId: 'n1' });
    // The take just decided still says where "next" starts.
    index.decided('a', [{ id: 'o2', status: 'approved' }]);
    expect(index.nextReady('a', 'o2')).toEqual({ projectId: 'old', deliverableId: 'o10' });
    index.decided('a', [
      { id: 'o10', status: 'approved' },
      { id: 'n1', status: 'approved' },
    ]);
    expect(index.nextReady('a', 'n1')).toBeNull();
    expect(index.nextReady('b')).toBeNull();
  });

  it('keeps a list row small: a project read brings its news, not its services', () => {
    const { index } = setup();
    index.projects('a', [{ ...row('p1'), services: [], remarks: 'long brief' } as never]);
    expect(index.snapshot('a').projects[0]!.project).toEqual(row('p1'));
    index.projects('a', [row('p1', 'completed')]);
    expect(index.snapshot('a').projects[0]!.project.status).toBe('completed');
  });
});

describe('review index: the latest activity seen on a project (the list\'s "Last activity")', () => {
  it('is the newest version date read, or when a listing first showed a take delivered; kept across a restart', async () => {
    let clock = '2026-11-20T09:00:00.000Z';
    const dir = await mkdtemp(join(tmpdir(), 'takedesk-review-activity-'));
    const path = join(dir, 'index.json');
    const index = createReviewIndex(
      { emit: () => undefined },
      { now: () => new Date(clock), file: createJsonFile(path, SavedReviewIndexSchema), saveDelayMs: 10 },
    );
    const activity = () => index.snapshot('a').projects.map((p) => [p.project.id, p.lastActivity]);
    index.projects('a', [row('p1'), row('p2')]);
    // The first read of a project's takes says nothing of when they were delivered.
    index.deliverables('a', 'p1', [take('d1', 'reviewable')]);
    index.deliverables('a', 'p2', [take('d2', 'approved')]);
    expect(activity()).toEqual([
      ['p1', undefined],
      ['p2', undefined],
    ]);

    // A version list read: its newest date, whatever the zone it is written in.
    index.versions('a', 'd2', ['2026-11-18T10:00:00Z', '2026-11-19T12:00:00+02:00', 'not a date']);
    expect(activity()).toEqual([
      ['p1', undefined],
      ['p2', '2026-11-19T10:00:00.000Z'],
    ]);
    index.versions('a', 'd2', ['2026-11-18T10:00:00Z']); // an older read never moves it back
    index.versions('a', 'unknown', ['2026-11-25T10:00:00Z']); // a take of no project it knows
    index.versions('b', 'd2', ['2026-11-25T10:00:00Z']); // another profile's read
    expect(activity()[1]).toEqual(['p2', '2026-11-19T10:00:00.000Z']);

    // A take new since the last read (a delivery), or ready for review again (a revision back): seen now.
    clock = '2026-11-21T08:00:00.000Z';
    index.deliverables('a', 'p1', [take('d1', 'reviewable'), take('d3', 'reviewable')]);
    clock = '2026-11-22T08:00:00.000Z';
    index.deliverables('a', 'p2', [take('d2', 'revision')]);
    expect(activity()).toEqual([
      ['p1', '2026-11-21T08:00:00.000Z'],
      ['p2', '2026-11-19T10:00:00.000Z'],
    ]);
    clock = '2026-11-23T08:00:00.000Z';
    index.deliverables('a', 'p2', [take('d2', 'reviewable')]);
    expect(activity()[1]).toEqual(['p2', '2026-11-23T08:00:00.000Z']);

    await index.flush();
    const next = createReviewIndex(
      { emit: () => undefined },
      { file: createJsonFile(path, SavedReviewIndexSchema) },
    );
    await next.load();
    expect(next.snapshot('a').projects.map((p) => p.lastActivity)).toEqual([
      '2026-11-21T08:00:00.000Z',
      '2026-11-23T08:00:00.000Z',
    ]);
    await rm(dir, { recursive: true, force: true });
  });
});

describe('review index across restarts', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'takedesk-review-index-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const events = { emit: () => undefined };
  const at = (iso: string) => () => new Date(iso);

  it('keeps why a project was canceled and what it cost, across a restart and later listings', async () => {
    const path = join(dir, 'canceled.json');
    const first = createReviewIndex(events, {
      file: createJsonFile(path, SavedReviewIndexSchema),
      saveDelayMs: 10,
    });
    first.projects('a', [row('p1')]);
    expect(first.readyCount('a', 'p1')).toBeNull(); // takes never read: the fee is not known
    first.deliverables('a', 'p1', [take('d1', 'reviewable'), take('d2', 'approved')]);
    expect(first.readyCount('a', 'p1')).toBe(1);
    const cancellation = {
      reason: 'Ordered twice',
      reasonCode: 'no_longer_needed.duplicated',
      feePercent: 30,
      fee: 9.3,
      at: '2026-11-26T10:00:00.000Z',
    };
    first.status('a', 'p1', 'canceled');
    first.canceled('a', 'p1', cancellation);
    first.canceled('a', 'unknown', cancellation); // a project it never listed: nothing to attach it to
    first.projects('a', [row('p1', 'canceled')]); // a later listing does not carry it, and does not drop it
    expect(first.snapshot('a').projects[0]!.cancellation).toEqual(cancellation);
    await first.flush();

    const next = createReviewIndex(events, { file: createJsonFile(path, SavedReviewIndexSchema) });
    await next.load();
    expect(next.snapshot('a').projects.map((p) => p.cancellation)).toEqual([cancellation]);
  });

  it('answers at once after a restart with what was known, marked as of when it was read, per profile', async () => {
    const path = join(dir, 'restart.json');
    const first = createReviewIndex(events, {
      file: createJsonFile(path, SavedReviewIndexSchema),
      now: at('2026-11-24T09:00:00Z'),
      saveDelayMs: 10,
    });
    first.projects('a', [row('p1'), row('p2')]);
    first.deliverables('a', 'p1', [take('d1', 'reviewable'), take('d2', 'approved')]);
    first.projects('b', [row('p9')]);
    first.deliverables('b', 'p9', [take('d9', 'revisionRequested')]);
    await first.flush();

    const next = createReviewIndex(events, { file: createJsonFile(path, SavedReviewIndexSchema) });
    expect(next.snapshot('a').projects).toEqual([]);
    await next.load();
    expect(next.snapshot('a').projects).toEqual([
      {
        project: row('p1'),
        counts: expect.objectContaining({ ready: 1, approved: 1 }),
        asOf: '2026-11-24T09:00:00.000Z',
      },
      { project: row('p2'), counts: null },
    ]);
    expect(next.snapshot('b').projects.map((p) => p.project.id)).toEqual(['p9']);
    expect(next.projectOf('a', 'd1')).toBe('p1'); // decisions on a saved take still find their project

    // Read again since this start: fresh, no longer marked; a decision lands on the saved counts too.
    next.deliverables('a', 'p1', [take('d1', 'approved'), take('d2', 'approved')]);
    expect(next.snapshot('a').projects[0]).toEqual({
      project: row('p1'),
      counts: expect.objectContaining({ ready: 0, approved: 2 }),
    });
  });

  it('what is read before the file is loaded wins over the file', async () => {
    const path = join(dir, 'race.json');
    const file = createJsonFile(path, SavedReviewIndexSchema);
    await file.save({
      version: 1,
      profiles: {
        a: [{ row: row('p1'), deliverables: [take('d1', 'reviewable')], checkedAt: '2026-01-01T00:00:00Z' }],
      },
    });
    const index = createReviewIndex(events, { file });
    index.projects('a', [row('p1')]);
    index.deliverables('a', 'p1', [take('d1', 'approved')]);
    await index.load();
    expect(index.snapshot('a').projects[0]!.counts).toMatchObject({ ready: 0, approved: 1 });
    expect(index.snapshot('a').projects[0]!.asOf).toBeUndefined();
  });

  it('writes changes in one debounced save, drops removed profiles, and a corrupt file is an empty start', async () => {
    const path = join(dir, 'debounce.json');
    const saves: SavedReviewIndex[] = [];
    const file = createJsonFile(path, SavedReviewIndexSchema);
    const counting = { load: file.load, save: (v: SavedReviewIndex) => (saves.push(v), file.save(v)) };
    const index = createReviewIndex(events, { file: counting, saveDelayMs: 20 });
    for (let i = 0; i < 20; i++) index.projects('a', [row(`p${i}`)]);
    index.projects('gone', [row('x')]);
    index.keepOnly(['a']);
    await new Promise((r) => setTimeout(r, 80));
    expect(saves).toHaveLength(1);
    expect(Object.keys(saves[0]!.profiles)).toEqual(['a']);
    expect(saves[0]!.profiles.a).toHaveLength(20);

    await writeFile(path, '{"version":1,"profiles":{"a":[{"row":{}}]}');
    const fresh = createReviewIndex(events, { file: createJsonFile(path, SavedReviewIndexSchema) });
    await fresh.load();
    expect(fresh.snapshot('a').projects).toEqual([]);
    await writeFile(path, 'not json');
    await fresh.load();
    expect(fresh.snapshot('a').projects).toEqual([]);
    expect(await readFile(path, 'utf8')).toBe('not json'); // loading never rewrites the file
  });
});
