import { captureScreens, expect, test } from '../fixtures';
import { DownloadsPage } from '../pages/downloads-page';
import { LibraryPage } from '../pages/library-page';
import { ProjectsPage } from '../pages/projects-page';
import { ReviewPage } from '../pages/review-page';
import { SettingsPage } from '../pages/settings-page';
import { deliveredVoiceOver, uniqueTitle } from '../support/setup';

const OTHER = 'Isolated studio';

test('another account’s projects never show: offline keeps each profile’s own, the dot tells reachable / unreachable', async ({
  app,
  sandbox,
  session,
}) => {
  test.setTimeout(300_000); // two screens captured at two widths in two themes, each checked by axe
  const settings = new SettingsPage(app);
  const projects = new ProjectsPage(app);
  const library = new LibraryPage(app);
  const downloads = new DownloadsPage(app);
  const title = uniqueTitle('Sandbox only');
  const { project: mine, deliverables } = await deliveredVoiceOver(sandbox, {
    title,
    parts: ['Mine alone.'],
  });
  // A file of the Sandbox profile in the library.
  const review = new ReviewPage(app);
  await review.goto(session.appUrl, deliverables[0]!.id, mine.id);
  await review.qaDownload.click();
  await downloads.goto(session.appUrl);
  await downloads.expectState(downloads.jobsOfFormat('wav').first(), 'done');
  await library.goto(session.appUrl);
  await expect(library.itemsOf(mine.id, 'wav')).toHaveCount(1);
  await app.reload();
  await projects.goto();
  await projects.searchTitle(title);
  await expect(projects.row(mine.id)).toBeVisible();
  await expect(settings.activeProfile).toHaveAttribute('data-connection', 'reachable');
  await expect(app.getByTestId('connection-status')).toHaveText(/connected/);

  // A second account (the same service, another user), then its service goes away.
  await settings.goto();
  await settings.addWithToken(session.sandboxUrl, session.tokens.otherUser, OTHER);
  await expect(settings.activeProfile).toContainText(OTHER);
  // Its Library and Downloads hold none of the Sandbox profile's files or jobs.
  await library.open();
  await expect(library.empty).toBeVisible();
  await expect(library.items).toHaveCount(0);
  await captureScreens(app, 'library-other-profile');
  await downloads.open();
  await expect(downloads.empty).toBeVisible();
  await expect(downloads.jobs).toHaveCount(0);
  await sandbox.stop();
  try {
    await projects.goto();
    // Nothing of this account was ever loaded: it says the service is unreachable, never the Sandbox's rows.
    await expect(projects.unreachable).toBeVisible({ timeout: 30_000 });
    await expect(projects.rows).toHaveCount(0);
    await expect(app.getByText(title)).toHaveCount(0);
    await expect(settings.activeProfile).toHaveAttribute('data-connection', 'unreachable');
    await expect(app.getByTestId('connection-status')).toHaveText('Service unreachable');
    await captureScreens(app, 'projects-unreachable');

    // The service is back: this account's own list (empty), and the dot follows the real call.
    await sandbox.start();
    await projects.unreachable.getByRole('button', { name: 'Try again' }).click();
    await expect(projects.count).toHaveText('0 projects');
    await expect(projects.empty).toBeVisible();
    await expect(settings.activeProfile).toHaveAttribute('data-connection', 'reachable');

    // Back to the Sandbox while its service is down: its own last-known list, marked offline.
    await settings.goto();
    await sandbox.stop();
    await settings.activateSandbox();
    await expect(settings.activeProfile).toContainText(/sandbox/i);
    await projects.goto();
    await expect(projects.offline).toBeVisible({ timeout: 30_000 });
    await expect(projects.row(mine.id)).toBeVisible();
    await expect(settings.activeProfile).toHaveAttribute('data-connection', 'unreachable');
    await captureScreens(app, 'projects-offline');

    await sandbox.start();
    await projects.offline.getByRole('button', { name: 'Try again' }).click();
    await expect(projects.offline).toHaveCount(0);
    await expect(projects.row(mine.id)).toBeVisible();
    await expect(settings.activeProfile).toHaveAttribute('data-connection', 'reachable');
    // The Sandbox profile's file is listed again.
    await library.open();
    await expect(library.itemsOf(mine.id, 'wav')).toHaveCount(1);
  } finally {
    await sandbox.start();
    // Leave only the Sandbox profile for the other specs.
    await settings.goto();
    const other = settings.profile(OTHER);
    if (await other.count()) {
      if (!(await settings.activeProfile.textContent())?.match(/sandbox/i)) await settings.activateSandbox();
      await other.getByTestId('profile-remove').click();
      await app.getByTestId('profile-remove-dialog-confirm').click();
      await expect(settings.profile(OTHER)).toHaveCount(0);
    }
  }
});
