import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LibraryItem, MediaFormat } from '../../../shared/ipc';
import {
  audioAdsBody,
  call,
  startSandbox,
  voiceOverBody,
  type Loose,
} from '../../sandbox/test-support/test-helpers';
import type { Sandbox } from '../../sandbox/server';

// Issue 13: kill -9 the app during downloads and library writes at seeded random points, restart it on the same
// data and library folders, and check after every kill and at the end that every library item's file exists with
// its recorded size and sha256, that no incomplete file sits under a final name, and that nothing outside the
// library changed.

const CHILD = join(import.meta.dirname, 'test-support/crash-child.ts');
const sha = (buf: Buffer) => createHash('sha256').update(buf).digest('hex');

let sb: Sandbox;
const wanted: Array<{ deliverableId: string; projectId: string; format: MediaFormat }> = [];
/** sha256 of every file the sandbox serves for the wanted deliverables. */
const servedShas = new Set<string>();
const children: ChildProcess[] = [];

beforeAll(async () => {
  sb = await startSandbox();
  const token = sb.tokens.full;
  const vo = (await call(sb, 'POST', '/projects', { token, body: voiceOverBody() })).body as Loose;
  const ads = (await call(sb, 'POST', '/projects', { token, body: audioAdsBody() })).body as Loose;
  await sb.deliverNow();
  // A rejected deliverable and its replacement (same name): both are wanted, each with a file of its own.
  const first = ((await call(sb, 'GET', `/deliverables/project/${vo.id}`, { token })).body as Loose[])[0];
  await call(sb, 'PUT', `/deliverables/${first.id}`, {
    token,
    body: { status: 'rejected', reason: 'Wrong tone' },
  });
  await sb.deliverNow();
  for (const project of [vo, ads]) {
    const list = (await call(sb, 'GET', `/deliverables/project/${project.id}`, { token })).body as Loose[];
    for (const d of list) {
      for (const format of ['wav', 'mp3', 'pdf'] as const) {
        const url = d.urls[format] as string | undefined;
        if (!url) continue;
        wanted.push({ deliverableId: d.id, projectId: project.id, format });
        servedShas.add(sha(Buffer.from(await (await fetch(url)).arrayBuffer())));
      }
    }
  }
}, 120_000);
afterAll(() => sb.close());
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function startChild(config: Record<string, unknown>): { child: ChildProcess; lines: AsyncIterator<string> } {
  // node --import tsx (not the tsx binary), so SIGKILL hits the app's process itself, not a wrapper.
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(config)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return { child, lines: createInterface({ input: child.stdout! })[Symbol.asyncIterator]() };
}

/** Waits for the line `expected`, skipping event lines. */
async function nextLine(lines: AsyncIterator<string>, expected: string, timeoutMs: number) {
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`no "${expected}" within ${timeoutMs} ms`)), timeoutMs).unref(),
  );
  for (;;) {
    const line = await Promise.race([lines.next(), timeout]);
    if (line.done) throw new Error(`the app exited before "${expected}"`);
    if (line.value.startsWith('event ')) continue;
    expect(line.value).toBe(expected);
    return;
  }
}

/** Waits for `count` event lines (or `timeoutMs`, whichever comes first). */
async function afterEvents(lines: AsyncIterator<string>, count: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (let seen = 0; seen < count;) {
    const left = deadline - Date.now();
    if (left <= 0) return;
    const line = await Promise.race([
      lines.next(),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), left).unref()),
    ]);
    if (line === null || line.done) return;
    if (line.value.startsWith('event ')) seen++;
  }
}

async function walk(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isDirectory()) out.push(relative(root, join(entry.parentPath, entry.name)));
  }
  return out.sort();
}

