import { captureScreens, expect, test } from '../fixtures';
import { ProjectPage } from '../pages/project-page';
import { ReviewPage } from '../pages/review-page';
import { deliverablesOf, startWithDeliveredVoiceOver, takesByName } from '../support/setup';

/**
 * Review offline (issue 15, item 11): with the service stopped, decisions go into a visible outbox, survive a reload,
 * and are sent in order when it is back, each checked against the service first; a change made elsewhere meanwhile
 * is a success when it agrees (already approved) and holds the decision, shown with both sides, when it does not.
 */
test('offline outbox: queued while the service is away, kept, sent in order, a held decision shown with both sides', async ({
  app,
  sandbox,
}) => {
  const { project, deliverables } = await startWithDeliveredVoiceOver(sandbox, 'E2E offline', {
    parts: ['Fresh bread every morning.', 'Delivered warm.', 'To your door.'],
    timeoutMs: 360_000,
  });
  const [d1, d2, d3] = takesByName(deliverables, 3);
  const projectPage = new ProjectPage(app);
  const review = new ReviewPage(app);
  const openReview = async (deliverableId: string) => {
    await app.evaluate(
      `location.hash = ${JSON.stringify(`#/review/${deliverableId}?projectId=${project.id}`)}`,
    );
    await expect(review.root).toHaveAttribute('data-deliverable-id', deliverableId);
    await review.expectLoaded();
  };
  // What the project page lists is what the producer reviews from while offline.
  await projectPage.goto(project.id);
  await expect(projectPage.deliverables).toHaveCount(3);
  // Each take's row says what it reads, not only "1", "2", "3" (issue 26 item 1).
  await expect(projectPage.deliverable(d2.id).getByTestId('deliverable-lines')).toContainText(
    '“Delivered warm.”',
  );

  const note = '[0:01.5] a warmer read here, please';
  await sandbox.stop();
  try {
    await openReview(d1.id);
    await expect(app.getByTestId('review-offline')).toBeVisible();
    await review.approveButton.click();
    // At once, clearly marked as queued (the service has not been told yet).
    await expect(app.getByTestId('review-queued')).toHaveText(/Queued:\s+Approve/);
    await expect(review.approveButton).toHaveText('Approval queued');
    await expect(review.approveButton).toBeDisabled();
    await expect(review.approveError).toHaveCount(0);
    await expect(app.getByTestId('outbox-nav-count')).toHaveText('1');
    await captureScreens(app, 'review-queued-offline');

    await openReview(d2.id);
    await review.requestRevision({ instructions: note });
    await expect(app.getByTestId('review-queued')).toHaveText(/Queued:\s+Ask for a revision/);
    await expect(review.revisionError).toHaveCount(0);

    await openReview(d3.id);
    await review.approveButton.click();
    await expect(app.getByTestId('review-queued')).toHaveText(/Queued:\s+Approve/);

    // The project page marks each queued decision too.
    await projectPage.goto(project.id);
    await expect(projectPage.deliverable(d2.id).getByTestId('deliverable-queued')).toHaveText(
      /Ask for a revision/,
    );

    // A reload (or a restart): the outbox lives in main's data folder, the note with it.
    await app.reload();
    await app.getByTestId('nav-outbox').click();
    // This project's items: what earlier specs sent stays listed, as sent, in the same app session.
    const items = app.getByTestId('outbox-item').filter({ hasText: project.title });
    await expect(items).toHaveCount(3);
    await expect(items.nth(0)).toHaveAttribute('data-kind', 'approve');
    await expect(items.nth(1)).toHaveAttribute('data-kind', 'revision');
    await expect(items.nth(2)).toHaveAttribute('data-kind', 'approve');
    for (const item of await items.all()) await expect(item).toHaveAttribute('data-state', 'queued');
    await expect(items.nth(1).getByTestId('outbox-typed')).toHaveText(note);
    await expect(items.nth(0)).toContainText(`“${d1.name}” in ${project.title}`);
    await captureScreens(app, 'outbox-queued');
  } finally {
    // The service comes back mid-queue; meanwhile another device approved d2 (against the queued revision) and d3.
    await sandbox.start();
  }
  await sandbox.api('PUT', `/deliverables/${d2.id}`, { status: 'approved' });
  await sandbox.api('PUT', `/deliverables/${d3.id}`, { status: 'approved' });

  // Any real call notices the service answers again: the queue goes, in order.
  await app.getByTestId('nav-projects').click();
  await app.getByTestId('nav-outbox').click();
  const items = app.getByTestId('outbox-item').filter({ hasText: project.title });
  // Within the client's own timeout and retries, on a loaded machine.
  await expect(items.nth(0)).toHaveAttribute('data-state', 'sent', { timeout: 90_000 });
  await expect(items.nth(1)).toHaveAttribute('data-state', 'held');
  // Same project: the later approve waits behind the held revision (the order the producer decided in holds).
  await expect(items.nth(2)).toHaveAttribute('data-state', 'queued');
  await expect(items.nth(0).getByTestId('outbox-outcome')).toHaveText('Approved.');
  // Held, both sides: what was asked (the note kept) and what the service has.
  await expect(items.nth(1).getByTestId('conflict-asked')).toHaveText(`Revision: ${note}`);
  await expect(items.nth(1).getByTestId('conflict-service')).toHaveText(
    'The take is approved now (it was ready for review when you decided) — open it, then decide again.',
  );
  await expect(items.nth(1)).toContainText('on version 1');
  await expect(items.nth(1).getByTestId('outbox-open-take')).toBeVisible();
  await expect(app.getByTestId('outbox-nav-count')).toHaveText('2');
  await captureScreens(app, 'outbox-conflict');

  const statuses = Object.fromEntries(
    (await deliverablesOf(sandbox, project.id)).map((d) => [d.id, d.status] as const),
  );
  expect([statuses[d1.id], statuses[d2.id], statuses[d3.id]]).toEqual(['approved', 'approved', 'approved']);

  // The review screen shows the service's state now, and the held decision as needing the producer.
  await openReview(d1.id);
  await review.expectStatus('approved');
  await expect(app.getByTestId('review-queued')).toHaveCount(0);
  await openReview(d2.id);
  await expect(app.getByTestId('review-queued')).toHaveText(/Needs you:\s+Ask for a revision/);

  // The producer settles it: discard, after a confirmation that says the note goes too.
  await app.getByTestId('nav-outbox').click();
  await items.nth(1).getByTestId('outbox-discard').click();
  await expect(app.getByTestId('outbox-discard-dialog')).toContainText('what you typed in it is deleted');
  await app.getByTestId('outbox-discard-dialog-confirm').click();
  await expect(app.getByTestId('outbox-item').and(app.locator('[data-state="held"]'))).toHaveCount(0);
  // The approve that waited behind it goes now: approved elsewhere already, a success, not an error.
  await expect(items.nth(1)).toHaveAttribute('data-state', 'sent', { timeout: 30_000 });
  await expect(items.nth(1).getByTestId('outbox-outcome')).toHaveText(/^Already approved/);
  await expect(app.getByTestId('outbox-nav-count')).toHaveCount(0);
});
