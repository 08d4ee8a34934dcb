import { expect, expectAccessible, screenshot, test } from '../fixtures';
import { ProjectsPage } from '../pages/projects-page';
import { SettingsPage } from '../pages/settings-page';
import { createAudioAd, uniqueTitle } from '../support/setup';

const ACCOUNT = 'Acme live';

test('an expired session asks to sign in again in place, then finishes what was asked', async ({
  app,
  session,
  sandbox,
}) => {
  const settings = new SettingsPage(app);
  const projects = new ProjectsPage(app);

  // A real account signed in with email and password (its token expires, like the live service's), with a project.
  await createAudioAd(sandbox, uniqueTitle('E2E session'));
  await settings.goto();
  await settings.addWithPassword(session.sandboxUrl, 'producer@sandbox.test', 'sandbox', ACCOUNT);
  await expect(settings.activeProfile).toContainText(ACCOUNT);
  await projects.goto();
  await expect(projects.rows.first()).toBeVisible();
  // Its token says it ends within a day (the sandbox's lifetime here): said a week ahead, naming the account.
  await expect(app.getByTestId('session-ending-banner')).toContainText(
    new RegExp(`Your session for ${ACCOUNT} ends on \\d{1,2} \\w{3}( \\d{4})? — sign in again`),
  );

  // The token expires; the next thing the producer does meets a 401.
  expect((await sandbox.expireSessions()).expired).toBeGreaterThanOrEqual(1);
  await projects.searchTitle('Spring');
  const dialog = app.getByTestId('sign-in-again');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`Your session for ${ACCOUNT} expired — sign in again`);
  await expect(settings.activeProfile).toContainText('Signed out');
  await screenshot(app, 'session-expired');
  await expectAccessible(app, 'session-expired');

  // The email the account signed in with is there; the caret waits in the password.
  await expect(app.getByTestId('sign-in-again-email')).toHaveValue('producer@sandbox.test');
  await expect(app.getByTestId('sign-in-again-password')).toBeFocused();
  // A wrong password is refused in the dialog; the right one closes it and the search runs.
  await app.keyboard.type('wrong');
  await app.getByTestId('sign-in-again-confirm').click();
  await expect(app.getByTestId('sign-in-again-error')).toBeVisible();
  // Another user's sign-in is refused: this account's queued work never goes out under someone else.
  await app.getByTestId('sign-in-again-email').fill('other@sandbox.test');
  await app.getByTestId('sign-in-again-password').fill('sandbox');
  await app.getByTestId('sign-in-again-confirm').click();
  await expect(app.getByTestId('sign-in-again-error')).toContainText('That is another account');
  await expect(app.getByTestId('sign-in-again-error')).toContainText(
    `${ACCOUNT} belongs to another account (producer@sandbox.test).`,
  );
  await app.getByTestId('sign-in-again-email').fill('producer@sandbox.test');
  await app.getByTestId('sign-in-again-password').fill('sandbox');
  await app.getByTestId('sign-in-again-confirm').click();
  await expect(dialog).toBeHidden();
  await expect(projects.error).toHaveCount(0);
  await expect(settings.activeProfile).not.toContainText('Signed out');
  await expect(settings.activeProfile).toContainText(ACCOUNT);

  // Put things back for the other specs: the Sandbox profile active, the account removed.
  await settings.goto();
  await settings.activateSandbox();
  await settings.remove(ACCOUNT);
  await expect(settings.profile(ACCOUNT)).toHaveCount(0);
});
