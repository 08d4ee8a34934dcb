/**
 * `npm run pack:check`: what can be checked of the installers on a machine without the Electron binary.
 * Runs `electron-builder --dir` with `electronDist` pointing at a stand-in Electron folder, so electron-builder does
 * its real work (configuration schema validation, file selection, runtime dependency collection, app.asar), then
 * lists app.asar and asserts it holds only built output, package.json and runtime dependencies.
 *
 * The stand-in is a Linux x64 distribution on every host: the app.asar electron-builder writes does not depend on
 * the host or target OS (the installers themselves are built on each OS's runner by the release workflow).
 */
import { listPackage, extractFile } from '@electron/asar';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Files whose presence means the built output exists (`npm run build`). */
export const REQUIRED_OUTPUT = [
  'out/main/index.js',
  // Worker threads main starts by file name: analysis, and the checksum/analysis that follows each download.
  'out/main/audio-worker.js',
  'out/main/follow-thread.worker.js',
  'out/main/transfer-thread.worker.js',
  // The embedded sandbox, which main starts as a process of its own (utilityProcess).
  'out/main/sandbox.js',
  // The MP3 decoder (libmpg123 in WebAssembly, read by the workers) and its LGPL-2.1 terms, which ship with it.
  'out/main/mpg123.wasm',
  'out/main/mpg123-COPYING.txt',
  'out/preload/index.cjs',
  'out/renderer/index.html',
] as const;

/**
 * A minimal unpacked Electron for Linux as electron-builder copies it: the `electron` executable it renames to the
 * app's executableName, `resources/` where app.asar goes, `locales/`, the license and `version`. The executable is
 * a shell script that only says what it is.
 */
export function createStandInElectronDist(dir: string, version: string): string {
  mkdirSync(join(dir, 'resources'), { recursive: true });
  mkdirSync(join(dir, 'locales'), { recursive: true });
  writeFileSync(
    join(dir, 'electron'),
    Buffer.concat([
      Buffer.from('#!/bin/sh\necho "stand-in Electron for pack:check; not runnable"\nexit 1\n# '),
      standInFuseWire(),
      Buffer.from('\n'),
    ]),
  );
  chmodSync(join(dir, 'electron'), 0o755);
  writeFileSync(join(dir, 'version'), `${version}\n`);
  writeFileSync(join(dir, 'LICENSE'), 'Stand-in for the Electron license file.\n');
  writeFileSync(join(dir, 'LICENSES.chromium.html'), '<!-- stand-in -->\n');
  writeFileSync(join(dir, 'locales', 'en-US.pak'), '');
  return dir;
}

/** Electron's fuse sentinel, then wire version 1, the wire length, and Electron's default for each fuse. */
export const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const ELECTRON_DEFAULT_FUSES = '10110001';

/** The fuse wire as Electron's binary carries it, so electron-builder's `electronFuses` flip is exercised too. */
function standInFuseWire(): Buffer {
  return Buffer.concat([
    Buffer.from(FUSE_SENTINEL, 'latin1'),
    Buffer.from([1, ELECTRON_DEFAULT_FUSES.length]),
    Buffer.from(ELECTRON_DEFAULT_FUSES, 'latin1'),
  ]);
}

/** The fuse states in a packed executable, in wire order ('1' on, '0' off), or null when it has no wire. */
export function readFuseWire(binary: Buffer): string | null {
  const at = binary.indexOf(FUSE_SENTINEL, 0, 'latin1');
  if (at < 0) return null;
  const length = binary[at + FUSE_SENTINEL.length + 1] ?? 0;
  const start = at + FUSE_SENTINEL.length + 2;
  return binary.subarray(start, start + length).toString('latin1');
}

/** Names of the packages `dependencies` pull in at runtime (transitively), resolved the way Node resolves them. */
export function runtimeDependencyClosure(projectDir: string): Set<string> {
  const names = new Set<string>();
  const seenDirs = new Set<string>();
  const visit = (pkgDir: string) => {
    if (seenDirs.has(pkgDir)) return;
    seenDirs.add(pkgDir);
    const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    for (const name of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
      const found = locatePackage(pkgDir, name, projectDir);
      if (!found) continue; // an optional dependency for another platform
      names.add(name);
      visit(found);
    }
  };
  visit(projectDir);
  return names;
}

