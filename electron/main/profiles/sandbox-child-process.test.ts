import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { createSandboxLauncher } from './sandbox-launcher';
import { nodeSandboxSpawner, resolveSandboxEntry } from './sandbox-child-process';

it('finds the sandbox program: the CLI source from source, sandbox.js beside the bundle', async () => {
  expect(fileURLToPath(resolveSandboxEntry()!)).toBe(join(import.meta.dirname, '../../sandbox/cli.ts'));
  const out = await mkdtemp(join(tmpdir(), 'takedesk-out-'));
  try {
    await writeFile(join(out, 'sandbox.js'), '');
    expect(resolveSandboxEntry(pathToFileURL(join(out, 'index.js')).href)?.href).toBe(
      pathToFileURL(join(out, 'sandbox.js')).href,
    );
    expect(resolveSandboxEntry(pathToFileURL(join(out, 'chunks', 'services-x.js')).href)?.href).toBe(
      pathToFileURL(join(out, 'sandbox.js')).href,
    );
    expect(resolveSandboxEntry(pathToFileURL(join(tmpdir(), 'nowhere', 'index.js')).href)).toBeNull();
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});

it('a missing build makes the Sandbox profile unavailable with a reason instead of throwing from main', async () => {
  const launcher = createSandboxLauncher({ dataDir: tmpdir(), spawn: nodeSandboxSpawner(null) });
  await expect(launcher.ensure()).rejects.toMatchObject({
    type: 'SANDBOX_UNAVAILABLE',
    message: expect.stringContaining('out/main/sandbox.js is missing'),
  });
  expect(launcher.status()).toMatchObject({ state: 'unavailable' });
  await launcher.close();
});
