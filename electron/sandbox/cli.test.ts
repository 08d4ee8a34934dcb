import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { requestWithCa, processAlive } from './test-support/test-helpers';

const CLI = join(import.meta.dirname, 'cli.ts');

/** Runs the CLI with `args`: `output` gathers what it prints; `firstLine` and `exited` resolve as those happen. */
function runCli(...args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
  child.stdout.setEncoding('utf8');
  const firstLine = new Promise<string>((resolve) => {
    child.stdout.on('data', (chunk: string) => {
      output.stdout += chunk;
      if (output.stdout.includes('\n')) resolve(output.stdout.split('\n')[0]!);
    });
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, output, firstLine, exited };
}

it('the CLI prints exactly one JSON line once listening and exits cleanly on SIGTERM and SIGINT', async () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    const { child, output, firstLine, exited } = runCli('--port', '0', '--delivery', 'manual');
    const info = JSON.parse(await firstLine) as { url: string; tokens: Record<string, string> };
    expect(Object.keys(info)).toEqual(['url', 'tokens']);
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Object.keys(info.tokens)).toEqual(['full', 'noScopes', 'otherUser']);
    const r = await fetch(`${info.url}/projects`, { headers: { 'x-access-token': info.tokens.full! } });
    expect(r.status).toBe(200);
    child.kill(signal);
    expect(await exited).toBe(0);
    expect(output.stdout.trimEnd().split('\n')).toHaveLength(1);
  }
}, 60_000);

it('the CLI refuses bad arguments with a usage line and exit code 2', async () => {
  const { output, exited } = runCli('--port', 'abc');
  expect(await exited).toBe(2);
  expect(output.stderr).toContain('usage: npm run sandbox');
}, 30_000);

it('a sandbox started with an IPC channel exits when its parent dies, even by SIGKILL', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'takedesk-cli-parent-'));
  // A stand-in for browser mode: forks the CLI as Takedesk does, reports the child's pid and URL, then waits.
  const parentScript = join(dir, 'parent.mjs');
  await writeFile(
    parentScript,
    `import { fork } from 'node:child_process';
const child = fork(${JSON.stringify(CLI)}, ['--port', '0', '--delivery', 'manual'], {
  execArgv: ['--import', 'tsx'], stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
});
child.stdout.once('data', (line) => process.stdout.write(JSON.stringify({ pid: child.pid, line: String(line) }) + '\\n'));
setInterval(() => undefined, 1000);
`,
  );
  const parent = spawn(process.execPath, [parentScript], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    let out = '';
    parent.stdout.setEncoding('utf8');
    const report = await new Promise<{ pid: number; line: string }>((resolve) =>
      parent.stdout.on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!) as { pid: number; line: string });
      }),
    );
    const { url } = JSON.parse(report.line) as { url: string };
    expect((await fetch(`${url}/openapi.json`)).ok).toBe(true);
    expect(processAlive(report.pid)).toBe(true);
    parent.kill('SIGKILL');
    const deadline = Date.now() + 10_000;
    while (processAlive(report.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(processAlive(report.pid)).toBe(false);
  } finally {
    parent.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
}, 60_000);

it('a sandbox that cannot start says why in one stderr line and exits 1', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'takedesk-cli-bad-'));
  const notADir = join(dir, 'file');
  await writeFile(notADir, 'not a folder');
  try {
    const { output, exited } = runCli('--port', '0', '--data-dir', join(notADir, 'sandbox'));
    expect(await exited).toBe(1);
    expect(output.stdout).toBe('');
    expect(output.stderr).toMatch(/^sandbox: could not start: .*(ENOTDIR|EEXIST)/m);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 30_000);

it('--live-shapes answers in the live shapes (services without units, a winner refused)', async () => {
  const { child, firstLine, exited } = runCli('--port', '0', '--delivery', 'manual', '--live-shapes');
  try {
    const info = JSON.parse(await firstLine) as { url: string; tokens: { full: string } };
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${info.url}${path}`, {
        method,
        headers: { 'x-access-token': info.tokens.full, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const created = (await (
      await call('POST', '/projects', {
        title: 'CLI live',
        mainService: 'voice_over',
        fulfillmentType: 'contest',
        services: [
          { subCategory: 'voice_over', language: 'eng-us', genderAndAge: 'child', script: 'Hi there' },
        ],
      })
    ).json()) as { id: string; services: Array<Record<string, unknown>> };
    expect(created.services[0]).not.toHaveProperty('units');
    const [entry] = (await (await call('GET', `/deliverables/project/${created.id}`)).json()) as Array<{
      id: string;
      status: string;
    }>;
    expect(entry!.status).toBe('unassigned');
    const refused = await call('PUT', `/deliverables/${entry!.id}`, { status: 'winner' });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { type: string }).type).toBe('STATUS_NOT_ALLOWED');
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}, 60_000);

it('with --https the JSON line carries the https URL and the certificate, which a client must be given to connect', async () => {
  const { child, firstLine } = runCli('--port', '0', '--delivery', 'manual', '--https');
  try {
    const info = JSON.parse(await firstLine) as {
      url: string;
      tokens: Record<string, string>;
      certificate: string;
    };
    expect(Object.keys(info)).toEqual(['url', 'tokens', 'certificate']);
    expect(info.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(info.certificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
    const answer = await requestWithCa(`${info.url}/projects`, info.certificate, {
      headers: { 'x-access-token': info.tokens.full! },
    });
    expect(answer.status).toBe(200);
    await expect(fetch(`${info.url}/projects`)).rejects.toThrow(); // not trusted without its certificate
  } finally {
    child.kill('SIGTERM');
  }
}, 60_000);
