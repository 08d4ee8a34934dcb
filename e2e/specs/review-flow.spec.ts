import type { Page } from '@playwright/test';
import { captureScreens, expect, test, type SandboxControl } from '../fixtures';
import { ProjectPage } from '../pages/project-page';
import { ProjectsPage } from '../pages/projects-page';
import { ReviewPage } from '../pages/review-page';
import { startWithDeliveredVoiceOver, takesByName, uniqueTitle } from '../support/setup';

test('flow through the work: Next needing review (button and N), advance after a decision, true check times', async ({
  app,
  sandbox,
  session,
}) => {
  const { project, deliverables } = await startWithDeliveredVoiceOver(sandbox, 'E2E flow', {
    parts: ['First line of the read.', 'Second line of the read.', 'Third line of the read.'],
  });
  const [first, second, third] = takesByName(deliverables, 3);
  const projectPage = new ProjectPage(app);
  const review = new ReviewPage(app);

  // The project page reads the takes (main's review index learns them from that answer: no extra request), and
  // says when the watcher checked it and will again, with Check now.
  await projectPage.goto(project.id);
  await expect(projectPage.deliverables).toHaveCount(3);
  await expect(app.getByTestId('project-watch-text')).toHaveText(/Checked .* · next in |Not checked yet/);
  await app.getByTestId('project-watch-check-now').click();
  await expect(app.getByTestId('project-watch-text')).toHaveText(/next in a few seconds|Checked just now/);

  // The take's name says what it is; Next goes to the take after it, and N does the same.
  await review.goto(session.appUrl, first.id, project.id);
  await expect(review.title).toHaveText('Voice over · part 1 · “First line of the read.”');
  await app.getByTestId('review-next').click();
  await expect(review.root).toHaveAttribute('data-deliverable-id', second.id);
  await expect(review.title).toHaveText('Voice over · part 2 · “Second line of the read.”');
  await app.getByTestId('review-waveform').waitFor();
  await app.locator('body').press('n');
  await expect(review.root).toHaveAttribute('data-deliverable-id', third.id);
  // Previous (Shift+N, and the button) goes back the same way.
  await app.locator('body').press('Shift+N');
  await expect(review.root).toHaveAttribute('data-deliverable-id', second.id);
  await app.getByTestId('review-previous').click();
  await expect(review.root).toHaveAttribute('data-deliverable-id', first.id);
  await captureScreens(app, 'review-next');

  // With "After a decision, open the next take", approving the second take opens the third.
  const settings = app.getByTestId('settings-advance');
  await app.goto(`${session.appUrl}#/settings`);
  await settings.check();
  await expect(settings).toBeChecked();
  await review.goto(session.appUrl, second.id, project.id);
  await review.approve();
  await expect(review.root).toHaveAttribute('data-deliverable-id', third.id);
  // Back to the default, for the specs that follow.
  await app.goto(`${session.appUrl}#/settings`);
  await settings.uncheck();
  await expect(settings).not.toBeChecked();

  // The account: how often deliveries are checked, and how long a round of the projects in work takes.
  const projects = new ProjectsPage(app);
  await projects.goto();
  await expect(app.getByTestId('account-watch-text')).toHaveText(
    /projects? in work, each checked about every \d/,
  );
  await captureScreens(app, 'projects-watch-status');
});

test('a canceled project says why and what the cancel cost', async ({ app, sandbox }) => {
  const { project } = await startWithDeliveredVoiceOver(sandbox, 'E2E cancel fee', {
    parts: ['Only one line.'],
    timeoutMs: 120_000,
  });
  const page = new ProjectPage(app);
  await page.goto(project.id);
  await expect(page.deliverables).toHaveCount(1); // a take in review: this reason costs 30 %
  await page.cancelWith('no_longer_needed.duplicated', 'Ordered twice');
  await expect(app.getByTestId('project-status')).toHaveText(/canceled/i);
  const text = app.getByTestId('project-cancellation');
  await expect(text).toHaveText(
    /^Canceled: The project was duplicated — “Ordered twice”\. Fee charged: \$[\d.,]+ \(30 %\)\.$/,
  );
  // Canceled is the end: no project-level action, and no "checked … ago" for a project nobody watches.
  await expect(page.cancel).toHaveCount(0);
  await expect(app.getByTestId('project-watch')).toHaveCount(0);
  await page.refresh();
  await expect(text).toHaveText(/Fee charged: \$[\d.,]+ \(30 %\)/);
  await captureScreens(app, 'project-canceled-fee');
});

