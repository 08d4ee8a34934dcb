import { serviceTime } from '../../shared/api/schemas';
import { REVISION_WINDOW_MS } from '../../shared/review/revision-window';
import { expect, test } from '../fixtures';
import { NewProjectPage } from '../pages/new-project-page';
import { ProjectPage } from '../pages/project-page';
import { ProjectsPage } from '../pages/projects-page';
import { ReviewPage } from '../pages/review-page';
import { createVoiceOver, deliverablesOf, uniqueTitle } from '../support/setup';

/**
 * Issue 14 against a sandbox answering in the live service's shapes (`--live-shapes`): deliverables listed before
 * they have files, services without units and with a status no list names, live date spellings, extra fields
 * everywhere, and a contest winner the service refuses.
 */
test('live shapes: a new project lists its deliverables unassigned, then assigned, then reviewable; one is approved; a refused winner is said plainly', async ({
  liveApp: app,
  liveSandbox: sandbox,
  liveSession,
}) => {
  const form = new NewProjectPage(app);
  const projectPage = new ProjectPage(app);
  const projects = new ProjectsPage(app);
  const review = new ReviewPage(app);
  const title = uniqueTitle('E2E live shapes');
  const badges = () => projectPage.deliverables.getByTestId('status-badge');

  await form.goto();
  await form.fillVoiceOver({
    title,
    script: ['Fresh bread every morning.', 'At the corner bakery, from six.'],
    language: 'eng-us',
    genderAndAge: 'youngAdultFemale',
  });
  await form.create();
  await expect(projectPage.title).toHaveText(title);
  const projectId = await projectPage.id();

  // Listed at once, without files, and nothing breaks.
  await expect(projectPage.deliverables).toHaveCount(2);
  await expect(badges().nth(0)).toHaveAttribute('data-status', 'unassigned');
  await expect(badges().nth(1)).toHaveAttribute('data-status', 'unassigned');
  await expect(app.getByTestId('deliverables-error')).toHaveCount(0);
  await expect(app.getByTestId('project-unreadable')).toHaveCount(0);
  // The service has no units, and a status Takedesk does not know: shown neutrally under its raw name.
  const service = projectPage.services.first();
  await expect(service.getByTestId('status-badge')).toHaveText('inviting');
  await expect(service.getByTestId('status-badge')).toHaveAttribute('data-known', 'false');
  await expect(service.getByRole('cell').nth(1)).toHaveText('—');
  // The live date spelling (space, Z or +00:00) still reads.
  await expect(app.getByTestId('project-meta')).toContainText(/Created\s*\w{3} \d{1,2}, \d{4}/);

  // A pro accepted: assigned, still without files.
  await sandbox.deliver(projectId);
  await app.reload();
  await expect(projectPage.title).toHaveText(title);
  await expect(badges().nth(0)).toHaveAttribute('data-status', 'assigned');
  await expect(badges().nth(1)).toHaveAttribute('data-status', 'assigned');
  await expect(service.getByTestId('status-badge')).toHaveAttribute('data-status', 'assigned');

  // Delivered: the same deliverables become reviewable with their files; one is reviewed and approved.
  await sandbox.deliver(projectId);
  await app.reload();
  await expect(badges().nth(0)).toHaveAttribute('data-status', 'reviewable');
  await expect(badges().nth(1)).toHaveAttribute('data-status', 'reviewable');
  await projectPage.openReview(0);
  await review.expectLoaded();
  await review.expectStatus('reviewable');
  await expect(review.waveform).toBeVisible();
  await review.approve();
  await review.expectStatus('approved');

  // The projects list reads the live answers too.
  await projects.goto();
  await expect(projects.row(projectId)).toBeVisible();
  await expect(app.getByTestId('projects-unreadable')).toHaveCount(0);
  await expect(projects.error).toHaveCount(0);

  // A contest: the service refuses a winner; the screen says so plainly and approving still works.
  const contest = await createVoiceOver(sandbox, {
    title: uniqueTitle('E2E live contest'),
    fulfillmentType: 'contest',
  });
  await sandbox.deliver(contest.id);
  await sandbox.deliver(contest.id);
  const [entry] = await deliverablesOf(sandbox, contest.id);
  await review.goto(liveSession.appUrl, entry!.id, contest.id);
  await review.winnerButton.click();
  await app.getByTestId('winner-dialog-confirm').click();
  await expect(review.winnerError).toHaveAttribute('data-error-type', 'WINNER_NOT_OFFERED');
  await expect(review.winnerError).toContainText('The service did not accept a contest winner');
  await expect(review.winnerError).toContainText('It may not offer picking winners for this project.');
  await expect(review.winnerError).toContainText('Approve the take you prefer instead.');
  await app.getByTestId('winner-dialog-cancel').click();
  await review.approve();
  await review.expectStatus('approved');
});

