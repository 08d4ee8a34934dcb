/**
 * `npm run smoke:packaged`: packs the app with the real Electron (`electron-builder --dir`) and launches the
 * unpacked app with `--smoke-test`, which exits 0 only when its window loaded the renderer and an IPC round trip
 * through the preload answered. The release workflow runs it on each OS before the installers are built. Where the
 * Electron binary is missing (it is fetched from outside the npm registry), it says so and skips.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronBinary } from './lib/electron-binary';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const output = join(root, 'release', 'smoke');
const TIMEOUT_MS = 120_000;

/** Where electron-builder --dir puts the app's executable on this OS. */
export function unpackedExecutable(dir: string, platform: NodeJS.Platform = process.platform): string | null {
  if (platform === 'linux') return join(dir, 'linux-unpacked', 'takedesk');
  if (platform === 'win32') return join(dir, 'win-unpacked', 'Takedesk.exe');
  const mac = existsSync(dir)
    ? readdirSync(dir).find((name) => name === 'mac' || name.startsWith('mac-'))
    : undefined;
  return mac ? join(dir, mac, 'Takedesk.app', 'Contents', 'MacOS', 'Takedesk') : null;
}

async function main(): Promise<void> {
  const binary = electronBinary();
  if ('missing' in binary) {
    console.log(
      `smoke:packaged skipped: no Electron binary here (${binary.missing}); the release workflow runs it.`,
    );
    return;
  }
  rmSync(output, { recursive: true, force: true });
  const packed = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules', 'electron-builder', 'cli.js'),
      '--dir',
      '--publish',
      'never',
      `--config.directories.output=${output}`,
      `--config.electronDist=${dirname(binary.path)}`,
    ],
    { cwd: root, stdio: 'inherit' },
  );
  if (packed.status !== 0) process.exit(packed.status ?? 1);
  const executable = unpackedExecutable(output);
  if (!executable || !existsSync(executable)) throw new Error(`no unpacked app found under ${output}`);

  const dataDir = mkdtempSync(join(tmpdir(), 'takedesk-smoke-'));
  // Linux runners restrict the user namespaces Chromium's sandbox needs; the check is of the app, not the OS sandbox.
  const args = ['--smoke-test', ...(process.platform === 'linux' ? ['--no-sandbox'] : [])];
  const child = spawn(executable, args, {
    stdio: 'inherit',
    env: { ...process.env, TAKEDESK_DATA_DIR: dataDir },
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
  const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
  clearTimeout(timer);
  rmSync(dataDir, { recursive: true, force: true });
  if (code !== 0) {
    console.error(`smoke:packaged FAILED: the packaged app exited ${code}`);
    process.exit(1);
  }
  console.log('smoke:packaged passed: the packaged app loaded its renderer and answered an IPC round trip.');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  void main().catch((error: unknown) => {
    console.error(`smoke:packaged failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
