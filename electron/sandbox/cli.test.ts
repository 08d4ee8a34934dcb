import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { requestWithCa } from './test-helpers';

const CLI = join(import.meta.dirname, 'cli.ts');

it('the CLI prints exactly one JSON line once listening and exits cleanly on SIGTERM and SIGINT', async () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0', '--delivery', 'manual'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8');
    const firstLine = new Promise<string>((resolve) => {
      child.stdout.on('data', (chunk: string) => {
        stdout += chunk;
        if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!);
      });
    });
    const info = JSON.parse(await firstLine) as { url: string; tokens: Record<string, string> };
    expect(Object.keys(info)).toEqual(['url', 'tokens']);
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Object.keys(info.tokens)).toEqual(['full', 'noScopes', 'otherUser']);
    const r = await fetch(`${info.url}/projects`, { headers: { 'x-access-token': info.tokens.full! } });
    expect(r.status).toBe(200);
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill(signal);
    expect(await exit).toBe(0);
    expect(stdout.trimEnd().split('\n')).toHaveLength(1);
  }
}, 60_000);

it('the CLI refuses bad arguments with a usage line and exit code 2', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', 'abc'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(code).toBe(2);
  expect(stderr).toContain('usage: npm run sandbox');
}, 30_000);

it('with --https the JSON line carries the https URL and the certificate, which a client must be given to connect', async () => {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', CLI, '--port', '0', '--delivery', 'manual', '--https'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  try {
    let stdout = '';
    child.stdout.setEncoding('utf8');
    const line = await new Promise<string>((resolve) => {
      child.stdout.on('data', (chunk: string) => {
        stdout += chunk;
        if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!);
      });
    });
    const info = JSON.parse(line) as { url: string; tokens: Record<string, string>; certificate: string };
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
