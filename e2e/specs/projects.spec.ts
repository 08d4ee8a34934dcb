import { expect, expectAccessible, screenshot, test } from '../fixtures';
import { ProjectsPage } from '../pages/projects-page';
import { createAudioAd, createVoiceOver, uniqueTitle } from '../support/setup';

test('projects list: rows, title search, category filter; dark and light themes pass axe', async ({
  app,
  sandbox,
}) => {
  const tag = uniqueTitle('Listing');
  await createVoiceOver(sandbox, { title: `${tag} voice` });
  await createAudioAd(sandbox, `${tag} ad`);
  const projects = new ProjectsPage(app);
  // Created behind the app's back (no watcher event for new projects): load the list afresh.
  await app.reload();
  await projects.goto();
  await expect(projects.rows.first()).toBeVisible();

  await projects.searchTitle(tag);
  await expect(projects.rows).toHaveCount(2);
  await projects.filterCategory('audio_ads');
  await expect(projects.rows).toHaveCount(1);
  await expect(projects.rowByTitle(`${tag} ad`)).toBeVisible();
  await projects.filterCategory('');
  await expect(projects.rows).toHaveCount(2);
  await projects.searchTitle('');
  await expect(projects.rows.first()).toBeVisible();

  await screenshot(app, 'projects-dark');
  await expectAccessible(app, 'projects (dark)');
  await app.emulateMedia({ colorScheme: 'light' });
  await screenshot(app, 'projects-light');
  await expectAccessible(app, 'projects (light)');
});
