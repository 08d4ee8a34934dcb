import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startApp, type StartedApp } from '../support/start-app';

/**
 * Issue 24, item 1: the app starts on a damaged settings file (one account's entry cut, a preference out of range),
 * keeps what was good, keeps a copy, and tells the producer once what was reset, in a toast that stays.
 */
test('a damaged settings file: what was good is kept, a copy is kept, and a toast says what was reset', async ({
  page,
}) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'takedesk-damaged-'));
  let app: StartedApp | undefined;
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
    app = await startApp(dataDir);
    const { url } = app;

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
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
