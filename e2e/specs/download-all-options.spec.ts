import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { captureScreens, expect, test } from '../fixtures';
import { LibraryPage } from '../pages/library-page';
import { ProjectPage } from '../pages/project-page';
import { deliverablesOf, startWithDeliveredVoiceOver } from '../support/setup';

interface QueuedJob {
  deliverableId: string;
  format: string;
}

/** Runs `act` and returns what "Download all" sent to main and the jobs main queued. */
async function downloadAllCall(app: Page, act: () => Promise<void>) {
  const [request] = await Promise.all([
    app.waitForRequest((r) => r.url().includes('/ipc/downloads.startProject')),
    act(),
  ]);
  const response = await request.response();
  const answer = (await response!.json()) as { ok: boolean; value: QueuedJob[] };
  expect(answer.ok).toBe(true);
  const sent = (request.postDataJSON() as { input: Record<string, unknown> }).input;
  return { sent, jobs: answer.value };
}

/**
 * The formats every other spec expects "Download all" to fetch. Sent as the page sends calls: with the tab's launch
 * secret in its header (without it the bridge answers 401 and "mp3 only" would stay remembered for the next spec).
 */
async function rememberAllFormats(app: Page): Promise<void> {
  const status = await app.evaluate(
    async ([header, key]) =>
      (
        await fetch('/ipc/settings.set', {
          method: 'POST',
          headers: { 'content-type': 'application/json', [header]: sessionStorage.getItem(key) ?? '' },
          body: JSON.stringify({ input: { downloadFormats: ['wav', 'mp3', 'pdf'] } }),
        })
      ).status,
    // renderer/src/bridge.ts's SESSION_HEADER and SESSION_KEY (that module pulls in Vue: not imported here).
    ['x-takedesk-session', 'takedesk.session'] as const,
  );
  expect(status).toBe(200);
}

test('download all: formats chosen and remembered, rejected takes skipped unless asked; library paths on demand', async ({
  app,
  sandbox,
  session,
}) => {
  // A voice over whose first take was rejected and replaced.
  const { project, deliverables } = await startWithDeliveredVoiceOver(sandbox, 'E2E download all', {
    parts: ['Fresh bread every morning, delivered warm.'],
  });
  const rejected = deliverables[0]!;
  await sandbox.api('PUT', `/deliverables/${rejected.id}`, { status: 'rejected', reason: 'Wrong voice' });
  await sandbox.deliver(project.id);
  const replacement = (await deliverablesOf(sandbox, project.id)).find((d) => d.id !== rejected.id)!;
  expect(deliverables).toHaveLength(1);
  expect(replacement).toBeTruthy();

  const page = new ProjectPage(app);
  await page.goto(project.id);
  await expect(page.deliverables).toHaveCount(2);
  try {
    // The dialog starts from the remembered formats, rejected takes left out, and counts what it will fetch.
    await page.downloadAll.click();
    const dialog = page.downloadAllDialog;
    await expect(dialog).toBeVisible();
    for (const format of ['wav', 'mp3', 'pdf']) {
      await expect(app.getByTestId(`download-all-format-${format}`)).toBeChecked();
    }
    await expect(app.getByTestId('download-all-rejected')).not.toBeChecked();
    await expect(dialog).toContainText('Include rejected takes (1)');
    await expect(app.getByTestId('download-all-dialog-confirm')).toHaveText('Download 2 files');
    await captureScreens(app, 'download-all-options');
    await app.getByTestId('download-all-dialog-cancel').click();

    // MP3 only: one file, the replacement's; the rejected take is not fetched.
    const mp3Only = await downloadAllCall(app, () => page.downloadAllFiles({ formats: ['mp3'] }));
    expect(mp3Only.sent).toEqual({ projectId: project.id, formats: ['mp3'] });
    expect(mp3Only.jobs.map((j) => [j.deliverableId, j.format])).toEqual([[replacement.id, 'mp3']]);

    // Remembered: after a reload the dialog opens on MP3 alone.
    await app.reload();
    await page.goto(project.id);
    await page.downloadAll.click();
    await expect(app.getByTestId('download-all-format-mp3')).toBeChecked();
    await expect(app.getByTestId('download-all-format-wav')).not.toBeChecked();
    await expect(app.getByTestId('download-all-format-pdf')).not.toBeChecked();
    await expect(app.getByTestId('download-all-dialog-confirm')).toHaveText('Download 1 file');
    // Asked for, the rejected take comes too.
    await app.getByTestId('download-all-rejected').check();
    await expect(app.getByTestId('download-all-dialog-confirm')).toHaveText('Download 2 files');
    const withRejected = await downloadAllCall(app, () =>
      app.getByTestId('download-all-dialog-confirm').click(),
    );
    expect(withRejected.sent).toEqual({ projectId: project.id, formats: ['mp3'], includeRejected: true });
    expect(withRejected.jobs.map((j) => j.deliverableId)).toContain(rejected.id);
    expect(withRejected.jobs.every((j) => j.format === 'mp3')).toBe(true);
  } finally {
    await rememberAllFormats(app);
  }

  // The library: in the browser "Show in folder" cannot work, so it is not offered and the screen says why; each
  // row shows its full path on demand.
  const library = new LibraryPage(app);
  await library.goto(session.appUrl);
  const rows = library.itemsOf(project.id, 'mp3');
  await expect(rows).toHaveCount(2, { timeout: 60_000 });
  await expect(app.getByTestId('library-reveal')).toHaveCount(0);
  await expect(app.getByTestId('library-reveal-note')).toContainText('cannot open your file manager');
  const row = rows.first();
  const fullPath = row.getByTestId('library-full-path');
  await expect(fullPath).toBeHidden();
  await row.getByTestId('library-path').locator('summary').click();
  await expect(fullPath).toBeVisible();
  const shown = (await fullPath.textContent())!.trim();
  const relative = (await row.getByTestId('library-path').locator('summary').textContent())!.trim();
  expect(shown).toBe(join(session.libraryDir, relative));
  expect(existsSync(shown)).toBe(true);
  await captureScreens(app, 'library-full-path');
});
