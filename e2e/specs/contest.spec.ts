import { appUrlAt, expect, test } from '../fixtures';
import { NewProjectPage } from '../pages/new-project-page';
import { ProjectPage } from '../pages/project-page';
import { ReviewPage } from '../pages/review-page';
import { uniqueTitle } from '../support/setup';

test('contest: created in the UI, delivered, a winner is picked; a second pick says WINNER_ALREADY_SELECTED', async ({
  app,
  sandbox,
  session,
}) => {
  const form = new NewProjectPage(app);
  const projectPage = new ProjectPage(app);
  const review = new ReviewPage(app);
  const title = uniqueTitle('E2E contest');

  await form.goto();
  // A language and voice with several pros on the roster, so the contest gets several entries.
  await form.fillVoiceOver({
    title,
    script: ['Three voices, one winner. Which one is yours?'],
    language: 'eng-us',
    genderAndAge: 'youngAdultFemale',
  });
  await form.fulfillment.selectOption('contest');
  await form.create();
  await expect(projectPage.title).toHaveText(title);
  const projectId = await projectPage.id();
  await sandbox.deliver(projectId);
  // Several entries arrive (the list may fill in as events come).
  await expect.poll(() => projectPage.deliverables.count(), { timeout: 30_000 }).toBeGreaterThan(1);

  // A second window on another entry, opened before the pick: it still offers "Select as winner".
  const entries = await projectPage.deliverables.all();
  const secondId = await entries[1]!.getAttribute('data-deliverable-id');
  const stale = await app.context().newPage();
  await stale.goto(appUrlAt(session, `#/review/${secondId}?projectId=${projectId}`));
  const staleReview = new ReviewPage(stale);
  await staleReview.expectLoaded();
  await expect(staleReview.winnerButton).toBeVisible();

  await projectPage.openReview(0);
  await review.expectLoaded();
  await expect(review.winnerButton).toBeVisible();
  await review.selectWinner();
  await review.expectStatus('winner');
  await expect(review.status).toHaveText(/winner/i);

  // Back to the project: the winner badge; then a second entry.
  await app.goBack();
  await expect(projectPage.deliverables.nth(0).getByTestId('status-badge')).toHaveText(/winner/i);
  // Here the contest has its winner: another entry no longer offers the pick (shared/review/actions.ts).
  await projectPage.openReview(1);
  await review.expectLoaded();
  await expect(review.winnerButton).toHaveCount(0);

  // The stale window tries anyway: the service says WINNER_ALREADY_SELECTED.
  await staleReview.winnerButton.click();
  await stale.getByTestId('winner-dialog-confirm').click();
  await expect(stale.getByTestId('winner-dialog-error')).toBeVisible();
  await expect(stale.getByTestId('winner-dialog-error')).toHaveAttribute(
    'data-error-type',
    'WINNER_ALREADY_SELECTED',
  );
  await expect(stale.getByTestId('winner-dialog-error')).toContainText(/winner/i);
  // The losing entry did not become a second winner (the sandbox settles losers as rejected).
  await expect(staleReview.status).not.toHaveAttribute('data-status', 'winner');
  await stale.close();
});
