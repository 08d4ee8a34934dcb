import { expect, test } from '../fixtures';
import { ProjectPage } from '../pages/project-page';
import { ReviewPage } from '../pages/review-page';
import { deliverablesOf, startWithDeliveredVoiceOver, takesByName } from '../support/setup';

/**
 * Local-first review (issue 23), the decisions part: with the service down, an approval is *Queued*; when the service
 * is back it is *Sent* without a reload, and the project page, left open, tells one truth — queued, then approved —
 * never "Approved" beside "Queued: Approve".
 */
test('decisions: queued while the service is down, then sent, and the open project page shows one truth without a reload', async ({
  app,
  sandbox,
}) => {
  const { project, deliverables } = await startWithDeliveredVoiceOver(sandbox, 'E2E one truth', {
    parts: ['Fresh bread every morning.', 'Delivered warm.'],
    timeoutMs: 300_000,
  });
  const [d1, d2] = takesByName(deliverables, 2);
  const projectPage = new ProjectPage(app);
  const review = new ReviewPage(app);
  await projectPage.goto(project.id);
  await expect(projectPage.deliverables).toHaveCount(2);
  // The take is loaded (read once while the service answered), then the service goes down.
  await app.evaluate(`location.hash = ${JSON.stringify(`#/review/${d1.id}?projectId=${project.id}`)}`);
  await review.expectLoaded();

  await sandbox.stop();
  try {
    await review.approveButton.click();
    await expect(app.getByTestId('review-queued')).toHaveText(/Queued:\s+Approve/);
    await expect(review.approveError).toHaveCount(0);
    await app.getByTestId('nav-outbox').click();
    await expect(app.getByTestId('outbox-item')).toHaveAttribute('data-state', 'queued');

    // The project page: the take is still ready for review on the service, with the approval queued beside it.
    await projectPage.goto(project.id);
    const take = projectPage.deliverable(d1.id);
    await expect(take.getByTestId('deliverable-queued')).toHaveText('Queued: Approve');
    await expect(take.getByTestId('status-badge')).not.toHaveText(/Approved/);
    await expect(projectPage.deliverable(d2.id).getByTestId('deliverable-queued')).toHaveCount(0);
  } finally {
    await sandbox.start();
  }

  // Back online, the page left open: the watcher's next answer sends the approval, and the page follows.
  const take = projectPage.deliverable(d1.id);
  await expect(take.getByTestId('status-badge')).toHaveText(/Approved/, { timeout: 150_000 });
  await expect(take.getByTestId('deliverable-queued')).toHaveCount(0);
  await expect(app.getByTestId('outbox-nav-count')).toHaveCount(0);
  const statuses = new Map((await deliverablesOf(sandbox, project.id)).map((d) => [d.id, d.status]));
  expect(statuses.get(d1.id)).toBe('approved');
  expect(statuses.get(d2.id)).toBe('reviewable');

  // The Outbox says what happened, in the service's terms.
  await app.getByTestId('nav-outbox').click();
  const item = app.getByTestId('outbox-item');
  await expect(item).toHaveAttribute('data-state', 'sent');
  await expect(item.getByTestId('outbox-outcome')).toHaveText('Approved.');
});