function locatePackage(fromDir: string, name: string, projectDir: string): string | null {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === projectDir || dirname(dir) === dir) return null;
  }
}

/** The package a path inside node_modules belongs to (`@scope/name` or `name`), or null outside node_modules. */
export function packageOf(entry: string): string | null {
  const parts = entry.split('/').filter(Boolean);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return null;
  const first = parts[at + 1];
  if (!first) return null;
  return first.startsWith('@') && parts[at + 2] ? `${first}/${parts[at + 2]}` : first;
}

const FORBIDDEN: Array<[RegExp, string]> = [
  [/\.(ts|mts|cts|tsx|vue)$/i, 'source file'],
  [/\.map$/i, 'source map'],
  [/\.(test|spec)\.[cm]?[jt]sx?$/i, 'test file'],
  [/(^|\/)__tests__\//, 'test folder'],
  [/(^|\/)\.env(\.|$)/, '.env file'],
  [/(^|\/)\.git\//, 'git metadata'],
];

export interface AsarVerdict {
  violations: string[];
  files: number;
  packages: string[];
}

/**
 * Judges app.asar's file list (paths as @electron/asar lists them, `/`-separated with a leading slash): only
 * `out/**`, `package.json`, and files of runtime dependencies; no sources, maps, tests or env files anywhere.
 */
export function checkAsarEntries(entries: readonly string[], runtimeDeps: ReadonlySet<string>): AsarVerdict {
  const violations: string[] = [];
  const packages = new Set<string>();
  const paths = entries.map((e) => e.replaceAll('\\', '/'));
  const all = new Set(paths);
  const isDir = (p: string) => paths.some((other) => other.startsWith(`${p}/`));
  let files = 0;
  for (const path of paths) {
    if (isDir(path)) continue;
    files++;
    for (const [pattern, what] of FORBIDDEN) if (pattern.test(path)) violations.push(`${what}: ${path}`);
    if (path === '/package.json' || path.startsWith('/out/')) continue;
    const pkg = packageOf(path);
    if (!pkg || !path.startsWith('/node_modules/'))
      violations.push(`not built output or a dependency: ${path}`);
    else if (!runtimeDeps.has(pkg)) violations.push(`not a runtime dependency (${pkg}): ${path}`);
    else packages.add(pkg);
  }
  for (const required of ['/package.json', ...REQUIRED_OUTPUT.map((p) => `/${p}`)]) {
    if (!all.has(required)) violations.push(`missing: ${required}`);
  }
  return { violations, files, packages: [...packages].sort() };
}

/**
 * The wire electron-builder.yml's `electronFuses` must produce, in Electron's order: RunAsNode off, cookie
 * encryption on, NODE_OPTIONS off, --inspect off, asar integrity on, only-load-from-asar on, browser-specific V8
 * snapshot off, file: extra privileges off.
 */
export const EXPECTED_FUSES = '01001100';

export interface PackCheckResult extends AsarVerdict {
  /** The packed executable's fuse wire (see EXPECTED_FUSES). */
  fuses: string | null;
  asarPath: string;
  asarBytes: number;
  unpackedFiles: string[];
  packMs: number;
  output: string;
}

/** Runs electron-builder --dir with the stand-in and checks the result. Throws when the build output is missing. */
export function runPackCheck(options: { projectDir?: string; keep?: boolean } = {}): PackCheckResult {
  const projectDir = options.projectDir ?? root;
  const missing = REQUIRED_OUTPUT.filter((p) => !existsSync(join(projectDir, p)));
  if (missing.length > 0)
    throw new Error(`built output missing (${missing.join(', ')}): run \`npm run build\` first`);

  const work = mkdtempSync(join(tmpdir(), 'takedesk-pack-'));
  try {
    const electronVersion = installedElectronVersion(projectDir);
    const dist = createStandInElectronDist(join(work, 'electron-dist'), electronVersion);
    const outDir = join(work, 'release');
    const builderCli = join(projectDir, 'node_modules', 'electron-builder', 'cli.js');
    const started = performance.now();
    const pack = () =>
      spawnSync(
        process.execPath,
        [
          builderCli,
          '--dir',
          '--linux',
          '--x64',
          '--publish',
          'never',
          `-c.electronDist=${dist}`,
          `-c.electronVersion=${electronVersion}`,
          `-c.directories.output=${outDir}`,
        ],
        {
          cwd: projectDir,
          encoding: 'utf8',
          env: { ...process.env, CI: 'true', ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
        },
      );
    let run = pack();
    // A concurrent `npm run build` (another terminal, the e2e runner) may swap out/ mid-copy: pack again once.
    if (run.status !== 0 && /ENOENT[^\n]*[/\\]out[/\\]/.test(`${run.stdout}${run.stderr}`)) run = pack();
    const packMs = Math.round(performance.now() - started);
    const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
    if (run.status !== 0) throw new Error(`electron-builder --dir failed (${run.status}):\n${output}`);

    const resources = join(outDir, 'linux-unpacked', 'resources');
    const asarPath = join(resources, 'app.asar');
    const entries = listPackage(asarPath, { isPack: false });
    const verdict = checkAsarEntries(entries, runtimeDependencyClosure(projectDir));
    const packaged = JSON.parse(extractFile(asarPath, 'package.json').toString('utf8')) as Record<
      string,
      unknown
    >;
    if (packaged.main !== 'out/main/index.js')
      verdict.violations.push(`package.json main is ${String(packaged.main)}`);
    if ('devDependencies' in packaged) verdict.violations.push('package.json still lists devDependencies');
    const unpackedDir = join(resources, 'app.asar.unpacked');
    const unpackedFiles = existsSync(unpackedDir)
      ? walk(unpackedDir).map((f) => `/${relative(unpackedDir, f).split(sep).join('/')}`)
      : [];
    const unpackedVerdict = checkAsarEntries(
      [...unpackedFiles, '/package.json', ...REQUIRED_OUTPUT.map((p) => `/${p}`)],
      runtimeDependencyClosure(projectDir),
    );
    verdict.violations.push(...unpackedVerdict.violations.map((v) => `app.asar.unpacked: ${v}`));
    const executable = join(outDir, 'linux-unpacked', 'takedesk');
    const fuses = existsSync(executable) ? readFuseWire(readFileSync(executable)) : null;
    if (fuses !== EXPECTED_FUSES)
      verdict.violations.push(`fuses are ${String(fuses)}, expected ${EXPECTED_FUSES}`);
    const result: PackCheckResult = {
      ...verdict,
      fuses,
      asarPath,
      asarBytes: statSync(asarPath).size,
      unpackedFiles,
      packMs,
      output,
    };
    return result;
  } finally {
    if (!options.keep) rmSync(work, { recursive: true, force: true });
  }
}

function installedElectronVersion(projectDir: string): string {
  const pkg = JSON.parse(
    readFileSync(join(projectDir, 'node_modules', 'electron', 'package.json'), 'utf8'),
  ) as {
    version: string;
  };
  return pkg.version;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const result = runPackCheck({ keep: process.argv.includes('--keep') });
    console.log(
      `app.asar: ${result.files} files, ${(result.asarBytes / 1024 / 1024).toFixed(1)} MiB, ` +
        `${result.packages.length} runtime packages, ${result.unpackedFiles.length} unpacked files, fuses ${result.fuses}; ` +
        `electron-builder --dir took ${(result.packMs / 1000).toFixed(1)} s`,
    );
    if (result.violations.length > 0) {
      console.error(`pack:check found ${result.violations.length} problem(s):`);
      for (const v of result.violations.slice(0, 50)) console.error(`  ${v}`);
      process.exit(1);
    }
    console.log('pack:check ok: only built output, package.json and runtime dependencies');
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
