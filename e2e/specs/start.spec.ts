import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';

/**
 * `npm start` where no Electron binary exists (as here): it says why, starts browser mode on the embedded
 * sandbox, prints the full URL on a line of its own, and that URL opens a working app with no account.
 */
test('npm start falls back to browser mode, prints its URL, and the Sandbox profile works at once', async ({
  page,
}) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'takedesk-start-'));
  let child: ChildProcess | undefined;
  try {
    child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
      cwd: join(import.meta.dirname, '..', '..'),
      env: { ...process.env, TAKEDESK_DATA_DIR: dataDir, TAKEDESK_NO_OPEN: '1', HOME: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL within 60 s:\n${output}`)), 60_000);
      child!.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const line = output
          .split('\n')
          .find((l) => /^http:\/\/127\.0\.0\.1:\d+\/open#s=[\w-]+$/.test(l.trim()));
        if (line) {
          clearTimeout(timer);
          resolve(line.trim());
        }
      });
      child!.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
    });
    // A quiet start: one line that says which mode and why, then the URL (no build output: e2e built it already).
    expect(output.slice(0, output.indexOf(url)).trim().split('\n')).toEqual([
      expect.stringMatching(
        /^takedesk: browser mode \(Electron is not available here: .+\)\. Open this URL \(.+\):$/,
      ),
    ]);

    await page.goto(url);
    await expect(page).toHaveURL(/#\/projects$/);
    await expect(page.getByTestId('active-profile')).toContainText('Sandbox');
    // The embedded sandbox starts on demand and answers: an empty list, not an error.
    await expect(page.getByText(/no projects yet/i).first()).toBeVisible({ timeout: 30_000 });
  } finally {
    child?.kill('SIGTERM');
    if (child && child.exitCode === null) await new Promise((resolve) => child!.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
});
