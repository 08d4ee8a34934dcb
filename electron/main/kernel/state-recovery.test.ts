import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createStateNotices,
  isStateTempFile,
  parseTruncatedJson,
  recoverStateFile,
  removeStaleTempFiles,
  salvage,
} from './state-recovery';

const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'takedesk-recovery-'));
  dirs.push(dir);
  return dir;
};
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const Schema = z.object({
  prefs: z
    .object({ concurrency: z.number().int().min(1).max(6), theme: z.string() })
    .partial()
    .optional(),
  accounts: z.array(z.object({ id: z.string(), name: z.string() })).optional(),
  targets: z.record(z.string(), z.enum(['a', 'b'])).optional(),
});

describe('salvage: a bad value drops only that value', () => {
  it('keeps every other field, entry and element, and names what it dropped', () => {
    const kept = salvage(Schema, {
      prefs: { concurrency: 9, theme: 'dark' },
      accounts: [{ id: 'one', name: 'One' }, { id: 2 }, { id: 'three', name: 'Three' }],
      targets: { p1: 'a', p2: 'zzz' },
    });
    expect(kept.value).toEqual({
      prefs: { theme: 'dark' },
      accounts: [
        { id: 'one', name: 'One' },
        { id: 'three', name: 'Three' },
      ],
      targets: { p1: 'a' },
    });
    expect(kept.reset).toEqual(['prefs.concurrency', 'accounts[1]', 'targets.p2']);
  });

  it('drops a whole section of the wrong type and keeps the others', () => {
    const kept = salvage(Schema, { prefs: { theme: 'dark' }, accounts: 'nope' });
    expect(kept.value).toEqual({ prefs: { theme: 'dark' } });
    expect(kept.reset).toEqual(['accounts']);
  });
});

