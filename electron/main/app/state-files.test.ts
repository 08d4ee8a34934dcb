/**
 * Damaged state files (issue 24, items 1 and 8): every state file main keeps × every way it can be damaged, with the
 * whole main process (browser mode's file stores) against a real sandbox on 127.0.0.1. Whatever the damage: the
 * services start and every screen's channel answers, what was good in the file survives, a copy of the damaged
 * bytes is kept beside it, and a notice says what was reset.
 */
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Conf from 'conf';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type {
  DownloadJob,
  LibraryItem,
  OutboxItem,
  ProfilesState,
  ProjectQaTarget,
  Result,
  ReviewSnapshot,
  Settings,
  StateNotice,
} from '../../../shared/ipc';
import { createSandbox, type Sandbox } from '../../sandbox/server';
import { createJsonSettingsStore } from '../profiles';
import { createFileSecretStore } from '../secrets';
import { createServices, type Services } from './services';
import { ElectronSecretsFileSchema, openRecoveredStore, SettingsFileSchema } from './state-files';
import { createStateNotices } from '../kernel/state-recovery';
import { testServicesOptions } from './test-support/test-world';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox({ delivery: 'manual' });
});
afterAll(() => sandbox.close());

const CREATED = '2026-01-01T00:00:00.000Z';
const PROJECT = '3f2a9c1d-0000-4000-8000-000000000001';

/** One app data folder and library with every state file written as the app writes it. */
interface World {
  dir: string;
  dataDir: string;
  libraryDir: string;
}

const profile = (id: string, name: string) => ({
  id,
  name,
  baseUrl: `https://${id}.example`,
  kind: 'service',
  createdAt: CREATED,
});

const libraryItem = (id: string, deliverableId: string, name: string): LibraryItem => ({
  id,
  projectId: PROJECT,
  projectTitle: 'Spring promo',
  deliverableId,
  deliverableName: name,
  serviceSubCategory: 'voice_over',
  version: 1,
  format: 'wav',
  relativePath: `Spring promo (3f2a9c1d)/voice_over-${name}-${deliverableId.slice(0, 8)}-v1.wav`,
  size: 4,
  sha256: '',
  downloadedAt: CREATED,
  orderedSeconds: null,
  analysis: null,
  hasPeaks: false,
  profileId: 'sandbox',
});
const KEPT_ITEM = libraryItem('item-kept', '9b1deb4d-0000-4000-8000-000000000002', 'First');
const LAST_ITEM = libraryItem('item-last', '7c0ffee0-0000-4000-8000-000000000003', 'Second');

const job = (id: string, deliverableId: string) => ({
  job: {
    id,
    projectId: PROJECT,
    projectTitle: 'Spring promo',
    deliverableId,
    deliverableName: id,
    serviceSubCategory: 'voice_over',
    version: 1,
    format: 'wav',
    state: 'paused',
    bytes: 0,
    total: null,
    rate: 0,
    etaSeconds: null,
    error: null,
    relativePath: `Spring promo (3f2a9c1d)/voice_over-${id}-${deliverableId.slice(0, 8)}-v1.wav`,
    libraryId: null,
    createdAt: CREATED,
    profileId: 'sandbox',
  },
  request: { deliverableId, format: 'wav', projectId: PROJECT, profileId: 'sandbox' },
  etag: null,
  orderedSeconds: null,
});

const outboxItem = (id: string): OutboxItem => ({
  id,
  profileId: 'sandbox',
  decision: { kind: 'approve', deliverableId: '9b1deb4d-0000-4000-8000-000000000002' },
  subject: `Decision ${id}`,
  state: 'sent',
  queuedAt: CREATED,
  sentAt: CREATED,
  outcome: 'Approved.',
  conflict: null,
  heard: null,
  unconfirmed: false,
  nextAttemptAt: null,
});

const reviewEntry = (id: string, title: string) => ({
  row: { id, title, mainService: 'voice_over', status: 'paid' },
  deliverables: null,
  checkedAt: null,
});

/** What the app reads back through the router once it has started. */
interface Seen {
  settings: Settings;
  profiles: ProfilesState;
  qa: Record<string, ProjectQaTarget>;
  library: LibraryItem[];
  downloads: DownloadJob[];
  outbox: OutboxItem[];
  review: ReviewSnapshot;
  notices: StateNotice[];
  /** The state file as it is on disk after the start (the watcher's memory is read only there). */
  fileAfter: () => Promise<unknown>;
}

