import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { DebugLogger } from 'builder-util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEEP_LINK_SCHEME } from '../electron/main/app/electron/deep-link';
import {
  EXPECTED_FUSES,
  REQUIRED_OUTPUT,
  readFuseWire,
  checkAsarEntries,
  createStandInElectronDist,
  packageOf,
  runPackCheck,
  runtimeDependencyClosure,
} from './pack-check';

const root = join(import.meta.dirname, '..');
const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const good = ['/package.json', ...REQUIRED_OUTPUT.map((p) => `/${p}`)];

describe('electron-builder.yml', () => {
  it("passes electron-builder's own schema validation (the same check a pack runs)", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    await expect(
      validateConfiguration({ ...config, nsis: { ...config.nsis, oneClik: true } }, new DebugLogger(false)),
    ).rejects.toThrow(/does not match the API schema/);
  });

  it('names the app, packs asar, and takes only built output (no maps) plus package.json', () => {
    expect(config.appId).toBe('app.takedesk.desktop');
    expect(config.productName).toBe('Takedesk');
    expect(config.asar).toBe(true);
    expect(config.files).toEqual(expect.arrayContaining(['out/**/*', 'package.json', '!out/**/*.map']));
    expect(config.artifactName).toMatch(/\$\{version\}.*\$\{arch\}/);
    expect(config.publish).toMatchObject({ provider: 'github' });
    expect(config.protocols[0].schemes).toEqual([DEEP_LINK_SCHEME]);
  });

  it('Linux: AppImage and deb, with a .desktop entry that handles takedesk:// links', () => {
    expect(config.linux.target.map((t: { target: string }) => t.target)).toEqual(['AppImage', 'deb']);
    expect(config.linux.desktop.entry.MimeType).toContain(`x-scheme-handler/${DEEP_LINK_SCHEME};`);
    expect(config.deb?.depends).toBeUndefined();
  });

  it('Windows: NSIS, per-user (one-click, not per-machine, so no elevation)', () => {
    expect(config.win.target.map((t: { target: string }) => t.target)).toEqual(['nsis']);
    expect(config.nsis).toMatchObject({ oneClick: true, perMachine: false });
  });

  it('macOS: dmg (and the zip updates need) for x64 and arm64, hardened runtime with entitlements', () => {
    for (const target of ['dmg', 'zip']) {
      const entry = config.mac.target.find((t: { target: string }) => t.target === target);
      expect(entry?.arch, target).toEqual(['x64', 'arm64']);
    }
    expect(config.mac.hardenedRuntime).toBe(true);
    const plist = readFileSync(join(root, config.mac.entitlements), 'utf8');
    expect(plist).toContain('<key>com.apple.security.cs.allow-jit</key>');
    expect(plist).not.toContain('disable-library-validation');
    expect(plist).not.toContain('com.apple.security.device.audio-input');
  });

  it('flips the Electron fuses that turn the app into a general-purpose Node or let it load code from elsewhere', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('every icon the configuration names exists', () => {
    for (const path of [config.mac.icon, config.win.icon, config.linux.icon, 'build/icon.png']) {
      expect(existsSync(join(root, path)), path).toBe(true);
    }
    expect(statSync(join(root, config.linux.icon)).isDirectory()).toBe(true);
  });
});

