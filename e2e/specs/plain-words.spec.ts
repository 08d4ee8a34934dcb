import { captureScreens, expect, test } from '../fixtures';
import { NewProjectPage } from '../pages/new-project-page';
import { SettingsPage } from '../pages/settings-page';
import { watchCreateRequests } from '../support/create-requests';

// What the producer must never read: the API's field names, its header, a code, or a generic box beside field errors.
const API_WORDS = /genderAndAge|mainService|fulfillmentType|subCategory|x-access-token|FORBIDDEN|_REQUIRED/;

test('plain words: field errors speak the form labels, once; a refused token is named in plain words', async ({
  app,
  session,
}) => {
  test.setTimeout(240_000);
  const form = new NewProjectPage(app);
  const creates = watchCreateRequests(app);

  // An empty voice over: each field says what it needs with the label beside it, and nothing else says it again.
  await form.goto();
  await form.category('voice_over');
  await form.create();
  await expect(form.titleError).toHaveText('Title is required.');
  await expect(form.fieldError('np-vo-gender')).toHaveText('Gender and age is required.');
  await expect(form.scriptError).toHaveText('Script is required.');
  await expect(app.getByTestId('np-vo-gender')).toHaveAttribute('aria-invalid', 'true');
  await expect(app.getByTestId('np-vo-gender')).toHaveAttribute('aria-describedby', 'np-vo-gender-error');
  // The count names the fields too (issue 26 item 7).
  await expect(form.hasErrors).toHaveText('Fix the 3 fields marked in red: Title, Gender and age, Script.');
  await expect(form.root).not.toContainText(API_WORDS);
  await expect(form.root).not.toContainText('Something went wrong');
  await expect(form.submitError).toHaveCount(0);
  await expect(app.getByRole('alert')).toHaveCount(0);
  expect(creates, 'nothing is sent while fields are missing').toEqual([]);
  await captureScreens(app, 'plain-words-new-project');

  // Fixing a field clears its message and the count follows.
  await form.pickFirst('np-vo-gender');
  await expect(form.fieldError('np-vo-gender')).toHaveText('');
  await expect(form.hasErrors).toHaveText('Fix the 2 fields marked in red: Title, Script.');

  // Settings: before any token is saved the storage warning is absent, and the form says where a token would go.
  const settings = new SettingsPage(app);
  await settings.goto();
  await expect(settings.secretsBanner).toHaveCount(0);
  await app.getByTestId('profile-method-token').check();
  const storage = app.getByTestId('token-storage-hint');
  await expect(storage).toBeVisible();
  await expect(storage).not.toContainText('Stored encrypted');

  // A token the service refuses: named as a token problem, with no header name or code.
  const before = await settings.profiles.count();
  await settings.addWithToken(session.sandboxUrl, 'not-a-real-token', 'Refused');
  await expect(settings.addError).toContainText('The service did not accept this access token');
  await expect(settings.addError).toContainText('sign in with email and password');
  await expect(settings.addError).not.toContainText(API_WORDS);
  await expect(settings.root).not.toContainText(/x-access-token/);
  await expect(settings.profiles).toHaveCount(before);
  await captureScreens(app, 'plain-words-sign-in');
  await settings.token.fill('');
});
