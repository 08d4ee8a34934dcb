import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = join(import.meta.dirname, '..');
const workflows = join(root, '.github', 'workflows');
const validator = join(root, 'node_modules', '@action-validator', 'cli', 'cli.mjs');

/** action-validator checks a workflow against GitHub's published workflow schema (and glob patterns). */
function validate(file: string) {
  return spawnSync(process.execPath, [validator, file], { encoding: 'utf8' });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- workflow YAML is walked loosely
const load = (name: string) => parse(readFileSync(join(workflows, name), 'utf8')) as Record<string, any>;

describe('GitHub Actions workflows', () => {
  it.each(readdirSync(workflows).filter((f) => f.endsWith('.yml')))('%s passes action-validator', (file) => {
    const result = validate(join(workflows, file));
    expect(`${result.stdout}${result.stderr}`).toBe('');
    expect(result.status).toBe(0);
  });

  it('action-validator does reject a broken workflow', () => {
    const dir = mkdtempSync(join(tmpdir(), 'takedesk-wf-'));
    try {
      const file = join(dir, 'bad.yml');
      writeFileSync(
        file,
        'name: bad\non: push\njobs:\n  x:\n    runs_on: ubuntu-latest\n    steps: [{ run: true }]\n',
      );
      expect(validate(file).status).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('CI tests on Linux, Windows and macOS, runs e2e in Chromium, and the security audit', () => {
    const ci = load('ci.yml');
    expect(ci.jobs.unit.strategy.matrix.os).toEqual(['ubuntu-latest', 'windows-latest', 'macos-latest']);
    const run = (job: string) => ci.jobs[job].steps.map((s: { run?: string }) => s.run).filter(Boolean);
    expect(run('unit')).toEqual(expect.arrayContaining(['npm ci', 'npm run typecheck', 'npm run test:unit']));
    expect(run('e2e')).toContain('npm run e2e');
    expect(run('security')).toContain('npm run audit:security -- --sarif release/electronegativity.sarif');
  });

  it('runs the Electron smoke tests (launcher and packaged app) on Linux, Windows and macOS', () => {
    const job = load('ci.yml').jobs['electron-smoke'];
    expect(job.strategy.matrix.os).toEqual(['ubuntu-latest', 'windows-latest', 'macos-latest']);
    const runs: string[] = job.steps.map((s: { run?: string }) => s.run).filter(Boolean);
    expect(runs).toEqual(expect.arrayContaining(['npm ci', 'npx install-electron', 'npm run build']));
    expect(runs.some((r) => r.endsWith('npm run e2e:electron') && r.includes('xvfb-run'))).toBe(true);
    expect(runs.some((r) => r.endsWith('npm run smoke:packaged'))).toBe(true);
    // Chromium's sandbox stays on in both: the unpacked Electron's helper is made setuid before the launcher runs.
    const helper = runs.findIndex((r) => r.includes('chmod 4755 node_modules/electron/dist/chrome-sandbox'));
    expect(helper).toBeGreaterThan(-1);
    expect(helper).toBeLessThan(runs.findIndex((r) => r.endsWith('npm run e2e:electron')));
    const spec = readFileSync(join(import.meta.dirname, '../e2e/electron/smoke.spec.ts'), 'utf8');
    expect(spec).not.toMatch(/'--no-sandbox'/);
    // The release's installers wait for CI, which includes this job.
    expect(load('release.yml').jobs.test.uses).toBe('./.github/workflows/ci.yml');
  });

  it('a job that calls ci.yml grants every permission its jobs ask for (a called workflow cannot get more)', () => {
    const level = (value: string | undefined) => ['none', 'read', 'write'].indexOf(value ?? 'none');
    const ci = load('ci.yml');
    const asked: Record<string, string> = {};
    for (const job of Object.values(ci.jobs) as Array<{ permissions?: Record<string, string> }>)
      for (const [scope, value] of Object.entries<string>(job.permissions ?? ci.permissions ?? {}))
        if (level(value) > level(asked[scope])) asked[scope] = value;
    expect(asked['security-events']).toBe('write');
    const release = load('release.yml');
    const callers = Object.values(release.jobs).filter(
      (job) => (job as { uses?: string }).uses === './.github/workflows/ci.yml',
    ) as Array<{ permissions?: Record<string, string> }>;
    expect(callers).toHaveLength(1);
    for (const caller of callers) {
      const granted = caller.permissions ?? release.permissions ?? {};
      for (const [scope, value] of Object.entries(asked))
        expect(level(granted[scope]), `${scope}: ${value}`).toBeGreaterThanOrEqual(level(value));
    }
  });

  it('release builds every OS on a v* tag and publishes to the GitHub release', () => {
    const release = load('release.yml');
    expect(release.on.push.tags).toEqual(['v*']);
    const job = release.jobs.installers;
    expect(job.needs).toBe('test');
    expect(job.permissions.contents).toBe('write');
    expect(job.strategy.matrix.include.map((m: { os: string }) => m.os)).toEqual([
      'ubuntu-latest',
      'windows-latest',
      'macos-latest',
    ]);
    const build = job.steps.find((s: { run?: string }) => s.run?.includes('electron-builder'));
    expect(build.run).toContain('--publish always');
    expect(build.env.GH_TOKEN).toBe('${{ secrets.GITHUB_TOKEN }}');
  });
});