/** A fixture's JSON, edited freely by the damage functions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test fixtures are reshaped at will
type Doc = any;

type Damage = 'truncated' | 'invalid JSON' | 'wrong types' | 'one bad value' | 'unreadable';

interface StateFileCase {
  name: string;
  path: (w: World) => string;
  /** The file as the app writes it, with a first entry that damage late in the file must not cost. */
  good: (w: World) => unknown;
  /** Where truncation and invalid bytes go: inside the file's last entry. */
  lastEntry: string;
  /** The good file with one value out of its range or type. */
  oneBadValue: (good: Doc) => unknown;
  /** The good file with a whole part of the wrong type. */
  wrongTypes: (good: Doc) => unknown;
  /** What must survive each damage. */
  survives: (seen: Seen, damage: Damage, w: World) => Promise<void> | void;
}

const cases: StateFileCase[] = [
  {
    name: 'browser-mode-settings.json',
    path: (w) => join(w.dataDir, 'browser-mode-settings.json'),
    good: (w) => ({
      preferences: { libraryDir: w.libraryDir, theme: 'dark', concurrency: 2 },
      profiles: {
        profiles: [
          { id: 'sandbox', name: 'Sandbox', baseUrl: '', kind: 'sandbox', createdAt: CREATED },
          profile('acct-1', 'Studio A'),
          profile('acct-2', 'Studio B'),
        ],
        activeId: 'sandbox',
      },
      qaTargets: { sandbox: { 'proj-a': { target: 'ebu-r128', from: 'producer' } } },
    }),
    lastEntry: '"proj-a"',
    oneBadValue: (g) => ({ ...g, preferences: { ...g.preferences, concurrency: 9 } }),
    wrongTypes: (g) => ({ ...g, profiles: 'Studio A, Studio B' }),
    survives(seen, damage, w) {
      if (damage === 'unreadable') return;
      expect(seen.settings.theme).toBe('dark');
      expect(seen.settings.libraryDir).toBe(w.libraryDir);
      if (damage === 'wrong types') {
        expect(seen.qa).toEqual({ 'proj-a': { target: 'ebu-r128', from: 'producer' } });
        return;
      }
      expect(seen.profiles.profiles.map((p) => p.name)).toEqual(['Sandbox', 'Studio A', 'Studio B']);
      if (damage === 'one bad value') {
        expect(seen.settings.concurrency).toBe(3);
        expect(seen.qa).toEqual({ 'proj-a': { target: 'ebu-r128', from: 'producer' } });
      }
    },
  },
  {
    name: 'browser-mode-secrets.json',
    path: (w) => join(w.dataDir, 'browser-mode-secrets.json'),
    good: () => ({ 'profile-token:acct-1': 'tok-1', 'profile-token:acct-2': 'tok-2' }),
    lastEntry: '"tok-2"',
    oneBadValue: (g) => ({ ...g, 'profile-token:acct-2': 42 }),
    wrongTypes: () => ['tok-1', 'tok-2'],
    survives(seen, damage) {
      const hasToken = Object.fromEntries(seen.profiles.profiles.map((p) => [p.id, p.hasToken]));
      // The accounts stay whatever happened to their tokens.
      expect(Object.keys(hasToken)).toEqual(['sandbox', 'acct-1', 'acct-2']);
      expect(hasToken['acct-2']).toBe(false);
      expect(hasToken['acct-1']).toBe(damage !== 'unreadable' && damage !== 'wrong types');
    },
  },
  {
    name: 'downloads.json',
    path: (w) => join(w.dataDir, 'downloads.json'),
    good: () => ({
      version: 1,
      jobs: [
        job('job-1', '11111111-0000-4000-8000-000000000004'),
        job('job-2', '22222222-0000-4000-8000-000000000005'),
      ],
    }),
    lastEntry: '"job-2"',
    oneBadValue: (g) => ({ ...g, jobs: [g.jobs[0], { ...g.jobs[1], job: { ...g.jobs[1].job, id: 7 } }] }),
    wrongTypes: (g) => ({ ...g, jobs: { 'job-1': g.jobs[0] } }),
    survives(seen, damage) {
      if (damage === 'unreadable' || damage === 'wrong types') return;
      expect(seen.downloads.map((j) => j.id)).toEqual(['job-1']);
    },
  },
  {
    name: 'outbox.json',
    path: (w) => join(w.dataDir, 'outbox.json'),
    good: () => ({ version: 1, items: [outboxItem('ob-1'), outboxItem('ob-2')] }),
    lastEntry: '"ob-2"',
    oneBadValue: (g) => ({ ...g, items: [g.items[0], { ...g.items[1], queuedAt: 5 }] }),
    wrongTypes: () => ({ version: 1, items: 'ob-1' }),
    survives(seen, damage) {
      if (damage === 'unreadable' || damage === 'wrong types') return;
      expect(seen.outbox.map((i) => i.id)).toEqual(['ob-1']);
    },
  },
  {
    name: 'review-index.json',
    path: (w) => join(w.dataDir, 'review-index.json'),
    good: () => ({
      version: 1,
      profiles: { sandbox: [reviewEntry('proj-a', 'Kept project'), reviewEntry('proj-b', 'Last project')] },
    }),
    lastEntry: '"proj-b"',
    oneBadValue: (g) => ({
      ...g,
      profiles: { sandbox: [g.profiles.sandbox[0], { ...g.profiles.sandbox[1], checkedAt: 12 }] },
    }),
    wrongTypes: (g) => ({ ...g, profiles: { sandbox: g.profiles.sandbox, other: 'x' } }),
    survives(seen, damage) {
      if (damage === 'unreadable') return;
      const ids = seen.review.projects.map((p) => p.project.id);
      expect(ids).toContain('proj-a');
      if (damage === 'wrong types') expect(ids).toContain('proj-b');
      else expect(ids).not.toContain('proj-b');
    },
  },
  {
    name: 'watcher.json',
    path: (w) => join(w.dataDir, 'watcher.json'),
    good: () => ({
      sandbox: {
        'proj-a': { status: 'paid', signature: 'sig-a' },
        'proj-b': { status: 'paid', signature: 'sig-b' },
      },
    }),
    lastEntry: '"sig-b"',
    oneBadValue: (g) => ({ sandbox: { ...g.sandbox, 'proj-b': { status: 'paid', signature: null } } }),
    wrongTypes: (g) => ({ ...g, other: ['x'] }),
    async survives(_seen, damage, w) {
      if (damage === 'unreadable') return;
      // The memory moves into the database once; what was kept of the file is written back, then the file is
      // renamed `.migrated` (just after the notice).
      await vi.waitFor(async () => {
        const after = JSON.parse(await readFile(join(w.dataDir, 'watcher.json.migrated'), 'utf8')) as Record<
          string,
          Record<string, unknown>
        >;
        expect(after.sandbox?.['proj-a']).toEqual({ status: 'paid', signature: 'sig-a' });
      });
    },
  },
  {
    name: 'library.json',
    path: (w) => join(w.libraryDir, '.takedesk', 'library.json'),
    good: () => ({ version: 2, items: [KEPT_ITEM, LAST_ITEM] }),
    lastEntry: '"item-last"',
    oneBadValue: (g) => ({ ...g, items: [g.items[0], { ...g.items[1], size: 'four' }] }),
    wrongTypes: () => ({ version: 2, items: { first: KEPT_ITEM } }),
    survives(seen, damage) {
      const byPath = new Map(seen.library.map((i) => [i.relativePath, i]));
      // Every file on disk is listed: from the manifest where it is good, from its name where it is not.
      expect([...byPath.keys()].sort()).toEqual([KEPT_ITEM.relativePath, LAST_ITEM.relativePath].sort());
      if (damage === 'unreadable' || damage === 'wrong types')
        expect(byPath.get(KEPT_ITEM.relativePath)?.deliverableId).toBe('9b1deb4d');
      else expect(byPath.get(KEPT_ITEM.relativePath)).toEqual(KEPT_ITEM);
      expect(byPath.get(LAST_ITEM.relativePath)).toMatchObject({
        deliverableId: expect.any(String),
        size: 4,
      });
    },
  },
];