test('a contest compares its entries on one timeline: switching entry keeps the playhead', async ({
  app,
  sandbox,
}) => {
  test.setTimeout(120_000);
  const project = (await sandbox.api('POST', '/projects', {
    title: uniqueTitle('E2E contest compare'),
    mainService: 'voice_over',
    fulfillmentType: 'contest',
    services: [
      {
        subCategory: 'voice_over',
        language: 'eng-us',
        genderAndAge: 'youngAdultFemale',
        script: [
          { part001: 'Three voices, one winner. Which one is yours, and which one will you pick today?' },
        ],
      },
    ],
  })) as { id: string };
  await sandbox.deliver(project.id);
  const page = new ProjectPage(app);
  await page.goto(project.id);
  const compare = app.getByTestId('contest-compare');
  const entries = compare.getByTestId('contest-entry');
  await expect.poll(() => entries.count(), { timeout: 30_000 }).toBeGreaterThan(1);
  // No "Approve all" on a contest: its entries compete for one winner.
  await expect(page.approveAll).toHaveCount(0);

  const waveform = app.getByTestId('contest-waveform');
  await expect(waveform).not.toHaveAttribute('data-state', 'loading');
  await app.getByTestId('contest-waveform-play').click();
  await expect(waveform).toHaveAttribute('data-state', 'playing');
  await expect
    .poll(async () => Number(await waveform.getAttribute('data-current-time')))
    .toBeGreaterThan(0.5);
  await app.getByTestId('contest-waveform-play').click();
  await expect(waveform).not.toHaveAttribute('data-state', 'playing');
  const at = Number(await waveform.getAttribute('data-current-time'));

  await entries.nth(1).click();
  await expect(entries.nth(1)).toHaveAttribute('aria-pressed', 'true');
  await expect(entries.nth(0)).toHaveAttribute('aria-pressed', 'false');
  await expect(waveform).not.toHaveAttribute('data-state', 'loading');
  // The same moment of the script, read by the other voice.
  await expect.poll(async () => Number(await waveform.getAttribute('data-current-time'))).toBeCloseTo(at, 0);
  await expect(compare.getByTestId('contest-review-link')).toHaveAttribute(
    'href',
    new RegExp(`${(await entries.nth(1).getAttribute('data-deliverable-id'))!}`),
  );
  await captureScreens(app, 'project-contest-compare');
});

/**
 * Two delivered takes on their project page: the project, its takes, the page, their two rows, and a take's status
 * as the service answers it now.
 */
async function twoTakesOnProjectPage(app: Page, sandbox: SandboxControl, prefix: string, timeoutMs: number) {
  const { project, deliverables } = await startWithDeliveredVoiceOver(sandbox, prefix, {
    parts: ['First line.', 'Second line.'],
    timeoutMs,
  });
  const page = new ProjectPage(app);
  await page.goto(project.id);
  const [first, second] = [page.deliverable(deliverables[0]!.id), page.deliverable(deliverables[1]!.id)];
  const statusOf = async (id: string) =>
    (
      (await sandbox.api('GET', `/deliverables/project/${project.id}`)) as Array<{
        id: string;
        status: string;
      }>
    ).find((d) => d.id === id)?.status;
  return { project, deliverables, page, first, second, statusOf };
}

