import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { electronBinary } from './lib/electron-binary';
import { SMOKE_STEP_NAMES } from '../electron/main/app/electron/smoke-test';
import {
  builderArgs,
  debInstall,
  electronDist,
  judgeSmokeOutput,
  unpackedExecutable,
} from './smoke-packaged';

describe('smoke:packaged', () => {
  it('finds the unpacked executable electron-builder --dir writes on each OS', () => {
    const dir = mkdtempSync(join(tmpdir(), 'takedesk-unpacked-'));
    try {
      expect(unpackedExecutable(dir, 'linux')).toBe(join(dir, 'linux-unpacked', 'takedesk'));
      expect(unpackedExecutable(dir, 'win32')).toBe(join(dir, 'win-unpacked', 'Takedesk.exe'));
      expect(unpackedExecutable(dir, 'darwin')).toBeNull();
      mkdirSync(join(dir, 'mac-arm64'));
      expect(unpackedExecutable(dir, 'darwin')).toBe(
        join(dir, 'mac-arm64', 'Takedesk.app', 'Contents', 'MacOS', 'Takedesk'),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.runIf('missing' in electronBinary())(
    'says why it skips where there is no Electron binary, and exits 0',
    () => {
      const run = spawnSync(
        process.execPath,
        ['--import', 'tsx', join(import.meta.dirname, 'smoke-packaged.ts')],
        {
          encoding: 'utf8',
        },
      );
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(
        /smoke:packaged skipped: no Electron binary here \(.+\); the release workflow runs it\./,
      );
    },
  );
});

describe('smoke:packaged, how it packs and judges', () => {
  it("gives electron-builder the electron package's dist/ on every OS (not the binary's folder)", () => {
    const dist = electronDist();
    expect(dist).toBe(join(dirname(createRequire(import.meta.url).resolve('electron/package.json')), 'dist'));
    for (const platform of ['linux', 'win32', 'darwin'] as const)
      expect(builderArgs(platform, dist, '/out')).toContain(`--config.electronDist=${dist}`);
  });

  it('builds a .deb on Linux (installed and run with the sandbox on), the unpacked app elsewhere', () => {
    expect(builderArgs('linux', '/d', '/out').slice(0, 2)).toEqual(['--linux', 'deb']);
    expect(builderArgs('win32', '/d', '/out')[0]).toBe('--dir');
    expect(builderArgs('darwin', '/d', '/out')[0]).toBe('--dir');
    const dir = mkdtempSync(join(tmpdir(), 'takedesk-deb-'));
    try {
      expect(() => debInstall(dir, 1001)).toThrow(/no \.deb/);
      writeFileSync(join(dir, 'Takedesk-0.1.0-linux-amd64.deb'), '');
      const deb = join(dir, 'Takedesk-0.1.0-linux-amd64.deb');
      expect(debInstall(dir, 1001)).toEqual(['sudo', ['apt-get', 'install', '-y', '--reinstall', deb]]);
      expect(debInstall(dir, 0)).toEqual(['apt-get', ['install', '-y', '--reinstall', deb]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // No --no-sandbox anywhere in the script: the app runs as a producer runs it.
    expect(readFileSync(join(import.meta.dirname, 'smoke-packaged.ts'), 'utf8')).not.toMatch(
      /'--no-sandbox'/,
    );
  });

  const run = (steps: readonly string[], last = 'takedesk smoke: passed') =>
    [...steps.map((name) => `takedesk smoke: ok ${name}: fine`), last].join('\n');

  it('passes only when every step printed ok, in order, and the run said passed', () => {
    expect(judgeSmokeOutput(`noise\n${run(SMOKE_STEP_NAMES)}\n`)).toEqual({ ok: true });
    expect(judgeSmokeOutput(run(SMOKE_STEP_NAMES.filter((n) => n !== 'worker')))).toMatchObject({
      ok: false,
      why: expect.stringMatching(/want window, ipc, sandbox, database, worker, media, quit/),
    });
    expect(judgeSmokeOutput(run(SMOKE_STEP_NAMES, 'takedesk smoke: FAILED'))).toMatchObject({
      ok: false,
      why: 'no closing "passed" line',
    });
    expect(
      judgeSmokeOutput(
        ['takedesk smoke: ok window: x', 'takedesk smoke: FAILED ipc: app.info did not answer'].join('\n'),
      ),
    ).toEqual({ ok: false, why: 'FAILED ipc: app.info did not answer' });
    expect(judgeSmokeOutput('')).toMatchObject({ ok: false });
  });
});
