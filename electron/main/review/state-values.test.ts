import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Deliverable, ProjectListItem } from '../../../shared/api';
import { createJsonFile } from '../kernel/json-file';
import { createReviewIndex, SavedReviewIndexSchema } from './review-index';
import { createStateNotices } from '../kernel/state-recovery';
import { WatcherMemorySchema } from '../watcher';
import { openDatabase } from './database';
import { DATABASE_MIGRATIONS } from './migrations';
import { createDatabaseValue } from './state-values';

/**
 * Issue 23: the review index and the watcher's memory live in the embedded database; the JSON file of an earlier
 * version moves in once.
 */
describe('values kept in the database', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'takedesk-state-values-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const events = { emit: () => undefined };
  const row = (id: string): ProjectListItem => ({ id, title: `Project ${id}`, status: 'paid' });
  const take = (id: string, status: string) =>
    ({ id, name: id, serviceSubCategory: 'voice_over', status, urls: {} }) as Deliverable;

  it('moves an earlier version’s review-index.json in once, without loss, and keeps the file as .migrated', async () => {
    const path = join(dir, 'review-index.json');
    // What an earlier version wrote, through its own JSON file.
    const before = createReviewIndex(events, { file: createJsonFile(path, SavedReviewIndexSchema) });
    before.projects('a', [row('p1'), row('p2')]);
    before.deliverables('a', 'p1', [take('d1', 'reviewable')]);
    before.projects('b', [row('p9')]);
    await before.flush();

    const { db } = openDatabase(join(dir, 'takedesk.sqlite'), DATABASE_MIGRATIONS);
    const value = () =>
      createDatabaseValue(db, 'review-index', SavedReviewIndexSchema, {
        path,
        label: 'The review overview file',
      });
    const after = createReviewIndex(events, { file: value() });
    await after.load();
    expect(after.snapshot('a').projects.map((p) => [p.project.id, p.counts?.ready ?? null])).toEqual([
      ['p1', 1],
      ['p2', null],
    ]);
    expect(after.snapshot('b').projects.map((p) => p.project.id)).toEqual(['p9']);
    expect(existsSync(path)).toBe(false);
    expect(existsSync(`${path}.migrated`)).toBe(true);

    // From then on the database answers, and keeps what changes.
    after.deliverables('a', 'p2', [take('d2', 'reviewable')]);
    await after.flush();
    const again = createReviewIndex(events, { file: value() });
    await again.load();
    expect(again.snapshot('a').projects.map((p) => p.counts?.ready ?? null)).toEqual([1, 1]);
    db.close();
  });

  it('moves an earlier version’s watcher.json in once: what the watcher had seen is not seen as new', async () => {
    const path = join(dir, 'watcher.json');
    const seen = { sandbox: { p1: { status: 'paid', signature: 'sig-1' } } };
    await writeFile(path, JSON.stringify(seen));
    const { db } = openDatabase(join(dir, 'takedesk.sqlite'), DATABASE_MIGRATIONS);
    const memory = () =>
      createDatabaseValue(db, 'watcher', WatcherMemorySchema, { path, label: "The watcher's memory file" });
    expect(await memory().load()).toEqual(seen);
    expect(existsSync(`${path}.migrated`)).toBe(true);
    expect(await memory().load()).toEqual(seen);
    db.close();
  });

  it('reads a damaged file under the state-file rule: a copy, a notice, what could be read moved in', async () => {
    const path = join(dir, 'review-index.json');
    await writeFile(path, '{"version":1,"profiles":{"a":[');
    const notices = createStateNotices();
    const { db } = openDatabase(join(dir, 'takedesk.sqlite'), DATABASE_MIGRATIONS);
    const file = createDatabaseValue(db, 'review-index', SavedReviewIndexSchema, {
      path,
      label: 'The review overview file',
      notices,
    });
    // The truncated file's readable part: profile a, with nothing of it left.
    expect(await file.load()).toEqual({ version: 1, profiles: { a: [] } });
    expect(notices.take().map((n) => n.file)).toEqual(['review-index.json']);
    expect(existsSync(path)).toBe(false);
    // Nothing is read from a file of that name again: the database answers.
    await writeFile(path, 'not read again');
    expect(await file.load()).toEqual({ version: 1, profiles: { a: [] } });
    expect(notices.take()).toEqual([]);
    db.close();
  });
});