test('a take can be approved from the project page list, without opening it', async ({ app, sandbox }) => {
  const { deliverables, first, second, statusOf } = await twoTakesOnProjectPage(
    app,
    sandbox,
    'E2E list decision',
    120_000,
  );
  await expect(first.getByTestId('deliverable-approve')).toHaveAccessibleName('Approve Voice over · part 1');
  await first.getByTestId('deliverable-approve').click();
  await expect(first.getByTestId('status-badge')).toHaveText(/approved/i);
  // Decided: nothing left to approve on that row; the other still offers it.
  await expect(first.getByTestId('deliverable-approve')).toHaveCount(0);
  await expect(second.getByTestId('deliverable-approve')).toBeVisible();
  expect(await statusOf(deliverables[0]!.id)).toBe('approved');
  await captureScreens(app, 'project-list-decision');
});

test('a take can be rejected, and another sent back for revision, from the project page list', async ({
  app,
  sandbox,
}) => {
  const { project, deliverables, page, first, second, statusOf } = await twoTakesOnProjectPage(
    app,
    sandbox,
    'E2E list reject revise',
    180_000,
  );

  // Reject from the row: the review screen's dialog, naming the version decided on and what the replacement costs.
  await expect(first.getByTestId('deliverable-reject')).toHaveAccessibleName('Reject Voice over · part 1');
  await first.getByTestId('deliverable-reject').click();
  const reject = app.getByTestId('reject-dialog');
  await expect(reject).toBeVisible();
  await expect(reject.getByTestId('reject-subject')).toContainText('Version 1 of Voice over · part 1');
  await expect(reject.getByTestId('reject-cost')).toContainText('What the replacement costs');
  await reject.getByTestId('reject-code').selectOption('wrong_tone');
  await reject.getByTestId('reject-dialog-confirm').click();
  await expect(reject).toBeHidden();
  await expect(app.getByTestId('toasts').getByText('Rejected: a replacement take is ordered')).toBeVisible();
  await expect(first.getByTestId('status-badge')).toHaveText(/rejected/i);
  await expect(first.getByTestId('deliverable-reject')).toHaveCount(0);
  expect(await statusOf(deliverables[0]!.id)).toBe('rejected');

  // Ask for a revision from the other row: the note keeps its line breaks.
  await second.getByTestId('deliverable-revise').click();
  const revise = app.getByTestId('list-revision-dialog');
  await expect(revise).toBeVisible();
  await expect(revise.getByTestId('revision-subject')).toContainText('Version 1 of Voice over · part 2');
  await expect(revise.getByTestId('revision-instructions')).toBeFocused();
  await revise.getByTestId('revision-instructions').fill('Slower on the first line.\nWarmer on the second.');
  await captureScreens(app, 'project-list-revision');
  await revise.getByTestId('revision-submit').click();
  await expect(revise).toBeHidden();
  await expect(app.getByTestId('toasts').getByText('Revision requested')).toBeVisible();
  await expect.poll(() => statusOf(deliverables[1]!.id)).toBe('revisionRequested');
  await expect(second.getByTestId('deliverable-revise')).toHaveCount(0);

  // The revised take arrives as version 2, with the instructions as written; the list now decides on version 2.
  await sandbox.deliver(project.id);
  const versions = (await sandbox.api('GET', `/revisions/${deliverables[1]!.id}/versions`)) as {
    versions: Array<{ instructions?: string | null }>;
  };
  expect(versions.versions.at(-1)?.instructions).toBe('Slower on the first line.\nWarmer on the second.');
  await page.goto(project.id);
  await expect(second.getByTestId('deliverable-revise')).toBeVisible({ timeout: 30_000 });
  await second.getByTestId('deliverable-revise').click();
  await expect(revise.getByTestId('revision-subject')).toContainText('Version 2 of Voice over · part 2');
  await revise.getByTestId('revision-cancel').click();
  await expect(revise).toBeHidden();
  expect(await statusOf(deliverables[1]!.id)).toBe('reviewable');
});