/** What must hold whenever the app is not running, whatever instant it was killed at. */
async function checkLibrary(libraryDir: string, outside: string): Promise<LibraryItem[]> {
  let items: LibraryItem[] = [];
  try {
    items = (JSON.parse(await readFile(join(libraryDir, '.takedesk', 'library.json'), 'utf8')) as Loose)
      .items;
  } catch (error) {
    expect((error as NodeJS.ErrnoException).code).toBe('ENOENT'); // never a torn manifest
  }
  expect(new Set(items.map((i) => i.relativePath)).size).toBe(items.length);
  for (const item of items) {
    const bytes = await readFile(join(libraryDir, ...item.relativePath.split('/')));
    expect(bytes.length, item.relativePath).toBe(item.size);
    expect(sha(bytes), item.relativePath).toBe(item.sha256);
  }
  // A file under a final name is always complete: the bytes of one served file.
  for (const file of await walk(libraryDir)) {
    if (file.startsWith('.takedesk') || file === 'elsewhere') continue;
    if (/\.(part|peaks|tmp)$/u.test(file)) continue;
    expect(servedShas.has(sha(await readFile(join(libraryDir, file)))), file).toBe(true);
  }
  expect(await readdir(outside)).toEqual(['sentinel.txt']);
  expect(await readFile(join(outside, 'sentinel.txt'), 'utf8')).toBe('outside the library');
  return items;
}

describe('crash safety', () => {
  it('kill -9 at seeded random points in downloads and library writes never leaves a listed file damaged', async () => {
    const root = await mkdtemp(join(tmpdir(), 'takedesk-crash-'));
    try {
      const dataDir = join(root, 'data');
      const libraryDir = join(root, 'Library');
      const outside = join(root, 'outside');
      await mkdir(libraryDir, { recursive: true });
      await mkdir(outside);
      await writeFile(join(outside, 'sentinel.txt'), 'outside the library');
      // A link inside the library that leads out of it: nothing may ever be written through it.
      await symlink(outside, join(libraryDir, 'elsewhere'), 'dir');
      const base = {
        dataDir,
        libraryDir,
        sandbox: { url: sb.url, token: sb.tokens.full },
        wanted,
        // Links to it stand at sidecars' names while the app rebuilds them: the sentinel must never change.
        outsideFile: join(outside, 'sentinel.txt'),
      };
      let seed = 20_261_123;
      const random = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
      // Media answers are cut every 300 kB (the app resumes with Range after a short backoff), so the kills land
      // mid-transfer with parts on disk as well as in renames and library writes.
      const faults = (body: unknown) =>
        call(sb, body ? 'POST' : 'DELETE', '/_sandbox/faults', {
          token: sb.tokens.full,
          body: body ?? undefined,
        });
      await faults({ resetAfterBytes: 300_000, latencyMs: 10, pathPrefix: '/media/' });
      const kills = 8;
      const seen: Array<[items: number, parts: number]> = [];
      for (let round = 0; round < kills; round++) {
        const { child, lines } = startChild({ ...base, seed: round + 1, churn: true });
        await nextLine(lines, 'ready', 30_000);
        // The kill point: right after a seeded number of the app's events (a job changing state, the library
        // changing, progress), plus a seeded few milliseconds; so it lands in the work however busy the machine is.
        await afterEvents(lines, 1 + Math.floor(random() * 40), 20_000);
        await new Promise((r) => setTimeout(r, Math.floor(random() * 15)));
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
        const items = await checkLibrary(libraryDir, outside);
        const parts = (await walk(libraryDir)).filter((f) => f.endsWith('.part')).length;
        seen.push([items.length, parts]);
      }
      // The kills landed both mid-transfer (parts on disk) and with a listed library.
      expect(seen.some(([, parts]) => parts > 0)).toBe(true);
      expect(seen.some(([items]) => items > 0)).toBe(true);
      await faults(null);
      // The last start runs to the end: everything wanted is in the library, complete, and no part is left.
      const { child, lines } = startChild({ ...base, seed: 99, churn: false });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await nextLine(lines, 'ready', 30_000);
      await nextLine(lines, 'complete', 45_000);
      expect(await exited).toBe(0);
      const items = await checkLibrary(libraryDir, outside);
      expect(items.map((i) => `${i.deliverableId}.${i.format}`).sort()).toEqual(
        wanted.map((w) => `${w.deliverableId}.${w.format}`).sort(),
      );
      expect(items.every((i) => !i.unsynced)).toBe(true);
      expect((await walk(libraryDir)).filter((f) => f.endsWith('.part'))).toEqual([]);
      expect((await stat(join(libraryDir, 'elsewhere'))).isDirectory()).toBe(true);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 120_000);
});