const DAMAGES: Damage[] = ['truncated', 'invalid JSON', 'wrong types', 'one bad value', 'unreadable'];

async function writeWorld(): Promise<World> {
  const dir = await mkdtemp(join(tmpdir(), 'takedesk-state-files-'));
  const w: World = { dir, dataDir: join(dir, 'data'), libraryDir: join(dir, 'My Library') };
  for (const c of cases) {
    const path = c.path(w);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, JSON.stringify(c.good(w), null, 2));
  }
  for (const item of [KEPT_ITEM, LAST_ITEM]) {
    const path = join(w.libraryDir, ...item.relativePath.split('/'));
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, 'RIFF');
  }
  return w;
}

/** Damages the file; returns the damaged bytes (null when it was made unreadable: a folder in its place). */
async function damage(c: StateFileCase, w: World, kind: Damage): Promise<string | null> {
  const path = c.path(w);
  const text = await readFile(path, 'utf8');
  const at = text.indexOf(c.lastEntry) + 3;
  let damaged: string;
  if (kind === 'unreadable') {
    await rm(path);
    await mkdir(path);
    await writeFile(join(path, 'what-was-here'), text);
    return null;
  }
  if (kind === 'truncated') damaged = text.slice(0, at);
  else if (kind === 'invalid JSON') damaged = `${text.slice(0, at)}\u0000#}${text.slice(at)}`;
  else if (kind === 'wrong types') damaged = JSON.stringify(c.wrongTypes(JSON.parse(text)), null, 2);
  else damaged = JSON.stringify(c.oneBadValue(JSON.parse(text)), null, 2);
  await writeFile(path, damaged);
  return damaged;
}

