import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';
import { electronBinary } from '../../scripts/lib/electron-binary';
import { DownloadsPage } from '../pages/downloads-page';
import { NewProjectPage } from '../pages/new-project-page';
import { ProjectPage } from '../pages/project-page';
import { ReviewPage } from '../pages/review-page';

const root = join(import.meta.dirname, '..', '..');
const binary = electronBinary();

/**
 * The Electron shell itself, which the machines that build Takedesk cannot run (the binary is fetched from outside
 * the npm registry): the built app starts on its embedded sandbox, a project is made, its deliverable plays and
 * downloads, and the app quits. Runs in the GitHub workflow on Linux (under xvfb), Windows and macOS.
 */
test('the Electron app starts on the sandbox, orders, plays and downloads a deliverable, and quits', async () => {
  if ('missing' in binary)
    console.log(`electron smoke test skipped: no Electron binary here (${binary.missing})`);
  test.skip(
    'missing' in binary,
    `No Electron binary here (${'missing' in binary ? binary.missing : ''}): the smoke test runs in the GitHub workflow`,
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'takedesk-electron-'));
  const app = await electron.launch({
    // Chromium's sandbox stays on: on Linux the workflow makes chrome-sandbox setuid first, as the .deb does.
    args: [join(root, 'out', 'main', 'index.js')],
    env: { ...process.env, TAKEDESK_DATA_DIR: dataDir },
  });
  try {
    const page = await app.firstWindow();
    await expect(page.getByTestId('active-profile')).toContainText(/sandbox/i, { timeout: 30_000 });

    // Order a voice over; the embedded sandbox delivers it on its own a few seconds later.
    const form = new NewProjectPage(page);
    await form.goto();
    await form.fillVoiceOver({
      title: `Electron smoke ${Date.now()}`,
      script: ['Fresh bread, every morning.'],
    });
    await form.create();
    const project = new ProjectPage(page);
    await expect(project.deliverables.first()).toBeVisible({ timeout: 60_000 });

    // Play it: the waveform draws and the clock moves (media through the app's own protocol).
    await project.openReview(0);
    const review = new ReviewPage(page);
    await review.expectLoaded();
    await review.waitForWaveform();
    await review.play();
    await expect.poll(() => review.currentTime(), { timeout: 15_000 }).toBeGreaterThan(0.2);
    await review.pause();

    // Download it into the library and see the job finish.
    await review.qaDownload.click();
    await page.getByTestId('nav-downloads').click();
    const downloads = new DownloadsPage(page);
    await expect(downloads.jobs.first()).toBeVisible();
    await downloads.expectState(downloads.jobs.first(), 'done', 120_000);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
