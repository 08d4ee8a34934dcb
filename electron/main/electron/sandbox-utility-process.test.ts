import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createSandboxLauncher } from '../sandbox-launcher';
import { createFakeElectron } from './fake-electron';
import { utilitySandboxSpawner } from './sandbox-utility-process';
import type { ElectronModule } from './types';
import { processAlive } from '../../sandbox/test-helpers';

const CLI = join(import.meta.dirname, '../../sandbox/cli.ts');
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const until = async (done: () => boolean, ms = 20_000) => {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  return done();
};

it('in Electron the sandbox is a utility process: forked with piped output and its name, supervised, stopped on close', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'takedesk-utility-'));
  dirs.push(dataDir);
  const { electron, record } = createFakeElectron();
  const launcher = createSandboxLauncher({
    dataDir,
    delivery: 'manual',
    spawn: utilitySandboxSpawner(electron as unknown as Pick<ElectronModule, 'utilityProcess'>, CLI),
    backoff: { initialMs: 50 },
  });
  try {
    const { url, token } = await launcher.ensure();
    expect(record.utilityForks).toEqual([
      {
        modulePath: CLI,
        args: ['--port', '0', '--data-dir', join(dataDir, 'sandbox'), '--delivery', 'manual'],
        options: { stdio: 'pipe', serviceName: 'Takedesk Sandbox' },
      },
    ]);
    expect((await fetch(`${url}/projects`, { headers: { 'x-access-token': token } })).status).toBe(200);

    // A crash (here: SIGKILL from outside) is seen through the utility process's 'exit', and it comes back.
    const firstPid = launcher.pid()!;
    process.kill(firstPid, 'SIGKILL');
    expect(await until(() => launcher.status().state !== 'running')).toBe(true);
    expect(await until(() => launcher.status().state === 'running')).toBe(true);
    expect(record.utilityForks).toHaveLength(2);
    const again = await launcher.ensure();
    expect(again.token).toBe(token); // same data folder, same tokens
    expect((await fetch(`${again.url}/projects`, { headers: { 'x-access-token': token } })).status).toBe(200);

    const pid = launcher.pid()!;
    await launcher.close();
    expect(processAlive(pid)).toBe(false);
  } finally {
    await launcher.close();
  }
}, 90_000);
