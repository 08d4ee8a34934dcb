import { captureScreens, expect, test } from '../fixtures';
import { ProjectPage } from '../pages/project-page';
import { ProjectsPage } from '../pages/projects-page';
import { createVoiceOver, deliveredVoiceOver, uniqueTitle } from '../support/setup';

test('needs my review: a review status per project, a filter with counts, and the app opens on it', async ({
  app,
  sandbox,
  session,
}) => {
  test.setTimeout(300_000);
  const tag = uniqueTitle('Review desk');
  // Ready for review (two takes), in revision (one take), waiting for delivery, and all approved.
  const { project: ready } = await deliveredVoiceOver(sandbox, { title: `${tag} ready` });
  const { project: revising, deliverables: revised } = await deliveredVoiceOver(sandbox, {
    title: `${tag} revising`,
    parts: ['Only one line.'],
  });
  await sandbox.api('POST', `/revisions/${revised[0]!.id}`, { instructions: 'Warmer, please.' });
  const waiting = await createVoiceOver(sandbox, { title: `${tag} waiting` });
  const { project: done } = await deliveredVoiceOver(sandbox, { title: `${tag} done` });
  await sandbox.api('PUT', `/deliverables/project/${done.id}`, { status: 'approved' });

  // The app's list names them to the watcher, which reads their deliverables in its own budget (no extra polling).
  const projects = new ProjectsPage(app);
  await app.reload();
  await projects.goto();
  await projects.searchTitle(tag);
  await expect(projects.rows).toHaveCount(4);
  // A project the app read between its delivery and the revision or approval above is read again in the watcher's
  // budget: every project the earlier specs made is "changed within the hour" too and shares the 30 reads a minute.
  const reread = { timeout: 150_000 };
  await expect(projects.review(ready.id)).toHaveText('2 ready for review', reread);
  await expect(projects.review(revising.id)).toHaveText('1 in revision', reread);
  await expect(projects.review(waiting.id)).toHaveText(/waiting for delivery|to come/i, reread);
  await expect(projects.review(done.id)).toHaveText('All approved', reread);
  await expect(projects.review(ready.id)).toHaveAttribute('data-review-state', 'needs-review');

  // The filter and its counts, within the search; one project reads "1 project".
  await expect(projects.reviewFilter('needs-review')).toHaveText(/Needs my review\s*1$/);
  await projects.reviewFilter('in-revision').click();
  await expect(projects.reviewFilter('in-revision')).toHaveAttribute('aria-pressed', 'true');
  await expect(projects.rows).toHaveCount(1);
  await expect(projects.row(revising.id)).toBeVisible();
  await expect(projects.count).toHaveText('1 project');
  await projects.reviewFilter('needs-review').click();
  await expect(projects.rows).toHaveCount(1);
  await expect(projects.row(ready.id)).toBeVisible();
  await captureScreens(app, 'projects-needs-review');

  // The app opens on what needs the producer: a fresh start lands on "Needs my review".
  await app.goto(session.appUrl);
  await expect(projects.reviewFilter('needs-review')).toHaveAttribute('aria-pressed', 'true');
  await expect(app).toHaveURL(/show=needs-review/);
  await expect(projects.count).toHaveText(/^[\d,]+ projects?$/);
  // The nav shows all projects again.
  await projects.goto();
  await expect(projects.reviewFilter('all')).toHaveAttribute('aria-pressed', 'true');

  // Approving from the project page moves it out of "needs my review" without a reload.
  const page = new ProjectPage(app);
  await page.goto(ready.id);
  await page.approveAllConfirmed();
  await expect(app.getByTestId('project-status')).toHaveText(/completed/i);
  await projects.goto();
  await projects.searchTitle(tag);
  await expect(projects.review(ready.id)).toHaveText('All approved');
  await expect(projects.reviewFilter('needs-review')).toHaveText(/Needs my review\s*0$/);
});
