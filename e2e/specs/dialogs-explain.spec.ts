import { captureScreens, expect, test } from '../fixtures';
import { ProjectPage } from '../pages/project-page';
import { ReviewPage } from '../pages/review-page';
import { openDeliveredReview } from '../support/open-review';
import { createVoiceOver, deliverablesOf, uniqueTitle } from '../support/setup';

/** Issue 26 item 7: the review's forms and dialogs say what a decision does. */
test('a revision note keeps its line breaks; Reject says a replacement take is ordered and what is known of its cost', async ({
  app,
  sandbox,
  session,
}) => {
  test.setTimeout(240_000);
  const { project, deliverables, review } = await openDeliveredReview(app, sandbox, session, {
    title: uniqueTitle('E2E explain'),
  });

  await review.requestRevision({ instructions: 'Slower in the first line.\nWarmer at the end.' });
  await review.expectStatus('revisionRequested');
  // As written, on two lines (innerText follows the CSS: collapsed whitespace would join them with a space).
  const note = review.historyEvent('revisionRequested').locator('.event-note');
  await expect
    .poll(() => note.evaluate((el) => (el as HTMLElement).innerText))
    .toContain('Slower in the first line.\nWarmer at the end.');

  await sandbox.deliver(project.id);
  await review.goto(session.appUrl, deliverables[0]!.id, project.id);
  await expect(review.version(2)).toHaveAttribute('aria-pressed', 'true');
  await review.rejectButton.click();
  await expect(review.rejectDialog).toBeVisible();
  await expect(review.rejectDialog).toContainText(
    'the service orders a replacement take under the same name',
  );
  await expect(app.getByTestId('reject-cost')).toHaveText(
    /documentation gives no price for it.*may charge for it/s,
  );
  await captureScreens(app, 'reject-dialog');
  await app.getByTestId('reject-dialog-cancel').click();
  await expect(review.rejectDialog).toBeHidden();
});

test('Select as winner says how many other entries become rejected', async ({ app, sandbox, session }) => {
  test.setTimeout(240_000);
  const project = await createVoiceOver(sandbox, {
    title: uniqueTitle('E2E winner words'),
    fulfillmentType: 'contest',
  });
  await sandbox.deliver(project.id);
  const entries = await deliverablesOf(sandbox, project.id);
  const others = entries.filter((d) => d.status === 'reviewable').length - 1;
  expect(others).toBeGreaterThan(0);

  const projectPage = new ProjectPage(app);
  const review = new ReviewPage(app);
  await app.goto(`${session.appUrl}#/projects/${project.id}`);
  await expect.poll(() => projectPage.deliverables.count()).toBe(entries.length);
  await projectPage.openReview(0);
  await review.expectLoaded();
  await review.winnerButton.click();
  const dialog = app.getByTestId('winner-dialog');
  await expect(dialog).toBeVisible();
  const count =
    others === 1
      ? 'The 1 other entry still in review becomes'
      : `The ${others} other entries still in review become`;
  await expect(dialog).toContainText(`${count} rejected (no replacement is ordered for them).`);
  await app.getByTestId('winner-dialog-cancel').click();
  await expect(dialog).toBeHidden();
});
