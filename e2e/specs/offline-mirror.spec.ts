import { expect, test } from '../fixtures';
import { ProjectPage } from '../pages/project-page';
import { ReviewPage } from '../pages/review-page';
import { startWithDeliveredVoiceOver } from '../support/setup';

/**
 * Everything loaded reads offline (issue 23, item 6): with the service stopped — and the renderer started afresh, so
 * only main's read mirror knows the project — the list, the project and the take open, marked "as of"; the take plays
 * from the library and shows its QA; an approval is queued. After a restart of the app, still offline, they still
 * open. Back online it is sent, and the project tells the truth without a reload.
 */
test('offline mirror: a loaded take opens, plays and is approved while the service is away, then sent', async ({
  app,
  sandbox,
}) => {
  const { project, deliverables } = await startWithDeliveredVoiceOver(sandbox, 'E2E mirror', {
    parts: ['Fresh bread every morning, delivered warm to your door.'],
    timeoutMs: 300_000,
  });
  const take = deliverables[0]!;
  const projectPage = new ProjectPage(app);
  const review = new ReviewPage(app);
  const openReview = async () => {
    await app.evaluate(`location.hash = ${JSON.stringify(`#/review/${take.id}?projectId=${project.id}`)}`);
    await expect(review.root).toHaveAttribute('data-deliverable-id', take.id);
    await review.expectLoaded();
  };

  // Loaded once while the service answers: the list, the project, the take, its file in the library with its QA.
  await app.reload();
  await app.getByTestId('nav-projects').click();
  await expect(app.locator(`[data-testid="project-row"][data-project-id="${project.id}"]`)).toBeVisible();
  await projectPage.goto(project.id);
  await expect(projectPage.deliverables).toHaveCount(1);
  await openReview();
  // The project has arrived too (a download files the take under it).
  await expect(review.readAlong).toContainText('Fresh bread');
  await review.qaDownload.click();
  await expect(review.qaVerdict).toBeVisible({ timeout: 60_000 });

  await sandbox.stop();
  try {
    // A fresh renderer: nothing of the earlier screens is in memory, main answers from what it loaded.
    await app.reload();
    await app.getByTestId('nav-projects').click();
    await expect(app.locator(`[data-testid="project-row"][data-project-id="${project.id}"]`)).toBeVisible({
      timeout: 30_000,
    });
    await expect(app.getByTestId('projects-offline')).toContainText(/as of \d\d:\d\d/);
    await expect(app.getByTestId('offline-as-of')).toHaveText(
      /^offline — showing what was loaded at \d\d:\d\d$/,
      { timeout: 30_000 },
    );

    await projectPage.goto(project.id);
    await expect(app.getByTestId('project-title')).toHaveText(project.title);
    await expect(app.getByTestId('project-offline')).toContainText(/as of \d\d:\d\d/);
    await expect(projectPage.deliverable(take.id).getByTestId('status-badge')).toHaveAttribute(
      'data-status',
      'reviewable',
    );

    await openReview();
    await expect(review.loadError).toHaveCount(0);
    await expect(app.getByTestId('review-offline')).toContainText(/as of \d\d:\d\d/);
    await expect(review.qaVerdict).toBeVisible({ timeout: 30_000 });
    await review.play();
    await expect.poll(() => review.currentTime(), { timeout: 10_000 }).toBeGreaterThan(0.3);
    await review.pause();
    await review.approveButton.click();
    await expect(app.getByTestId('review-queued')).toHaveText(/Queued:\s+Approve/);

    // The app restarted, still offline: still readable from the mirror, the decision still queued.
    await sandbox.restartApp();
    await app.reload();
    await review.expectLoaded();
    await expect(review.loadError).toHaveCount(0);
    await expect(app.getByTestId('review-offline')).toContainText(/as of \d\d:\d\d/);
    await expect(app.getByTestId('review-queued')).toHaveText(/Queued:\s+Approve/);
    await projectPage.goto(project.id);
    await expect(app.getByTestId('project-title')).toHaveText(project.title);
    await expect(projectPage.deliverables).toHaveCount(1);
  } finally {
    await sandbox.start();
  }

  // Back online: any real call notices it, the approval goes, and the project shows it without a reload.
  await projectPage.goto(project.id);
  await app.getByTestId('nav-outbox').click();
  const item = app.getByTestId('outbox-item').and(app.locator('[data-kind="approve"]')).last();
  await expect(item).toHaveAttribute('data-state', 'sent', { timeout: 90_000 });
  await app.evaluate(`location.hash = ${JSON.stringify(`#/projects/${project.id}`)}`);
  await expect(projectPage.deliverable(take.id).getByTestId('status-badge')).toHaveAttribute(
    'data-status',
    'approved',
    { timeout: 30_000 },
  );
  await expect(app.getByTestId('project-offline')).toHaveCount(0);
  await expect(app.getByTestId('offline-as-of')).toHaveCount(0);
});