describe('salvage: keys of the file are only keys', () => {
  it('a `__proto__` entry next to a bad one changes no prototype (zod leaves that key out)', () => {
    const value = JSON.parse('{"__proto__": "a", "p2": "zzz", "p3": "b"}') as unknown;
    const kept = salvage(z.record(z.string(), z.enum(['a', 'b'])), value);
    expect(Object.getPrototypeOf(kept.value)).toBe(Object.prototype);
    expect(kept.value).toEqual({ p3: 'b' });
    expect(kept.reset).toEqual(['p2']);
    const loose = salvage(
      z.object({ n: z.number() }).catchall(z.unknown()),
      JSON.parse('{"n": "x", "__proto__": {"polluted": true}}'),
    );
    expect(loose.value).toBeUndefined();
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});

describe('parseTruncatedJson', () => {
  const text = JSON.stringify(
    {
      prefs: { theme: 'dark' },
      accounts: [
        { id: 'one', name: 'One' },
        { id: 'two', name: 'Two' },
      ],
    },
    null,
    2,
  );

  it('keeps every whole value before a cut, at any place of the text', () => {
    for (let at = text.indexOf('"dark"') + 7; at < text.length; at++) {
      const value = parseTruncatedJson(text.slice(0, at)) as { prefs?: { theme?: string } };
      expect(value?.prefs?.theme, `cut at ${at}`).toBe('dark');
    }
  });

  it('keeps what comes before damage in the middle', () => {
    const at = text.indexOf('"two"');
    const value = parseTruncatedJson(`${text.slice(0, at)}#!${text.slice(at)}`) as { accounts: unknown[] };
    // The account cut open is an empty object (its schema drops it and says so).
    expect(value.accounts).toEqual([{ id: 'one', name: 'One' }, {}]);
  });

  it('does not take a number cut short for a whole one', () => {
    expect(parseTruncatedJson('{"a": "x", "n": 12')).toEqual({ a: 'x' });
  });
});

describe('recoverStateFile', () => {
  it('copies the damaged bytes aside (never over an earlier copy), reports once, keeps the good', async () => {
    const dir = await tempDir();
    const path = join(dir, 'state.json');
    const damaged =
      '{"prefs": {"theme": "dark", "concurrency": 9}, "accounts": [{"id": "one", "name": "One"}, {"id"';
    await writeFile(path, damaged);
    const notices = createStateNotices();
    const now = () => new Date('2026-01-02T03:04:05.678Z');
    const first = recoverStateFile(path, Schema, { label: 'Test state', notices, now });
    const second = recoverStateFile(path, Schema, { label: 'Test state', notices, now });
    expect(first).toEqual({
      damaged: true,
      value: { prefs: { theme: 'dark' }, accounts: [{ id: 'one', name: 'One' }] },
    });
    expect(second.damaged).toBe(true);
    const copies = (await readdir(dir)).filter((name) => name.includes('.damaged-')).sort();
    expect(copies).toEqual([
      'state.damaged-2026-01-02T03-04-05-678Z-2.json',
      'state.damaged-2026-01-02T03-04-05-678Z.json',
    ]);
    for (const copy of copies) expect(await readFile(join(dir, copy), 'utf8')).toBe(damaged);
    const told = notices.take();
    expect(told).toHaveLength(2);
    expect(told[0]).toMatchObject({
      file: 'state.json',
      label: 'Test state',
      reset: ['prefs.concurrency', 'accounts[1]'],
    });
    expect(told[0]!.message).toMatch(
      /Test state was damaged \(cut short\); reset: prefs\.concurrency, accounts\[1\]/u,
    );
    expect(notices.take()).toEqual([]);
  });

  it('moves an unreadable file (a folder in its place) aside whole and starts empty', async () => {
    const dir = await tempDir();
    const path = join(dir, 'state.json');
    await mkdir(path);
    await writeFile(join(path, 'inside'), 'kept');
    const notices = createStateNotices();
    expect(recoverStateFile(path, Schema, { label: 'Test state', notices })).toEqual({
      value: undefined,
      damaged: true,
    });
    const [notice] = notices.take();
    expect(notice!.copy).toMatch(/state\.damaged-.*\.json$/u);
    expect(await readFile(join(notice!.copy!, 'inside'), 'utf8')).toBe('kept');
    await expect(readdir(path)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('leaves a sound file alone and says nothing', async () => {
    const dir = await tempDir();
    const path = join(dir, 'state.json');
    await writeFile(path, JSON.stringify({ prefs: { theme: 'dark' } }));
    const notices = createStateNotices();
    expect(recoverStateFile(path, Schema, { label: 'Test state', notices })).toEqual({
      value: { prefs: { theme: 'dark' } },
      damaged: false,
    });
    expect(notices.take()).toEqual([]);
    expect(await readdir(dir)).toEqual(['state.json']);
  });
});

describe('temp files of killed atomic writes', () => {
  it('knows the names write-file-atomic, atomically and safe-fs leave, and nothing else', () => {
    expect(isStateTempFile('outbox.json.3735928559', 'outbox.json')).toBe(true);
    expect(isStateTempFile('settings.json.tmp-1732600000a1b2c3', 'settings.json')).toBe(true);
    expect(isStateTempFile('library.json.0123456789ab.tmp', 'library.json')).toBe(true);
    expect(isStateTempFile('outbox.json', 'outbox.json')).toBe(false);
    expect(isStateTempFile('outbox.damaged-2026.json', 'outbox.json')).toBe(false);
    expect(isStateTempFile('outbox.json.bak', 'outbox.json')).toBe(false);
  });

  it('removes them beside the file and leaves the file and folders alone', async () => {
    const dir = await tempDir();
    const path = join(dir, 'outbox.json');
    await writeFile(path, '{}');
    await writeFile(`${path}.123`, 'half');
    await mkdir(`${path}.456`);
    expect(await removeStaleTempFiles(path)).toEqual([`${path}.123`]);
    expect((await readdir(dir)).sort()).toEqual(['outbox.json', 'outbox.json.456']);
  });

  it('removes them beside the file a link at the path leads to, where the writes leave them', async () => {
    const dir = await tempDir();
    const elsewhere = await tempDir();
    const target = join(elsewhere, 'outbox-real.json');
    await writeFile(target, '{}');
    await writeFile(`${target}.3735928559`, 'half');
    await writeFile(`${target}.tmp-1732600000a1b2c3`, 'half');
    const path = join(dir, 'outbox.json');
    await symlink(target, path);
    expect((await removeStaleTempFiles(path)).sort()).toEqual([
      `${target}.3735928559`,
      `${target}.tmp-1732600000a1b2c3`,
    ]);
    expect(await readdir(elsewhere)).toEqual(['outbox-real.json']);
  });
});
