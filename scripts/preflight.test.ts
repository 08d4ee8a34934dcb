import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { installReason, lockDifference, missingTools, testTools, toolsPlan } from './preflight.mjs';

const lock = (packages: Record<string, object>) => ({ name: 'p', lockfileVersion: 3, packages });
const locked = {
  '': { name: 'p', version: '1.0.0', devDependencies: { a: '^1.0.0' } },
  'node_modules/a': { version: '1.0.0', integrity: 'sha512-a' },
  'node_modules/a/node_modules/b': { version: '2.0.0', integrity: 'sha512-b' },
  'node_modules/@esbuild/aix-ppc64': { version: '0.25.0', integrity: 'sha512-e', optional: true },
};
const installed = {
  'node_modules/a': { version: '1.0.0', integrity: 'sha512-a' },
  'node_modules/a/node_modules/b': { version: '2.0.0', integrity: 'sha512-b' },
};

describe('lockDifference', () => {
  it.each([
    ['the same packages (another platform’s optional ones aside)', installed, null],
    [
      'another version',
      { ...installed, 'node_modules/a': { version: '1.0.1', integrity: 'sha512-x' } },
      'a 1.0.0 is locked, 1.0.1 installed',
    ],
    ['a package not installed', { 'node_modules/a': installed['node_modules/a'] }, 'b is not installed'],
    [
      'a package no longer locked',
      { ...installed, 'node_modules/c': { version: '1.0.0' } },
      'c is installed but no longer locked',
    ],
  ])('%s', (_name, have, expected) => {
    expect(lockDifference(locked, have)).toBe(expected);
  });
});

describe('toolsPlan', () => {
  const all = testTools({});
  it('installs with apt-get as root, as CI runs', () => {
    expect(toolsPlan(all, { uid: 0, hasApt: true })).toEqual({ install: ['chromium', 'ffmpeg', 'sox'] });
  });
  it('otherwise names the packages and the command to type', () => {
    const plan = toolsPlan(all.slice(1), { uid: 1000, hasApt: true });
    expect(plan).toEqual({ message: expect.stringContaining('sudo apt-get install -y ffmpeg sox') });
    expect('message' in plan && plan.message).toMatch(/ffmpeg \(reference tests\), sox \(reference tests\)/);
    expect(toolsPlan(all, { uid: 501, hasApt: false })).toEqual({
      message: expect.stringContaining('install chromium, ffmpeg, sox with your package manager'),
    });
  });
  it('leaves a CHROMIUM_PATH that does not exist to the user, and still names the rest', () => {
    const plan = toolsPlan(testTools({ CHROMIUM_PATH: '/opt/x' }).slice(0, 2), {
      uid: 0,
      hasApt: true,
      chromiumPath: '/opt/x',
    });
    expect('message' in plan && plan.message).toBe(
      'takedesk: npm test needs chromium (e2e), ffmpeg (reference tests), not found here; ' +
        'CHROMIUM_PATH=/opt/x does not exist: point it at a Chromium or Chrome, or unset it; ' +
        'install the rest with:\n  apt-get install -y ffmpeg\nthen run npm test again.',
    );
  });
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'takedesk-preflight-'));
  dirs.push(dir);
  return dir;
}
/** A stand-in executable: a Node script (no shell, so no PATH needed) that appends its arguments to $PREFLIGHT_LOG. */
const standInSource = (body = '') =>
  `#!${process.execPath}\nconst fs = require('node:fs');\nconst path = require('node:path');\n` +
  `fs.appendFileSync(process.env.PREFLIGHT_LOG, JSON.stringify([path.basename(__filename), ...process.argv.slice(2)]) + '\\n');\n${body}`;
function standIn(file: string, body = '') {
  writeFileSync(file, standInSource(body), { mode: 0o755 });
}

/** A project folder holding the preflight and a lockfile, and a PATH holding only a stand-in `npm`. */
function project(state: 'none' | 'stale' | 'current') {
  const root = tempDir();
  mkdirSync(join(root, 'scripts'));
  copyFileSync(join(import.meta.dirname, 'preflight.mjs'), join(root, 'scripts', 'preflight.mjs'));
  writeFileSync(join(root, 'package.json'), '{}');
  writeFileSync(join(root, 'package-lock.json'), JSON.stringify(lock(locked)));
  const bin = join(root, 'bin');
  mkdirSync(bin);
  // `npm ci` installs as npm would: npm's record of node_modules, and Node 24 (here a stand-in) in .bin.
  // As here, Electron's installer cannot reach GitHub.
  const nodeStandIn = `if (process.argv[2]?.endsWith('install.js')) { console.error('TypeError: fetch failed'); process.exit(1); }
    process.exit(Number(process.env.STUB_EXIT ?? 0));`;
  standIn(
    join(bin, 'npm'),
    `if (process.argv[2] === 'ci') {
      fs.rmSync('node_modules', { recursive: true, force: true });
      fs.mkdirSync('node_modules/.bin', { recursive: true });
      fs.copyFileSync('package-lock.json', 'node_modules/.package-lock.json');
      fs.mkdirSync('node_modules/electron');
      fs.writeFileSync('node_modules/electron/install.js', '');
      fs.writeFileSync('node_modules/.bin/node', ${JSON.stringify(standInSource(nodeStandIn))}, { mode: 0o755 });
    }`,
  );
  if (state !== 'none') {
    mkdirSync(join(root, 'node_modules', '.bin'), { recursive: true });
    standIn(join(root, 'node_modules', '.bin', 'node'), nodeStandIn);
    const have =
      state === 'stale'
        ? { ...installed, 'node_modules/a': { version: '0.9.0', integrity: 'x' } }
        : installed;
    writeFileSync(join(root, 'node_modules', '.package-lock.json'), JSON.stringify(lock(have)));
  }
  const log = join(root, 'calls.log');
  const run = (args: string[], env: Record<string, string> = {}) => {
    const started = performance.now();
    const result = spawnSync(process.execPath, [join(root, 'scripts', 'preflight.mjs'), ...args], {
      cwd: root,
      encoding: 'utf8',
      env: { PATH: bin, PREFLIGHT_LOG: log, ...env },
    });
    const calls = (() => {
      try {
        return readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as string[]);
      } catch {
        return [];
      }
    })();
    return { ...result, calls, ms: performance.now() - started };
  };
  return { root, bin, run };
}

