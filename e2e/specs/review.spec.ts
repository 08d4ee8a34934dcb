import { expect, expectAccessible, screenshot, test } from '../fixtures';
import { ProjectPage } from '../pages/project-page';
import { ReviewPage } from '../pages/review-page';
import { deliveredVoiceOver, takesByName, uniqueTitle } from '../support/setup';

test('review: play, keyboard, approve, reject with a new voice, revision with a timestamp, A/B versions', async ({
  app,
  sandbox,
  session,
}) => {
  const title = uniqueTitle('E2E review');
  const { project, deliverables } = await deliveredVoiceOver(sandbox, {
    title,
    parts: [
      'Fresh bread every morning, delivered warm to your door by the corner bakery.',
      'Order by nine, eat by ten. Visit us today and taste the difference.',
      'Open every day from seven until late, with coffee on the house.',
    ],
  });
  expect(deliverables).toHaveLength(3);
  const [first, second, third] = takesByName(deliverables, 3);
  const projectPage = new ProjectPage(app);
  const review = new ReviewPage(app);

  // Open from the project page, as a producer would.
  await projectPage.goto(project.id);
  await projectPage.deliverable(first.id).getByTestId('deliverable-review-link').click();
  await review.expectLoaded();
  await review.expectStatus('reviewable');
  await expect(review.waveformCanvas).toBeVisible();
  await review.waitForWaveform();
  await expect(review.waveformCanvas.locator('canvas').first()).toBeAttached();

  // Play: the audio element's time advances.
  await review.play();
  await expect.poll(() => review.currentTime(), { timeout: 10_000 }).toBeGreaterThan(0.3);
  // Space toggles the transport.
  await review.pressKey('Space');
  await expect(review.waveform).not.toHaveAttribute('data-state', 'playing');
  const paused = await review.currentTime();
  await app.waitForTimeout(400);
  expect(await review.currentTime()).toBeCloseTo(paused, 1);
  await review.pressKey('Space');
  await expect(review.waveform).toHaveAttribute('data-state', 'playing');
  await review.pause();
  await screenshot(app, 'review-audio-dark');
  await expectAccessible(app, 'review (audio)');
  await app.emulateMedia({ colorScheme: 'light' });
  await screenshot(app, 'review-audio-light');
  await app.emulateMedia({ colorScheme: 'dark' });

  // Approve.
  await review.approve();
  await review.expectStatus('approved');

  // Reject the second with genderAndAgeChange: the new gender-and-age is asked for and required.
  await review.goto(session.appUrl, second.id, project.id);
  await review.rejectButton.click();
  await expect(review.rejectDialog).toBeVisible();
  await expect(app.getByTestId('reject-gender-age')).toHaveCount(0);
  await app.getByTestId('reject-code').selectOption('genderAndAgeChange');
  const gender = app.getByTestId('reject-gender-age');
  await expect(gender).toBeVisible();
  await expect(gender).toHaveAttribute('required', '');
  await expect(app.getByTestId('reject-dialog-confirm')).toBeDisabled();
  const option = await gender.locator('option:not([disabled])').nth(1).getAttribute('value');
  expect(option).toBeTruthy();
  await gender.selectOption(option!);
  await app.getByTestId('reject-reason').fill('We need an older voice.');
  await expect(app.getByTestId('reject-dialog-confirm')).toBeEnabled();
  await app.getByTestId('reject-dialog-confirm').click();
  await review.expectStatus('rejected');
  await expect(review.rejectDialog).toBeHidden();

  // Revision on the third: instructions plus a timestamp from clicking the waveform.
  await review.goto(session.appUrl, third.id, project.id);
  await review.waitForWaveform();
  await review.openRevisionForm();
  await review.revisionInstructions.fill('Slower please at ');
  await review.clickWaveformAt(0.5);
  await expect(review.revisionInstructions).toHaveValue(/Slower please at \[\d+:\d{2}\.\d\]/);
  // A free revision type is the default; the paid one shows its fee before anything is sent
  // (docs/service.md#revision-codes).
  await expect(app.getByTestId('revision-code')).toHaveValue('quality_issues');
  await expect(app.getByTestId('revision-fee')).toHaveCount(0);
  await app.getByTestId('revision-code').selectOption('change_specifications');
  await expect(app.getByTestId('revision-fee')).toContainText('15 %');
  await review.requestRevision({ revisionCode: 'pro_didnt_follow_instructions' });
  await review.expectStatus('revisionRequested');
  await expect(review.version(1)).toBeVisible();
  await expect(review.version(2)).toHaveCount(0);

  // The revised take arrives: a second version, listed.
  await sandbox.deliver(project.id);
  await expect(review.version(2)).toBeVisible({ timeout: 30_000 });
  await review.expectStatus('reviewable');

  // A/B: switching versions keeps the playhead.
  await review.version(2).click();
  await review.waitForWaveform();
  await review.play();
  await expect.poll(() => review.currentTime(), { timeout: 10_000 }).toBeGreaterThan(1);
  await review.pause();
  const ab = await review.switchVersion(1);
  expect(Math.abs(ab.after - ab.before)).toBeLessThan(0.25);
  const ba = await review.switchVersion(2);
  expect(Math.abs(ba.after - ba.before)).toBeLessThan(0.25);
  expect(ba.after).toBeGreaterThan(1);
});
