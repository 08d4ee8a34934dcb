import { captureScreens, expect, test } from '../fixtures';
import { ProjectPage } from '../pages/project-page';
import { ReviewPage } from '../pages/review-page';
import { createVoiceOver, startWithDeliveredVoiceOver, uniqueTitle } from '../support/setup';

test('after approve all the project says Completed at once, and only allowed actions remain', async ({
  app,
  sandbox,
}) => {
  const { project } = await startWithDeliveredVoiceOver(sandbox, 'E2E state approve all');
  const page = new ProjectPage(app);
  const status = app.getByTestId('project-status');
  await page.goto(project.id);
  await expect(status).toHaveText('In work');
  await expect(page.approveAll).toHaveText('Approve all (2)');

  await page.approveAllConfirmed();
  // The service's answer, not the state before it: no reload.
  await expect(status).toHaveText(/completed/i);
  for (const item of await page.deliverables.all())
    await expect(item.getByTestId('status-badge')).toHaveText(/approved/i);
  // Nothing is reviewable any more: approve all is not offered; a completed project has no work left to cancel
  // (a product choice beyond docs/service.md#transitions, which would still accept it).
  await expect(page.approveAll).toHaveCount(0);
  await expect(page.cancel).toHaveCount(0);
  await captureScreens(app, 'project-completed');

  // A project with nothing delivered offers no approve all; once canceled, no action at all.
  const waiting = await createVoiceOver(sandbox, { title: uniqueTitle('E2E state cancel') });
  await page.goto(waiting.id);
  await expect(page.approveAll).toHaveCount(0);
  await page.cancelWith('no_longer_needed');
  await expect(status).toHaveText(/canceled/i);
  // Nothing was in review: this reason cost nothing, and the page says so.
  await expect(app.getByTestId('project-cancellation')).toHaveText(
    'Canceled: I no longer need this project. No cancellation fee.',
  );
  await expect(page.cancel).toHaveCount(0);
  await expect(page.approveAll).toHaveCount(0);
  await captureScreens(app, 'project-canceled');
});

test('review decisions update the take, its project page and what is offered next', async ({
  app,
  sandbox,
  session,
}) => {
  const { project, deliverables } = await startWithDeliveredVoiceOver(sandbox, 'E2E state review');
  const [first, second] = deliverables;
  const page = new ProjectPage(app);
  const review = new ReviewPage(app);

  await page.goto(project.id);
  await page.deliverable(first!.id).getByTestId('deliverable-review-link').click();
  await review.expectLoaded();
  await review.expectStatus('reviewable');
  await expect(review.approveButton).toBeVisible();
  await review.approve();
  await review.expectStatus('approved');
  // Approved: no second approval offered; a revision and a rejection still are (docs/service.md#transitions).
  await expect(review.approveButton).toHaveCount(0);
  await expect(review.revisionButton).toBeVisible();
  await expect(review.rejectButton).toBeVisible();

  // The project page shows the approval without a reload, and approve all counts only what is left.
  await app.goBack();
  await expect(page.deliverable(first!.id).getByTestId('status-badge')).toHaveText(/approved/i);
  await expect(page.approveAll).toHaveText('Approve all (1)');

  // Rejected: nothing left to decide on that take.
  await review.goto(session.appUrl, second!.id, project.id);
  await review.rejectButton.click();
  await app.getByTestId('reject-code').selectOption('wrong_tone');
  await app.getByTestId('reject-reason').fill('Not the voice we asked for.');
  await app.getByTestId('reject-dialog-confirm').click();
  await review.expectStatus('rejected');
  await expect(app.getByTestId('review-no-actions')).toBeVisible();
  await expect(review.approveButton).toHaveCount(0);
  await expect(review.rejectButton).toHaveCount(0);
  await expect(review.revisionButton).toHaveCount(0);
  await captureScreens(app, 'review-after-decision');

  await app.goBack();
  await expect(page.deliverable(second!.id).getByTestId('status-badge')).toHaveText(/rejected/i);
  await expect(page.approveAll).toHaveCount(0);
});