/** The app as browser mode starts it (its file stores reporting with the services), on the shared sandbox. */
async function startApp(w: World): Promise<Services> {
  const notices = createStateNotices();
  return createServices({
    ...testServicesOptions(w.dataDir, join(w.dir, 'Default Library')),
    notices,
    settingsStore: createJsonSettingsStore({ path: join(w.dataDir, 'browser-mode-settings.json'), notices }),
    secrets: createFileSecretStore({ path: join(w.dataDir, 'browser-mode-secrets.json'), notices }),
    externalSandbox: { url: sandbox.url, token: sandbox.tokens.full },
  });
}

async function value<T>(services: Services, channel: string): Promise<T> {
  const result = (await services.router.invoke(channel, undefined, { transport: 'browser' })) as Result<T>;
  if (!result.ok) throw new Error(`${channel} failed: ${result.error.type} ${result.error.message}`);
  return result.value;
}

describe('damaged state files: every file × every damage (issue 24)', () => {
  for (const c of cases) {
    for (const kind of DAMAGES) {
      it(`${c.name}, ${kind}: the app starts, the good survives, a copy is kept, a notice says what was reset`, async () => {
        const w = await writeWorld();
        const damagedBytes = await damage(c, w, kind);
        const services = await startApp(w);
        try {
          const notices: StateNotice[] = [];
          const take = async () => notices.push(...(await value<StateNotice[]>(services, 'app.notices')));
          // Every screen's channel answers (the offline library too, whatever happened to the tokens).
          const seen: Seen = {
            settings: await value(services, 'settings.get'),
            profiles: await value(services, 'profiles.list'),
            qa: await value(services, 'qa.targets'),
            library: await value(services, 'library.list'),
            downloads: await value(services, 'downloads.list'),
            outbox: await value(services, 'outbox.list'),
            review: await value(services, 'projects.review'),
            notices,
            fileAfter: async () => JSON.parse(await readFile(c.path(w), 'utf8')) as unknown,
          };
          // The watcher reads its memory on its first round; the others have read theirs by now.
          await vi.waitFor(
            async () => {
              await take();
              expect(notices.map((n) => n.file)).toContain(c.name);
            },
            { timeout: 5000, interval: 50 },
          );
          const notice = notices.find((n) => n.file === c.name)!;
          expect(notice.reset.length).toBeGreaterThan(0);
          expect(notice.message).toMatch(/reset|started empty/u);
          // Only the damaged file is reported.
          expect(notices.map((n) => n.file)).toEqual([c.name]);

          const folder = dirname(c.path(w));
          const copies = (await readdir(folder)).filter((n) =>
            n.startsWith(`${c.name.replace(/\.json$/u, '')}.damaged-`),
          );
          expect(copies).toHaveLength(1);
          expect(notice.copy).toBe(join(folder, copies[0]!));
          if (damagedBytes === null)
            expect(await readFile(join(notice.copy!, 'what-was-here'), 'utf8')).toContain('{');
          else expect(await readFile(notice.copy!, 'utf8')).toBe(damagedBytes);

          await c.survives(seen, kind, w);
          // The file in its place is sound again (or gone, to be written on the next change).
          const info = await lstat(c.path(w)).catch(() => null);
          if (info) expect(info.isFile()).toBe(true);
        } finally {
          await services.dispose();
          await rm(w.dir, { recursive: true, force: true });
        }
      });
    }
  }
});

