/**
 * `npm run smoke:packaged`: packs the app with the real Electron and launches it with `--smoke-test`, which checks,
 * one printed line each, what only a packaged Electron can show: the window loads, IPC answers, the sandbox's
 * utility process starts and answers, `node:sqlite` opens a database, a worker thread decodes an MP3 with the wasm
 * from inside app.asar, the page reads media through the protocol with a Range request, and the app quits cleanly.
 * The workflows run it on Linux, Windows and macOS. Where the Electron binary is missing (it is fetched from
 * outside the npm registry), it says so and skips.
 *
 * On Linux it builds and installs the .deb and runs the installed app with Chromium's sandbox on: the package's
 * install script makes `chrome-sandbox` setuid, which Ubuntu 24.04+ needs (it restricts the unprivileged user
 * namespaces the sandbox would use otherwise). An AppImage cannot carry a setuid helper: see the README.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMOKE_LINE, SMOKE_STEP_NAMES } from '../electron/main/app/electron/smoke-test';
import { electronBinary } from './lib/electron-binary';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const output = join(root, 'release', 'smoke');
const TIMEOUT_MS = 180_000;

/** Where the .deb installs the app: electron-builder's /opt/<productName>/<linux.executableName>. */
export const DEB_EXECUTABLE = '/opt/Takedesk/takedesk';

/** Where electron-builder --dir puts the app's executable on this OS. */
export function unpackedExecutable(dir: string, platform: NodeJS.Platform = process.platform): string | null {
  if (platform === 'linux') return join(dir, 'linux-unpacked', 'takedesk');
  if (platform === 'win32') return join(dir, 'win-unpacked', 'Takedesk.exe');
  const mac = existsSync(dir)
    ? readdirSync(dir).find((name) => name === 'mac' || name.startsWith('mac-'))
    : undefined;
  return mac ? join(dir, mac, 'Takedesk.app', 'Contents', 'MacOS', 'Takedesk') : null;
}

/**
 * The Electron distribution electron-builder copies: the `electron` package's dist/ on every OS. (On macOS the
 * binary sits in dist/Electron.app/Contents/MacOS, and electron-builder appends `Electron.app` to what it is given.)
 */
export function electronDist(): string {
  return join(dirname(createRequire(import.meta.url).resolve('electron/package.json')), 'dist');
}

/** electron-builder's arguments: a .deb on Linux (installed, then run), the unpacked app elsewhere. */
export function builderArgs(platform: NodeJS.Platform, dist: string, out: string): string[] {
  return [
    ...(platform === 'linux' ? ['--linux', 'deb'] : ['--dir']),
    '--publish',
    'never',
    `--config.directories.output=${out}`,
    `--config.electronDist=${dist}`,
  ];
}

/** The install of the built .deb (apt resolves its dependencies; its script fixes chrome-sandbox). */
export function debInstall(dir: string, uid: number): [string, string[]] {
  const deb = readdirSync(dir).find((name) => name.endsWith('.deb'));
  if (!deb) throw new Error(`no .deb was built under ${dir}`);
  const apt = ['apt-get', 'install', '-y', '--reinstall', join(dir, deb)];
  return uid === 0 ? [apt[0]!, apt.slice(1)] : ['sudo', apt];
}

/** What the smoke run printed, judged: every step passed, in order, and the last line says so. */
export function judgeSmokeOutput(text: string): { ok: true } | { ok: false; why: string } {
  const lines = text.split(/\r?\n/).filter((line) => line.startsWith(SMOKE_LINE));
  const failed = lines.find((line) => line.startsWith(`${SMOKE_LINE} FAILED `));
  if (failed) return { ok: false, why: failed.slice(SMOKE_LINE.length + 1) };
  const passed = lines.flatMap((line) => /^\S+ smoke: ok (\w+):/.exec(line)?.[1] ?? []);
  if (passed.join() !== SMOKE_STEP_NAMES.join())
    return {
      ok: false,
      why: `steps passed: ${passed.join(', ') || 'none'}; want ${SMOKE_STEP_NAMES.join(', ')}`,
    };
  if (lines.at(-1) !== `${SMOKE_LINE} passed`) return { ok: false, why: 'no closing "passed" line' };
  return { ok: true };
}

async function main(): Promise<void> {
  const binary = electronBinary();
  if ('missing' in binary) {
    console.log(
      `smoke:packaged skipped: no Electron binary here (${binary.missing}); the release workflow runs it.`,
    );
    return;
  }
  const platform = process.platform;
  rmSync(output, { recursive: true, force: true });
  const packed = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules', 'electron-builder', 'cli.js'),
      ...builderArgs(platform, electronDist(), output),
    ],
    { cwd: root, stdio: 'inherit' },
  );
  if (packed.status !== 0) process.exit(packed.status ?? 1);

  let executable: string | null;
  if (platform === 'linux') {
    const [command, args] = debInstall(output, process.getuid?.() ?? 1000);
    const installed = spawnSync(command, args, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (installed.status !== 0) throw new Error(`installing the .deb failed (exit ${installed.status})`);
    executable = DEB_EXECUTABLE;
  } else {
    executable = unpackedExecutable(output, platform);
  }
  if (!executable || !existsSync(executable))
    throw new Error(`no packaged app found (${executable ?? output})`);

  const dataDir = mkdtempSync(join(tmpdir(), 'takedesk-smoke-'));
  // No --no-sandbox: the check is of the app as a producer runs it, Chromium's sandbox included.
  const child = spawn(executable, ['--smoke-test'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, TAKEDESK_DATA_DIR: dataDir },
  });
  let printed = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    printed += chunk;
    process.stdout.write(chunk);
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
  clearTimeout(timer);
  rmSync(dataDir, { recursive: true, force: true });
  const verdict = judgeSmokeOutput(printed);
  if (code !== 0 || !verdict.ok) {
    console.error(`smoke:packaged FAILED: exit ${code}${verdict.ok ? '' : `; ${verdict.why}`}`);
    process.exit(1);
  }
  console.log(`smoke:packaged passed: ${SMOKE_STEP_NAMES.join(', ')}.`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  void main().catch((error: unknown) => {
    console.error(`smoke:packaged failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
