import { expect, screenshot, test } from '../fixtures';
import { ProjectPage } from '../pages/project-page';
import { createAudioAd, uniqueTitle } from '../support/setup';

test('delivery arrives on the open project page, grouped by service', async ({ app, sandbox }) => {
  const title = uniqueTitle('E2E delivery');
  const project = await createAudioAd(sandbox, title);
  const page = new ProjectPage(app);
  await page.goto(project.id);
  await expect(page.title).toHaveText(title);
  await expect(page.deliverablesEmpty).toBeVisible();

  const { delivered } = await sandbox.deliver(project.id);
  expect(delivered).toBeGreaterThan(0);
  // No reload: the watcher's deliverable.ready event (or the page's own refresh) brings them in.
  await expect(page.deliverables).toHaveCount(3, { timeout: 30_000 });
  for (const group of ['scriptwriting', 'voice_over', 'post-production'] as const) {
    await expect(page.group(group)).toHaveCount(1);
    await expect(page.group(group).getByTestId('deliverable-item')).toHaveCount(1);
  }
  await expect(page.deliverables.first().getByTestId('status-badge')).toHaveText(/ready for review/i);

  // And a reload shows the same grouping from the service.
  await page.refresh();
  await expect(page.deliverables).toHaveCount(3);
  await screenshot(app, 'project-delivered');
});
