import { expect, expectAccessible, screenshot, test } from '../fixtures';

test('the app opens on the Sandbox profile with no account', async ({ app }) => {
  await expect(app.getByText(/sandbox/i).first()).toBeVisible();
  await screenshot(app, 'projects-empty');
  await expectAccessible(app, 'projects');
});
