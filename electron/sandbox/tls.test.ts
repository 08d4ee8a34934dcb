import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { persistedSandboxTls } from './tls';

let dir: string | null = null;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = null;
});

describe('persistedSandboxTls', () => {
  it('removes the temp files a killed write of the certificate left, and keeps the certificate (issue 24, item 8)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'takedesk-sandbox-tls-'));
    await writeFile(join(dir, 'sandbox-tls.json.3735928559'), '{"cert": "half a write');
    await writeFile(join(dir, 'notes.txt'), 'mine');
    const first = await persistedSandboxTls(dir);
    expect((await readdir(dir)).sort()).toEqual(['notes.txt', 'sandbox-tls.json']);
    expect(await persistedSandboxTls(dir)).toEqual(first);
  });
});
