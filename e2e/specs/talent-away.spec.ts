import { expect, test } from '../fixtures';
import { ReviewPage } from '../pages/review-page';
import { deliveredVoiceOver, uniqueTitle } from '../support/setup';

test('TALENT_ON_VACATION: the talent’s return date shows at the revision form', async ({
  app,
  sandbox,
  session,
}) => {
  const { project, deliverables } = await deliveredVoiceOver(sandbox, { title: uniqueTitle('E2E vacation') });
  const deliverable = deliverables[0]!;
  await sandbox.talentAway(deliverable.id, '2031-03-14');

  const review = new ReviewPage(app);
  await review.goto(session.appUrl, deliverable.id, project.id);
  await review.requestRevision({ instructions: 'Warmer tone, please.', checkTalent: true });
  expect(await review.errorType(review.revisionError)).toBe('TALENT_ON_VACATION');
  await expect(review.revisionError).toContainText('March 14, 2031');
  // The form stays open with the producer's text, and nothing changed on the service.
  await expect(review.revisionForm).toBeVisible();
  await expect(review.revisionInstructions).toHaveValue('Warmer tone, please.');
  await review.expectStatus('reviewable');

  // Without the check the revision goes through.
  await review.requestRevision({ checkTalent: false });
  await review.expectStatus('revisionRequested');
});
