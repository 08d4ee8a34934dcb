/**
 * Issue 24, items 1 and 8, symptom by symptom, through the router of the whole main process (browser mode's file
 * stores) against a real sandbox on 127.0.0.1. The damaged-file matrix is state-files.test.ts.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProfilesState, Result } from '../../../shared/ipc';
import { createSandbox, type Sandbox } from '../../sandbox/server';
import { startBrowserMode } from './browser-mode';
import { createJsonSettingsStore } from '../profiles';
import { createFileSecretStore } from '../secrets';
import { createServices, type Services } from './services';
import { createStateNotices } from '../kernel/state-recovery';
import { testServicesOptions } from './test-support/test-world';
import { DATA_DIR_STATE_FILES } from './state-files';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox({ delivery: 'manual' });
});
afterAll(() => sandbox.close());

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'takedesk-damaged-state-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A temp folder with the app data folder (`data`) made inside it. */
async function tempDataDir(): Promise<{ dir: string; dataDir: string }> {
  const dir = await tempDir();
  const dataDir = join(dir, 'data');
  await mkdir(dataDir);
  return { dir, dataDir };
}

/** Browser mode's services over `dataDir` (its settings and token files), on the shared sandbox. */
async function startApp(dataDir: string): Promise<Services> {
  // The stores report what they recover through the same list as the services (browser-mode.ts wires it so).
  const notices = createStateNotices();
  const services = await createServices({
    ...testServicesOptions(dataDir, join(dataDir, 'Default Library')),
    notices,
    settingsStore: createJsonSettingsStore({ path: join(dataDir, 'browser-mode-settings.json'), notices }),
    secrets: createFileSecretStore({ path: join(dataDir, 'browser-mode-secrets.json'), notices }),
    externalSandbox: { url: sandbox.url, token: sandbox.tokens.full },
  });
  cleanups.push(() => services.dispose());
  return services;
}

const call = async <T>(services: Services, channel: string): Promise<Result<T>> =>
  (await services.router.invoke(channel, undefined, { transport: 'browser' })) as Result<T>;
async function value<T>(services: Services, channel: string): Promise<T> {
  const result = await call<T>(services, channel);
  if (!result.ok) throw new Error(`${channel} failed: ${result.error.type} ${result.error.message}`);
  return result.value;
}

const account = (n: number) => ({
  id: `acct-${n}`,
  name: `Studio ${n}`,
  baseUrl: `https://studio-${n}.example`,
  kind: 'service',
  createdAt: '2026-01-01T00:00:00.000Z',
});

describe('issue 24, item 1: a damaged settings file', () => {
  it('cut in half keeps the accounts, library folder and QA targets before the cut, with a copy of the damaged file', async () => {
    const { dir, dataDir } = await tempDataDir();
    const libraryDir = join(dir, 'My Library');
    const path = join(dataDir, 'browser-mode-settings.json');
    const text = JSON.stringify(
      {
        preferences: { libraryDir, theme: 'dark' },
        qaTargets: { sandbox: { 'proj-1': { target: 'ebu-r128', from: 'producer' } } },
        profiles: {
          profiles: [
            {
              id: 'sandbox',
              name: 'Sandbox',
              baseUrl: '',
              kind: 'sandbox',
              createdAt: '2026-01-01T00:00:00.000Z',
            },
            ...[1, 2, 3, 4, 5, 6].map(account),
          ],
          activeId: 'sandbox',
        },
      },
      null,
      2,
    );
    const cut = Math.floor(text.length / 2);
    const damaged = text.slice(0, cut);
    await writeFile(path, damaged);
    const wholeBeforeCut = [1, 2, 3, 4, 5, 6].filter(
      (n) => text.indexOf('}', text.indexOf(`"acct-${n}"`)) < cut,
    );
    expect(wholeBeforeCut.length).toBeGreaterThan(0);

    const services = await startApp(dataDir);
    const state = await value<ProfilesState>(services, 'profiles.list');
    expect(state.profiles.map((p) => p.id)).toEqual(['sandbox', ...wholeBeforeCut.map((n) => `acct-${n}`)]);
    expect((await value<{ libraryDir: string; theme: string }>(services, 'settings.get')).libraryDir).toBe(
      libraryDir,
    );
    expect(await value(services, 'qa.targets')).toEqual({
      'proj-1': { target: 'ebu-r128', from: 'producer' },
    });
    // The damaged bytes are kept before anything is written over them.
    const copies = (await readdir(dataDir)).filter((n) => n.startsWith('browser-mode-settings.damaged-'));
    expect(copies).toHaveLength(1);
    expect(await readFile(join(dataDir, copies[0]!), 'utf8')).toBe(damaged);
    // Told once, with what was reset.
    const [notice, ...others] = await value<Array<{ file: string; reset: string[]; message: string }>>(
      services,
      'app.notices',
    );
    expect(others).toEqual([]);
    expect(notice).toMatchObject({ file: 'browser-mode-settings.json' });
    expect(notice!.message).toContain(copies[0]!);
    expect(await value(services, 'app.notices')).toEqual([]);
  });
});

