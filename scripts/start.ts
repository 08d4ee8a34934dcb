/**
 * `npm start`: builds when needed, then runs Takedesk in Electron where its binary exists, otherwise in browser
 * mode (the same main-process services behind a local HTTP bridge), saying which and why.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronBinary } from './lib/electron-binary';
import { findNewestMtime } from './lib/mtime';
import { runQuietly } from './lib/quiet-build';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outIndex = join(root, 'out', 'renderer', 'index.html');

function needsBuild(): boolean {
  if (!existsSync(outIndex) || !existsSync(join(root, 'out', 'main', 'index.js'))) return true;
  const built = statSync(outIndex).mtimeMs;
  return findNewestMtime([join(root, 'renderer'), join(root, 'shared'), join(root, 'electron')]) > built;
}

function findChromium(): string | null {
  for (const candidate of [
    process.env.CHROMIUM_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ]) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  return null;
}

async function main() {
  if (needsBuild()) {
    console.log('takedesk: building the app (after each change to the sources; up to a minute)...');
    const built = runQuietly(
      process.execPath,
      [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
      { cwd: root },
    );
    if (built.status !== 0) {
      process.stderr.write(built.output);
      console.error(`takedesk: the build failed (exit code ${built.status ?? '?'}); its output is above.`);
      process.exit(built.status ?? 1);
    }
  }

  const electron = electronBinary();
  if ('path' in electron && process.env.TAKEDESK_BROWSER !== '1') {
    console.log('takedesk: starting Electron');
    const child = spawn(electron.path, [root], { stdio: 'inherit' });
    child.on('exit', (code) => process.exit(code ?? 0));
    return;
  }
  const why = 'missing' in electron ? electron.missing : 'TAKEDESK_BROWSER=1';
  const { startBrowserMode } = await import('../electron/main/app/browser-mode');
  const app = await startBrowserMode({
    rendererDir: join(root, 'out', 'renderer'),
    // The sandbox starts when the page first asks for it, after the URL is printed: its routine lines would bury
    // the URL, so they show only when asked for. Failures still print.
    ...(process.env.TAKEDESK_DEBUG === '1' ? {} : { info: () => undefined }),
  });

  // The browser first, so the URL is the last thing a start prints.
  const chromium = findChromium();
  const hasDisplay =
    process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
  if (chromium && hasDisplay && process.env.TAKEDESK_NO_OPEN !== '1') {
    const profile = mkdtempSync(join(tmpdir(), 'takedesk-chromium-'));
    spawn(
      chromium,
      [`--app=${app.url}`, `--user-data-dir=${profile}`, '--no-first-run', '--disable-background-networking'],
      {
        stdio: 'ignore',
        detached: true,
      },
    ).unref();
    console.log(`takedesk: opening ${chromium} in app mode.`);
  } else if (!chromium) {
    console.log('takedesk: no Chromium found; open the URL below in any browser on this machine.');
  }
  // One line that says which mode and why, then the URL on a line of its own.
  console.log(
    `takedesk: browser mode (Electron is not available here: ${why}). Open this URL (it carries this launch's secret; open it again for another tab):`,
  );
  console.log(app.url);

  const stop = async () => {
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

void main().catch((error: unknown) => {
  console.error('takedesk: failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
