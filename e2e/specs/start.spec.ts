import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startApp, type StartedApp } from '../support/start-app';

/**
 * `npm start` where no Electron binary exists (as here): it says why, starts browser mode on the embedded
 * sandbox, prints the full URL on a line of its own (the last thing it prints), and that URL opens a working app with no account.
 */
test('npm start falls back to browser mode, prints its URL, and the Sandbox profile works at once', async ({
  page,
}) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'takedesk-start-'));
  let app: StartedApp | undefined;
  try {
    app = await startApp(dataDir);
    const { output, url } = app;
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
    // The sandbox started after the URL was printed: its routine lines stay quiet, so the URL is still the last
    // thing the terminal shows.
    expect(app.printed().trim().split('\n').at(-1)).toBe(url);
  } finally {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
