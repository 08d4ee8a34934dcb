import { expect, expectAccessible, screenshot, test } from '../fixtures';
import { ProjectsPage } from '../pages/projects-page';
import { SettingsPage } from '../pages/settings-page';

const OTHER = 'Other studio';

test('profiles: sandbox at first start, add by token, switch, remove, bad token, settings save', async ({
  app,
  session,
}) => {
  const settings = new SettingsPage(app);
  const projects = new ProjectsPage(app);

  // First start: the Sandbox profile is active and says so; no token is stored yet, so no storage warning.
  await expect(settings.sandboxBanner).toBeVisible();
  await expect(settings.activeProfile).toContainText(/sandbox/i);
  await expect(settings.secretsBanner).toHaveCount(0);

  await settings.goto();
  await expect(settings.profiles.first()).toBeVisible();
  await screenshot(app, 'settings');
  await expectAccessible(app, 'settings');

  // A bad token is refused at the form, nothing is added.
  const before = await settings.profiles.count();
  await settings.addWithToken(session.sandboxUrl, 'not-a-real-token', 'Broken');
  await expect(settings.addError).toBeVisible();
  await expect(settings.addError).toHaveAttribute('data-error-type', /.+/);
  await expect(settings.profiles).toHaveCount(before);

  // A real token of another user: checked, added, active, and its (empty) projects listed.
  await settings.token.fill('');
  await settings.addWithToken(session.sandboxUrl, session.tokens.otherUser, OTHER);
  await expect(settings.profile(OTHER)).toBeVisible();
  await expect(settings.profile(OTHER).getByTestId('profile-active')).toBeVisible();
  await expect(settings.activeProfile).toContainText(OTHER);
  await expect(settings.sandboxBanner).toBeHidden();
  // Browser mode keeps the token in a 0600 file: now the banner says so, in the words the form used.
  await expect(settings.secretsBanner).toContainText('unencrypted');
  await projects.goto();
  await expect(projects.empty).toBeVisible();
  await expect(projects.count).toHaveText('0 projects');

  // Switch back to the Sandbox profile.
  await settings.goto();
  await settings.activateSandbox();
  await expect(settings.activeProfile).toContainText(/sandbox/i);
  await expect(settings.sandboxBanner).toBeVisible();

  // Remove the other account, after the confirmation dialog.
  await settings.profile(OTHER).getByTestId('profile-remove').click();
  await expect(app.getByTestId('profile-remove-dialog')).toBeVisible();
  await app.getByTestId('profile-remove-dialog-confirm').click();
  await expect(settings.profile(OTHER)).toHaveCount(0);
  await expect(settings.secretsBanner).toHaveCount(0);

  // Settings save and survive a reload.
  const target = settings.deliveryTarget;
  const original = await target.inputValue();
  const other = await target
    .locator('option')
    .evaluateAll(
      (options, current) => options.map((o) => (o as HTMLOptionElement).value).find((v) => v !== current),
      original,
    );
  expect(other).toBeTruthy();
  await target.selectOption(other!);
  await expect(settings.root.getByText('Saved')).toBeVisible();
  await settings.theme('light');
  await expect.poll(() => settings.appliedTheme()).toBe('light');
  await app.reload();
  await settings.root.waitFor();
  await expect(settings.deliveryTarget).toHaveValue(other!);
  await expect.poll(() => settings.appliedTheme()).toBe('light');
  await expect(settings.saveError).toHaveCount(0);

  // Put things back for the other specs.
  await settings.deliveryTarget.selectOption(original);
  await settings.theme('system');
  await expect.poll(() => settings.appliedTheme()).toBeNull();
});