describe.skipIf(process.platform === 'win32')('preflight, run as npm start runs it', () => {
  it('with no node_modules, runs npm ci, tries the Electron binary, then the task under node_modules/.bin/node', () => {
    const { root, run } = project('none');
    const result = run(['start', '--flag']);
    expect(result.stderr).toBe(
      'takedesk: there is no node_modules: running npm ci (a few minutes, once)...\n' +
        'takedesk: fetching the Electron binary from GitHub...\n' +
        'takedesk: the Electron binary could not be fetched (TypeError: fetch failed); npm start will use browser mode, npx install-electron retries.\n',
    );
    expect(result.calls).toEqual([
      ['npm', 'ci', '--loglevel=error'],
      ['node', join(root, 'node_modules', 'electron', 'install.js')],
      ['node', 'node_modules/tsx/dist/cli.mjs', 'scripts/start.ts', '--flag'],
    ]);
    expect(result.status).toBe(0);
  });

  it('in CI, does not try the Electron binary', () => {
    const { run } = project('none');
    const result = run(['start'], { CI: 'true', npm_config_loglevel: 'warn' });
    expect(result.stderr).toContain('takedesk: not fetching the Electron binary (CI).');
    expect(result.calls.map((c) => c.slice(0, 2))).toEqual([
      ['npm', 'ci'],
      ['node', 'node_modules/tsx/dist/cli.mjs'],
    ]);
    expect(result.status).toBe(0);
  });

  it('with a stale lockfile, says which package differs and reinstalls', () => {
    const { root, run } = project('stale');
    const result = run(['start']);
    expect(result.stderr).toContain('package-lock.json changed since the last install (a 1.0.0 is locked');
    expect(result.calls.map((c) => c.slice(0, 2))).toEqual([
      ['npm', 'ci'],
      ['node', join(root, 'node_modules', 'electron', 'install.js')],
      ['node', 'node_modules/tsx/dist/cli.mjs'],
    ]);
    expect(installReason(root)).toBeNull();
  });

  it('up to date, runs nothing but the task, says nothing, and passes its exit code on', () => {
    const { run } = project('current');
    const result = run(['start'], { STUB_EXIT: '7' });
    expect(result.stderr).toBe('');
    expect(result.calls).toEqual([['node', 'node_modules/tsx/dist/cli.mjs', 'scripts/start.ts']]);
    expect(result.status).toBe(7);
    expect(result.ms).toBeLessThan(3000);
  });

  it('does not reinstall a node_modules that links elsewhere (a shared install)', () => {
    const { root, run } = project('none');
    const shared = tempDir();
    symlinkSync(shared, join(root, 'node_modules'));
    const result = run(['start']);
    expect(result.stderr).toContain('but node_modules links to');
    expect(result.calls).toEqual([]);
    expect(result.status).toBe(1);
  });
});

describe.skipIf(process.platform === 'win32')('preflight, run as npm test runs it', () => {
  function withChromium(root: string) {
    const chromium = join(root, 'chromium');
    standIn(chromium);
    return chromium;
  }

  it('finds the programs the suites use, as the suites find them', () => {
    const { root, bin } = project('current');
    const chromium = withChromium(root);
    standIn(join(bin, 'ffmpeg'));
    const env = { PATH: bin, CHROMIUM_PATH: chromium };
    expect(missingTools(testTools(env), env).map((t) => t.name)).toEqual(['sox']);
    const gone = { PATH: bin, CHROMIUM_PATH: join(root, 'no-chromium') };
    expect(missingTools(testTools(gone), gone).map((t) => t.name)).toEqual(['chromium', 'sox']);
  });

  it('without ffmpeg and sox, and no way to install them, stops before anything runs and names the packages', () => {
    const p = project('none');
    const result = p.run(['test'], { CHROMIUM_PATH: withChromium(p.root) });
    expect(result.stderr).toMatch(
      /^takedesk: npm test needs ffmpeg \(reference tests\), sox \(reference tests\)/,
    );
    expect(result.stderr).toContain('install ffmpeg, sox with your package manager');
    expect(result.calls).toEqual([]);
    expect(result.status).toBe(1);
  });

  it.runIf(process.getuid?.() === 0)('as root with apt-get, installs them, then runs the checks', () => {
    const p = project('current');
    const chromium = withChromium(p.root);
    const makeTools = `if (process.argv[2] === 'install') for (const t of ['ffmpeg', 'sox']) fs.copyFileSync(__filename, path.join(__dirname, t));`;
    standIn(join(p.bin, 'apt-get'), makeTools);
    const result = p.run(['test'], { CHROMIUM_PATH: chromium });
    expect(result.stderr).toContain('takedesk: installing ffmpeg sox with apt-get');
    expect(result.calls).toEqual([
      ['apt-get', 'update', '-qq'],
      ['apt-get', 'install', '-y', '-qq', 'ffmpeg', 'sox'],
      ['npm', 'run', 'check'],
    ]);
    expect(result.status).toBe(0);
  });
});
