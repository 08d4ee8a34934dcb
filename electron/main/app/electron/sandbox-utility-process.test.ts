import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createSandboxLauncher } from '../../profiles/sandbox-launcher';
import { createFakeElectron } from './test-support/fake-electron';
import { utilitySandboxSpawner } from './sandbox-utility-process';
import type { ElectronModule } from './types';
import { processAlive } from '../../../sandbox/test-support/test-helpers';

const CLI = join(import.meta.dirname, '../../../sandbox/cli.ts');
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

it("a utility process's last output lines reach the status after it exits, and its 'error' event is logged, never thrown", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'takedesk-utility-'));
  dirs.push(dir);
  // Says it is ready, then dies with a reason on stderr: Electron may report the exit before those lines arrive.
  const child = join(dir, 'dies.mjs');
  await writeFile(
    child,
    `process.stdout.write(JSON.stringify({ url: 'http://127.0.0.1:9', tokens: { full: 't' } }) + '\\n');
     setTimeout(() => { process.stderr.write('sandbox: could not go on: the disk is full\\n'); process.exit(3); }, 200);`,
  );
  const { electron, record } = createFakeElectron();
  const logged: string[] = [];
  const launcher = createSandboxLauncher({
    dataDir: dir,
    spawn: utilitySandboxSpawner(
      electron as unknown as Pick<ElectronModule, 'utilityProcess'>,
      child,
      (line) => logged.push(line),
    ),
    backoff: { initialMs: 60_000 },
  });
  try {
    await launcher.ensure();
    expect(() =>
      record.utilityProcesses[0]!.emit('error', 'FatalError', 'v8::ToLocalChecked', '/tmp/report.json'),
    ).not.toThrow();
    expect(logged).toEqual(['sandbox process error: FatalError at v8::ToLocalChecked']);
    expect(await until(() => launcher.status().state === 'unavailable')).toBe(true);
    expect(launcher.status()).toMatchObject({
      reason: expect.stringMatching(/exit code 3.*the disk is full/),
    });
  } finally {
    await launcher.close();
  }
}, 30_000);