/**
 * Issue 25 against the live shapes: pages of 50 whatever is asked and a `total` that counts the whole account, a
 * completed project whose approved take is revised (from another device) and reviewed again, zone-offset dates.
 */
test('live shapes: a review session over capped pages, a search counted from its matches, and a revision after completion', async ({
  liveApp: app,
  liveSandbox: sandbox,
}) => {
  test.setTimeout(120_000);
  const projects = new ProjectsPage(app);
  const projectPage = new ProjectPage(app);
  const review = new ReviewPage(app);
  const prefix = uniqueTitle('E2E capped');

  // More projects than one of the service's pages, three of them found by a search.
  for (let i = 0; i < 3; i++) await createVoiceOver(sandbox, { title: `${prefix} pick ${i}` });
  for (let i = 0; i < 52; i++) await createVoiceOver(sandbox, { title: `${prefix} fill ${i}` });
  const firstPage = (await sandbox.api('GET', '/projects?page=1&pageSize=200')) as {
    total: number;
    projects: unknown[];
  };
  expect(firstPage.projects).toHaveLength(50); // the service's cap, not what was asked
  const total = firstPage.total; // unfiltered here: every project of the account

  // The whole list arrives, counted; scrolled to its end, the last row is a project, never a placeholder.
  await app.reload(); // the app opened on the list before these projects were made
  await projects.goto();
  await expect(projects.count).toHaveText(`${total.toLocaleString('en-US')} projects`);
  await projects.scrollToBottom();
  await expect(projects.rows.last()).toHaveAttribute('aria-rowindex', String(total + 1));
  await expect(projects.scroller.locator('.skeleton')).toHaveCount(0);

  // A search counts its matches, not the account's total, and shows no row that never loads.
  await projects.searchTitle(`${prefix} pick`);
  await expect(projects.count).toHaveText('3 projects');
  await expect(projects.rows).toHaveCount(3);
  await expect(projects.scroller.locator('.skeleton')).toHaveCount(0);

  // A booking delivered and approved: completed, and open to revisions for 90 days (from its order date).
  const booking = await createVoiceOver(sandbox, {
    title: uniqueTitle('E2E revised after approval'),
    fulfillmentType: 'booking',
  });
  await sandbox.deliver(booking.id); // a pro accepted
  await sandbox.deliver(booking.id); // delivered
  await sandbox.api('PUT', `/deliverables/project/${booking.id}`, { status: 'approved' });
  const { created } = (await sandbox.api('GET', `/projects/${booking.id}`)) as { created: string };
  const until = new Date(serviceTime(created) + REVISION_WINDOW_MS);
  const sameYear = until.getFullYear() === new Date().getFullYear();
  const day = new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
  }).format(until);
  await projectPage.goto(booking.id);
  await expect(app.getByTestId('project-status')).toHaveAttribute('data-status', 'completed');
  await expect(app.getByTestId('project-revision-window')).toHaveText(`Revisions possible until ${day}`);
  await expect(app.getByTestId('project-meta')).toContainText(/Created\s*\w{3} \d{1,2}, \d{4}/);

  // Another device asks for a revision of the approved take; the service keeps the project completed.
  const [take] = await deliverablesOf(sandbox, booking.id);
  await sandbox.api('POST', `/revisions/${take!.id}`, {
    instructions: 'A touch warmer, please.',
    revisionCode: 'quality_issues',
  });
  await sandbox.deliver(booking.id);
  await app.reload();
  await expect(projectPage.title).toBeVisible();
  await expect(app.getByTestId('project-status')).toHaveAttribute('data-status', 'completed');
  await expect(projectPage.deliverables.first().getByTestId('status-badge')).toHaveAttribute(
    'data-status',
    'reviewable',
  );
  // The revised take is reviewed and approved like any other.
  await projectPage.openReview(0);
  await review.expectLoaded();
  await review.expectStatus('reviewable');
  await review.approve();
  await review.expectStatus('approved');
});
