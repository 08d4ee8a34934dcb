import { captureScreens, expect, test } from '../fixtures';
import { ProjectPage } from '../pages/project-page';
import { ReviewPage } from '../pages/review-page';
import { deliverablesOf, startWithDeliveredVoiceOver } from '../support/setup';

test('takes: an original and its replacement are told apart, each with a dated history; decisions name their version', async ({
  app,
  sandbox,
  session,
}) => {
  // Two screens recorded at two widths in two themes, each checked by axe: slow on a shared machine.
  const { project, deliverables } = await startWithDeliveredVoiceOver(sandbox, 'E2E takes', {
    parts: ['Fresh bread every morning, warm at your door.', 'Order by nine, eat by ten.'],
    timeoutMs: 480_000,
  });
  const original = deliverables.find((d) => d.name === '2')!;
  const review = new ReviewPage(app);

  // Version 1 delivered, with its date; the decision says which version it applies to.
  await review.goto(session.appUrl, original.id, project.id);
  await expect(review.historyEvent('delivered')).toContainText('Version 1 delivered');
  await expect(review.historyEvent('delivered').getByTestId('history-date-delivered')).not.toHaveText(
    /date not given/,
  );
  await expect(review.approveButton).toHaveText('Approve version 1');
  await expect(review.decisionScope).toContainText('Decisions apply to version 1');

  // Reject: the history says so at once, dated from the service's answer.
  await review.reject({ reasonCode: 'wrong_tone', reason: 'Too cheerful.' });
  await review.expectStatus('rejected');
  await expect(review.historyEvent('rejected')).toContainText('Version 1 rejected');
  await expect(review.historyEvent('rejected').locator('time')).not.toHaveText(/date not given/);

  // The replacement arrives under the same name: the project page numbers the takes.
  await sandbox.deliver(project.id);
  const replacement = (await deliverablesOf(sandbox, project.id)).filter((d) => d.name === '2').at(-1)!;
  expect(replacement.id).not.toBe(original.id);
  const projectPage = new ProjectPage(app);
  await projectPage.goto(project.id);
  await expect(projectPage.deliverable(original.id).getByTestId('deliverable-take')).toHaveText(
    /Take 1 · replaced/,
  );
  await expect(projectPage.deliverable(replacement.id).getByTestId('deliverable-take')).toHaveText(/Take 2/);
  await captureScreens(app, 'take-history-project');

  // The original, read again from the service: rejected (dated) and replaced by take 2 (dated, linked).
  await review.goto(session.appUrl, original.id, project.id);
  await expect(app.getByTestId('history-take')).toHaveText('Take 1 of 2');
  await expect(review.historyEvent('rejected').locator('time')).not.toHaveText(/date not given/);
  await expect(review.historyEvent('replacedBy')).toContainText('Replaced by take 2');
  await expect(review.historyEvent('replacedBy').locator('time')).not.toHaveText(/date not given/);
  await app.getByTestId('history-link-replacedBy').click();
  await expect(review.root).toHaveAttribute('data-deliverable-id', replacement.id);

  // The replacement: a revision, then version 2 — and "Approve version 2".
  await expect(review.historyEvent('replaces')).toContainText('Replaces take 1');
  await review.requestRevision({ instructions: 'Slower at [0:01.0], please.' });
  await review.expectStatus('revisionRequested');
  await expect(review.historyEvent('revisionRequested')).toContainText('Slower at [0:01.0], please.');
  await sandbox.deliver(project.id);
  await review.goto(session.appUrl, replacement.id, project.id);
  await expect(review.historyEvent('revisionRequested').locator('time')).not.toHaveText(/date not given/);
  await expect(review.historyEvent('revised')).toContainText('Version 2 delivered (revised)');
  await expect(review.approveButton).toHaveText('Approve version 2');
  await review.version(1).click();
  await expect(review.decisionScope).toContainText('You are listening to version 1');
  await review.approve();
  await review.expectStatus('approved');
  await expect(review.historyEvent('approved')).toContainText('Version 2 approved');
  // Approved: the service takes no second approval, so it is no longer offered; the live region says what was done.
  await expect(review.approveButton).toHaveCount(0);
  await expect(app.getByTestId('review-live')).toHaveText('Version 2 approved.');
  await captureScreens(app, 'take-history-review');
});