describe('issue 24, item 1: browser mode as started by `npm start`', () => {
  it('reports what its settings and token files recovered through app.notices, once', async () => {
    const { dir, dataDir } = await tempDataDir();
    await writeFile(
      join(dataDir, 'browser-mode-settings.json'),
      '{"preferences": {"theme": "dark", "concurrency": 9}}',
    );
    await writeFile(join(dataDir, 'browser-mode-secrets.json'), '["not a map"]', { mode: 0o600 });
    const mode = await startBrowserMode({
      rendererDir: dir,
      dataDir,
      port: 0,
      libraryDir: join(dir, 'Library'),
      externalSandbox: { url: sandbox.url, token: sandbox.tokens.full },
      revealInOs: false,
    });
    cleanups.push(() => mode.close());
    const notices = await value<Array<{ file: string; reset: string[] }>>(mode.services, 'app.notices');
    expect(notices.map((n) => [n.file, n.reset])).toEqual([
      ['browser-mode-settings.json', ['preferences.concurrency']],
      ['browser-mode-secrets.json', ['(everything)']],
    ]);
    expect(await value(mode.services, 'app.notices')).toEqual([]);
    expect(await value<{ theme: string }>(mode.services, 'settings.get')).toMatchObject({
      theme: 'dark',
      concurrency: 3,
    });
  });
});

describe('issue 24, item 1: a damaged token file costs the tokens only', () => {
  it('profiles, library, downloads and QA targets still answer; the accounts stay', async () => {
    const { dataDir } = await tempDataDir();
    await writeFile(
      join(dataDir, 'browser-mode-settings.json'),
      JSON.stringify({ profiles: { profiles: [account(1)], activeId: 'sandbox' } }),
    );
    await writeFile(join(dataDir, 'browser-mode-secrets.json'), '{"profile-token:acct-1": "tok', {
      mode: 0o600,
    });
    const services = await startApp(dataDir);
    for (const channel of ['profiles.list', 'library.list', 'downloads.list', 'qa.targets']) {
      const result = await call(services, channel);
      expect(result, channel).toMatchObject({ ok: true });
    }
    const state = await value<ProfilesState>(services, 'profiles.list');
    expect(state.profiles.map((p) => [p.id, p.hasToken])).toEqual([
      ['sandbox', true],
      ['acct-1', false],
    ]);
  });
});

