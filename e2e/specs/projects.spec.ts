import { captureScreens, expect, expectAccessible, screenshot, test } from '../fixtures';
import { ProjectsPage } from '../pages/projects-page';
import { voiceOverService } from '../../electron/sandbox/sample-bodies';
import {
  createAudioAd,
  createVoiceOver,
  deliverablesOf,
  deliveredVoiceOver,
  uniqueTitle,
} from '../support/setup';

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

test('projects list: sort by a column, search scripts and notes, download and approve a selection (issue 26 item 9)', async ({
  app,
  sandbox,
}) => {
  const tag = uniqueTitle('Working pace');
  const word = `zephyr${Date.now().toString(36)}`;
  await createVoiceOver(sandbox, { title: `${tag} Bravo`, parts: [`A line about ${word} for the harbour.`] });
  const alpha = await deliveredVoiceOver(sandbox, { title: `${tag} alpha` });
  const charlie = await deliveredVoiceOver(sandbox, { title: `${tag} Charlie` });
  await sandbox.api('POST', '/projects', {
    title: `${tag} Delta`,
    mainService: 'voice_over',
    remarks: `Client note: ${word}-warm baritone`,
    services: [voiceOverService(['Hi.'])],
  });
  const projects = new ProjectsPage(app);
  await app.reload();
  await projects.goto();
  await expect(projects.rows.first()).toBeVisible();

  const titles = () => projects.rows.locator('.title-link').allInnerTexts();
  await projects.searchTitle(tag);
  await expect(projects.rows).toHaveCount(4);
  await app.getByTestId('projects-sort-title').click();
  await expect.poll(titles).toEqual([`${tag} alpha`, `${tag} Bravo`, `${tag} Charlie`, `${tag} Delta`]);
  await expect(app.getByRole('columnheader', { name: 'Title' })).toHaveAttribute('aria-sort', 'ascending');
  await app.getByTestId('projects-sort-title').click();
  await expect.poll(titles).toEqual([`${tag} Delta`, `${tag} Charlie`, `${tag} Bravo`, `${tag} alpha`]);

  // "Last activity" sorts newest first and says where its dates come from (the service has no update time).
  await app.getByTestId('projects-sort-activity').click();
  const activity = app.getByRole('columnheader', { name: 'Last activity' });
  await expect(activity).toHaveAttribute('aria-sort', 'descending');
  await expect(activity).toHaveAttribute('title', /newest take version or delivery Takedesk has seen/);
  // Bravo and Delta were never delivered: their activity is their creation, said so.
  await expect(
    projects.rows.filter({ hasText: `${tag} Delta` }).getByTestId('project-activity'),
  ).toHaveAttribute('title', /^Created/);

  // Script text and notes are searched too, not only titles.
  await projects.searchTitle(word);
  await expect(projects.rows).toHaveCount(2);
  await expect.poll(async () => (await titles()).sort()).toEqual([`${tag} Bravo`, `${tag} Delta`]);

  // Two delivered projects selected: their files are queued, then their ready takes approved after a confirmation.
  await projects.searchTitle(tag);
  await expect(projects.rows).toHaveCount(4);
  await projects.row(alpha.project.id).getByTestId('project-select').check();
  await projects.row(charlie.project.id).getByTestId('project-select').check();
  await expect(app.getByTestId('projects-selection')).toContainText('2 projects selected');
  await app.getByTestId('projects-download-selected').click();
  await expect(app.getByText(/\d+ files queued from 2 projects/)).toBeVisible();
  const ready = alpha.deliverables.length + charlie.deliverables.length;
  // The ready takes are counted from the review index, once the watcher has read both projects.
  await expect(app.getByTestId('projects-approve-selected')).toHaveText(`Approve ready takes (${ready})`, {
    timeout: 30_000,
  });
  await app.getByTestId('projects-approve-selected').click();
  const dialog = app.getByTestId('projects-approve-dialog');
  await expect(dialog).toContainText(`${ready} takes ready for review in 2 selected projects`);
  await captureScreens(app, 'projects-approve-selection');
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(app.getByText(`Approved ${ready} takes in 2 projects`)).toBeVisible();
  for (const { project } of [alpha, charlie]) {
    const statuses = (await deliverablesOf(sandbox, project.id)).map((d) => d.status);
    expect(statuses.every((s) => s === 'approved')).toBe(true);
  }
  await app.getByTestId('projects-sort-price').click();
  await expect(app.getByRole('columnheader', { name: 'Price' })).toHaveAttribute('aria-sort', 'descending');
  await captureScreens(app, 'projects-sorted-selected');
});
