import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';

/**
 * Issue 24, item 1: the app starts on a damaged settings file (one account's entry cut, a preference out of range),
 * keeps what was good, keeps a copy, and tells the producer once what was reset, in a toast that stays.
 */
test('a damaged settings file: what was good is kept, a copy is kept, and a toast says what was reset', async ({
  page,
}) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'takedesk-damaged-'));
  let child: ChildProcess | undefined;
  try {
    const settings = JSON.stringify(
      {
        preferences: { theme: 'dark', concurrency: 9 },
        profiles: {
          profiles: [
            {
              id: 'sandbox',
              name: 'Sandbox',
              baseUrl: '',
              kind: 'sandbox',
              createdAt: '2026-01-01T00:00:00.000Z',
            },
          ],
          activeId: 'sandbox',
        },
      },
      null,
      2,
    );
    writeFileSync(join(dataDir, 'browser-mode-settings.json'), settings);
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

    await page.goto(url);
    const toast = page
      .getByTestId('toast')
      .filter({ hasText: 'The settings file was damaged and recovered' });
    await expect(toast).toBeVisible();
    await expect(toast).toContainText('reset: preferences.concurrency');
    const copy = readdirSync(dataDir).find((name) => name.startsWith('browser-mode-settings.damaged-'));
    expect(copy).toBeTruthy();
    await expect(toast).toContainText(copy!);
    // The theme survived the bad value beside it.
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    // Once: a reload does not say it again.
    await page.reload();
    await expect(page.getByTestId('active-profile')).toContainText('Sandbox');
    await expect(page.getByTestId('toast').filter({ hasText: 'was damaged' })).toHaveCount(0);
  } finally {
    child?.kill('SIGTERM');
    if (child && child.exitCode === null) await new Promise((resolve) => child!.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
});