describe('issue 24, item 1: a damaged library manifest', () => {
  it('is rebuilt from the files on disk: full ids from the downloads that made them, else from their names', async () => {
    const { dataDir } = await tempDataDir();
    const libraryDir = join(dataDir, 'Default Library');
    const projectId = '3f2a9c1d-0000-4000-8000-000000000001';
    const downloaded = {
      relativePath: 'Spring promo (3f2a9c1d)/voice_over-1-9b1deb4d-v2.wav',
      deliverableId: '9b1deb4d-0000-4000-8000-000000000002',
    };
    const unknown = 'Spring promo (3f2a9c1d)/voice_over-2-7c0ffee0-v1.mp3';
    for (const rel of [downloaded.relativePath, unknown]) {
      await mkdir(join(libraryDir, 'Spring promo (3f2a9c1d)'), { recursive: true });
      await writeFile(join(libraryDir, rel), 'RIFF');
    }
    await mkdir(join(libraryDir, '.takedesk'), { recursive: true });
    await writeFile(join(libraryDir, '.takedesk', 'library.json'), '\u0000\u0000 not a manifest');
    const job = {
      id: 'job-done',
      projectId,
      projectTitle: 'Spring promo',
      deliverableId: downloaded.deliverableId,
      deliverableName: '1',
      serviceSubCategory: 'voice_over',
      version: 2,
      format: 'wav',
      state: 'done',
      bytes: 4,
      total: 4,
      rate: 0,
      etaSeconds: null,
      error: null,
      relativePath: downloaded.relativePath,
      libraryId: 'item-of-job-done',
      createdAt: '2026-01-01T00:00:00.000Z',
      profileId: 'sandbox',
    };
    await writeFile(
      join(dataDir, 'downloads.json'),
      JSON.stringify({
        version: 1,
        jobs: [
          {
            job,
            request: { deliverableId: job.deliverableId, format: 'wav', projectId },
            etag: null,
            orderedSeconds: 30,
          },
        ],
      }),
    );
    const services = await startApp(dataDir);
    const items = await value<Array<Record<string, unknown>>>(services, 'library.list');
    const byPath = new Map(items.map((i) => [i.relativePath, i]));
    expect([...byPath.keys()].sort()).toEqual([downloaded.relativePath, unknown].sort());
    expect(byPath.get(downloaded.relativePath)).toMatchObject({
      id: 'item-of-job-done',
      projectId,
      deliverableId: downloaded.deliverableId,
      deliverableName: '1',
      version: 2,
      orderedSeconds: 30,
      profileId: 'sandbox',
    });
    expect(byPath.get(unknown)).toMatchObject({
      projectId: '3f2a9c1d',
      deliverableId: '7c0ffee0',
      version: 1,
    });
    const [notice] = await value<Array<{ file: string; message: string }>>(services, 'app.notices');
    expect(notice).toMatchObject({ file: 'library.json' });
    expect(notice!.message).toMatch(/2 files in the library folder were listed again/u);
  });
});

describe("issue 24, item 8: leftovers of the app's own state files", () => {
  it('temp files of killed atomic writes go at start, beside every state file; nothing else is touched', async () => {
    const { dataDir } = await tempDataDir();
    const libraryDir = join(dataDir, 'Default Library');
    await mkdir(join(libraryDir, '.takedesk'), { recursive: true });
    // write-file-atomic's `<file>.<uint32>`, and electron-store's (atomically) `<file>.tmp-<time><hex>`, beside
    // each state file main lists (the list is the one start-up walks; restating it here would only copy it).
    const leftovers = [
      ...DATA_DIR_STATE_FILES.map((name) => join(dataDir, `${name}.2882400018`)),
      join(dataDir, 'settings.json.tmp-1732600000a1b2c3'),
      join(libraryDir, '.takedesk', 'library.json.0123456789ab.tmp'),
    ];
    const kept = [
      join(dataDir, 'outbox.json.bak'),
      join(dataDir, 'notes.txt'),
      join(dataDir, 'watcher.json.12ab'),
    ];
    for (const path of [...leftovers, ...kept]) await writeFile(path, 'half a write');
    const services = await startApp(dataDir);
    await value(services, 'library.list');
    const left = [...(await readdir(dataDir)), ...(await readdir(join(libraryDir, '.takedesk')))];
    for (const path of leftovers) expect(left, path).not.toContain(path.split('/').pop());
    for (const path of kept) expect(left).toContain(path.split('/').pop());
  });
});
