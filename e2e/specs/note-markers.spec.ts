import { captureScreens, expect, test } from '../fixtures';
import { ReviewPage } from '../pages/review-page';
import { deliveredVoiceOver, uniqueTitle } from '../support/setup';

test('timestamped notes: markers appear as the note is typed and for earlier versions; a click plays from there', async ({
  app,
  sandbox,
  session,
}) => {
  // Two screens recorded at two widths in two themes, each checked by axe: slow on a shared machine.
  test.setTimeout(480_000);
  const { project, deliverables } = await deliveredVoiceOver(sandbox, {
    title: uniqueTitle('E2E markers'),
    parts: ['Fresh bread every morning, delivered warm to your door by the corner bakery on the square.'],
  });
  const review = new ReviewPage(app);
  await review.goto(session.appUrl, deliverables[0]!.id, project.id);
  await review.waitForWaveform();
  await expect(review.markers).toHaveCount(0);

  // Live: each `[m:ss.t]` typed becomes a marker; half-typed ones do not.
  await review.openRevisionForm();
  await review.revisionInstructions.fill('Louder at [0:01.5');
  await expect(review.markers).toHaveCount(0);
  await review.revisionInstructions.fill('Louder at [0:01.5] and softer at [0:03.0]');
  await expect(review.markers).toHaveCount(2);
  await expect(review.markers.first()).toHaveAttribute('data-tone', 'draft');
  await expect(review.markers.nth(1)).toHaveAttribute('data-seconds', '3.0');
  // Clicking the waveform puts the time in the note, and its marker on the waveform.
  await review.revisionInstructions.press('End');
  await review.clickWaveformAt(0.8);
  await expect(review.revisionInstructions).toHaveValue(/softer at \[0:03\.0\] \[\d+:\d\d\.\d\]/);
  await expect(review.markers).toHaveCount(3);
  await captureScreens(app, 'note-markers-draft');

  await review.revisionInstructions.fill('Louder at [0:01.5] and softer at [0:03.0]');
  await review.requestRevision({});
  await review.expectStatus('revisionRequested');
  await sandbox.deliver(project.id);
  await review.goto(session.appUrl, deliverables[0]!.id, project.id);
  await review.waitForWaveform();

  // Version 2 is open: the notes on version 1 are markers, told apart from a note being written.
  await expect(review.markers).toHaveCount(2);
  await expect(review.markers.first()).toHaveAttribute('data-tone', 'earlier');
  await expect(review.markers.first()).toHaveText('v1 0:01.5');

  // A click on a marker plays from its time (and puts nothing into a note).
  await review.openRevisionForm();
  await review.markers.nth(1).click();
  await expect(review.waveform).toHaveAttribute('data-last-seek', '3.0');
  await expect(review.waveform).toHaveAttribute('data-state', 'playing');
  await expect.poll(() => review.currentTime()).toBeGreaterThanOrEqual(3);
  await expect(review.revisionInstructions).toHaveValue('');
  await review.pause();
  await captureScreens(app, 'note-markers-earlier');
});