describe('pack-check helpers', () => {
  const deps = new Set(['got', '@hono/node-server', 'zod']);

  it('accepts built output, package.json and runtime dependency files', () => {
    const verdict = checkAsarEntries(
      [
        ...good,
        '/out',
        '/out/main',
        '/out/renderer/assets/app-1a2b.js',
        '/node_modules/got/dist/index.js',
        '/node_modules/@hono/node-server/dist/index.mjs',
        '/node_modules/got/node_modules/zod/index.js',
      ],
      deps,
    );
    expect(verdict.violations).toEqual([]);
    expect(verdict.packages).toEqual(['@hono/node-server', 'got', 'zod']);
  });

  it.each([
    ['/electron/main/index.ts', /source file/],
    ['/renderer/src/App.vue', /source file/],
    ['/out/main/index.js.map', /source map/],
    ['/out/main/app.test.js', /test file/],
    ['/node_modules/got/dist/index.d.ts', /source file/],
    ['/node_modules/got/dist/index.js.map', /source map/],
    ['/.env', /\.env file/],
    ['/out/.env.production', /\.env file/],
    ['/node_modules/vite/dist/index.js', /not a runtime dependency \(vite\)/],
    ['/scripts/start.js', /not built output or a dependency/],
    ['/README.md', /not built output or a dependency/],
  ])('rejects %s', (path, reason) => {
    const verdict = checkAsarEntries([...good, path], deps);
    expect(verdict.violations.join('\n')).toMatch(reason);
  });

  it('reports missing built output', () => {
    expect(checkAsarEntries(['/package.json'], deps).violations).toContain('missing: /out/main/index.js');
  });

  it('requires the sandbox entry main starts as a process of its own, and the build makes it', async () => {
    expect(REQUIRED_OUTPUT).toContain('out/main/sandbox.js');
    const withoutSandbox = good.filter((p) => p !== '/out/main/sandbox.js');
    expect(checkAsarEntries(withoutSandbox, deps).violations).toEqual(['missing: /out/main/sandbox.js']);
    const { default: viteConfig } = (await import('../electron.vite.config')) as {
      default: { main: { build: { rollupOptions: { input: Record<string, string> } } } };
    };
    expect(viteConfig.main.build.rollupOptions.input.sandbox).toBe(join(root, 'electron/sandbox/cli.ts'));
  });

  it('packageOf finds scoped and nested packages', () => {
    expect(packageOf('/node_modules/@scope/pkg/a.js')).toBe('@scope/pkg');
    expect(packageOf('/node_modules/a/node_modules/b/x.js')).toBe('b');
    expect(packageOf('/out/main/index.js')).toBeNull();
  });

  it('the runtime closure holds dependencies and what they need, never build tools', () => {
    const closure = runtimeDependencyClosure(root);
    for (const name of ['got', 'zod', 'electron-updater', 'builder-util-runtime', 'hono']) {
      expect(closure.has(name), name).toBe(true);
    }
    for (const name of ['electron', 'electron-builder', 'vite', 'vitest', 'typescript', 'pngjs']) {
      expect(closure.has(name), name).toBe(false);
    }
  });

  it('the stand-in Electron has what electron-builder copies and renames', () => {
    const dir = mkdtempSync(join(tmpdir(), 'takedesk-standin-'));
    try {
      createStandInElectronDist(dir, '45.0.0');
      expect(readFileSync(join(dir, 'version'), 'utf8').trim()).toBe('45.0.0');
      expect(statSync(join(dir, 'electron')).mode & 0o111).not.toBe(0);
      expect(statSync(join(dir, 'resources')).isDirectory()).toBe(true);
      // Electron's own defaults until electron-builder flips them.
      expect(readFuseWire(readFileSync(join(dir, 'electron')))).toBe('10110001');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('pack:check (electron-builder --dir with a stand-in Electron)', () => {
  // `npm test` runs unit tests before `npm run build`; a fresh checkout has no out/, so build it here once.
  const ensureBuilt = () => {
    if (REQUIRED_OUTPUT.every((p) => existsSync(join(root, p)))) return;
    const build = spawnSync(
      process.execPath,
      [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    if (build.status !== 0) throw new Error(`electron-vite build failed:\n${build.stdout}${build.stderr}`);
  };

  it('packs a real app.asar holding only built output, package.json and runtime dependencies', () => {
    ensureBuilt();
    const result = runPackCheck();
    expect(result.violations).toEqual([]);
    expect(result.files).toBeGreaterThan(50);
    expect(result.packages).toEqual(expect.arrayContaining(['got', 'zod', 'electron-updater']));
    expect(result.packages).not.toContain('electron');
    expect(result.fuses).toBe(EXPECTED_FUSES);
    // Guards against a file pattern that lets node_modules cruft back in (it was twice this size before).
    expect(result.asarBytes).toBeLessThan(25 * 1024 * 1024);
  }, 240_000);
});