describe("electron-store's files (Electron): every file × every damage (issue 24)", () => {
  // electron-store is conf with Electron's folder: conf itself runs under Node.
  const rows = [
    {
      name: 'settings',
      schema: SettingsFileSchema,
      good: {
        preferences: { theme: 'dark', concurrency: 2 },
        windowBounds: { x: 1, y: 2, width: 800, height: 600 },
        profiles: {
          profiles: [profile('acct-1', 'Studio A'), profile('acct-2', 'Studio B')],
          activeId: 'acct-1',
        },
      },
      lastEntry: '"Studio B"',
      oneBadValue: (g: Doc) => ({ ...g, preferences: { ...g.preferences, concurrency: 9 } }),
      wrongTypes: (g: Doc) => ({ ...g, profiles: ['Studio A'] }),
      survives(store: Conf<Record<string, unknown>>, kind: Damage) {
        if (kind === 'unreadable') return;
        expect(store.get('preferences')).toEqual({
          theme: 'dark',
          ...(kind === 'one bad value' ? {} : { concurrency: 2 }),
        });
        expect(store.get('windowBounds')).toEqual({ x: 1, y: 2, width: 800, height: 600 });
      },
    },
    {
      name: 'secrets',
      schema: ElectronSecretsFileSchema,
      good: { encryptedSecrets: { 'profile-token:acct-1': 'ZW5jMQ==', 'profile-token:acct-2': 'ZW5jMg==' } },
      lastEntry: '"ZW5jMg=="',
      oneBadValue: (g: Doc) => ({ encryptedSecrets: { ...g.encryptedSecrets, 'profile-token:acct-2': 7 } }),
      wrongTypes: () => ({ encryptedSecrets: ['ZW5jMQ=='] }),
      survives(store: Conf<Record<string, unknown>>, kind: Damage) {
        if (kind === 'unreadable' || kind === 'wrong types') return;
        expect(store.get('encryptedSecrets')).toEqual({ 'profile-token:acct-1': 'ZW5jMQ==' });
      },
    },
  ];
  for (const row of rows) {
    for (const kind of DAMAGES) {
      it(`${row.name}.json, ${kind}: opens (no throw, not cleared), the good survives, a copy is kept, a notice`, async () => {
        const dir = await mkdtemp(join(tmpdir(), 'takedesk-electron-store-'));
        try {
          const path = join(dir, `${row.name}.json`);
          const text = JSON.stringify(row.good, null, '\t');
          const at = text.indexOf(row.lastEntry) + 3;
          let damaged: string | null = null;
          if (kind === 'unreadable') await mkdir(path);
          else {
            damaged =
              kind === 'truncated'
                ? text.slice(0, at)
                : kind === 'invalid JSON'
                  ? `${text.slice(0, at)}\u0000#}${text.slice(at)}`
                  : JSON.stringify(
                      kind === 'wrong types' ? row.wrongTypes(row.good) : row.oneBadValue(row.good),
                    );
            await writeFile(path, damaged);
          }
          const open = () =>
            new Conf<Record<string, unknown>>({ cwd: dir, configName: row.name, clearInvalidConfig: false });
          // What the app did before: electron-store threw at start on a file it could not parse.
          if (kind === 'truncated' || kind === 'invalid JSON') expect(open).toThrow(SyntaxError);
          const notices = createStateNotices();
          const store = openRecoveredStore<Conf<Record<string, unknown>>>({
            path,
            schema: row.schema,
            label: row.name,
            notices,
            open,
            fallback: () => {
              throw new Error('the recovered file should open');
            },
          });
          row.survives(store, kind);
          const [notice, ...more] = notices.take();
          expect(more).toEqual([]);
          expect(notice).toMatchObject({ file: `${row.name}.json` });
          const copies = (await readdir(dir)).filter((n) => n.startsWith(`${row.name}.damaged-`));
          expect(copies).toHaveLength(1);
          expect(notice!.copy).toBe(join(dir, copies[0]!));
          if (damaged !== null) expect(await readFile(notice!.copy!, 'utf8')).toBe(damaged);
          store.set('later', 1);
          expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ later: 1 });
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      });
    }
  }
});
