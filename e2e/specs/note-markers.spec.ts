import { captureScreens, expect, test } from '../fixtures';
import { ReviewPage } from '../pages/review-page';
import { openDeliveredReview } from '../support/open-review';
import { startWithDeliveredVoiceOver, uniqueTitle } from '../support/setup';

const ONE_LINE = 'Fresh bread every morning, delivered warm to your door by the corner bakery on the square.';

test('timestamped notes: markers appear as the note is typed and for earlier versions; a click plays from there', async ({
  app,
  sandbox,
  session,
}) => {
  // Two screens recorded at two widths in two themes, each checked by axe: slow on a shared machine.
  test.setTimeout(480_000);
  const { project, deliverables, review } = await openDeliveredReview(app, sandbox, session, {
    title: uniqueTitle('E2E markers'),
    parts: [ONE_LINE],
  });
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

test('markers of earlier versions sit at their times on first load, for every version, before any form is opened', async ({
  app,
  sandbox,
  session,
}) => {
  const { project, deliverables } = await startWithDeliveredVoiceOver(sandbox, 'E2E marker places', {
    parts: [ONE_LINE],
  });
  const review = new ReviewPage(app);
  // A fresh start of the screen each time, as when the producer opens the deliverable (not a refresh in place).
  const open = async () => {
    await review.goto(session.appUrl, deliverables[0]!.id, project.id);
    await app.reload();
    await review.expectLoaded();
    await review.waitForWaveform();
    await expect(review.waveform).not.toHaveAttribute('data-duration', '0.0');
  };
  /** Where a marker is drawn, as seconds into the file: its flag's left edge over the waveform's width. */
  const drawnAt = async (index: number) => {
    const canvas = (await review.waveformCanvas.boundingBox())!;
    const flag = (await review.markers.nth(index).boundingBox())!;
    const duration = Number(await review.waveform.getAttribute('data-duration'));
    return ((flag.x - canvas.x) / canvas.width) * duration;
  };
  const revise = async (instructions: string) => {
    await review.requestRevision({ instructions });
    await review.expectStatus('revisionRequested');
    await sandbox.deliver(project.id);
  };

  await open();
  await revise('Louder at [0:01.5] and softer at [0:03.0]');
  // Version 2, first load: both notes of version 1 where they point (not at 0:00), and a click plays from there.
  await open();
  await expect(review.markers).toHaveCount(2);
  await expect.poll(() => drawnAt(0)).toBeCloseTo(1.5, 0);
  await expect.poll(() => drawnAt(1)).toBeCloseTo(3.0, 0);
  await expect(review.revisionForm).toBeHidden();
  await review.markers.nth(1).click();
  await expect(review.waveform).toHaveAttribute('data-last-seek', '3.0');
  await review.pause();

  await revise('Cut the breath at [0:02.0]');
  // Version 3: the notes of versions 1 and 2 alike.
  await open();
  await expect(review.markers).toHaveCount(3);
  const times = await review.markers.evaluateAll((flags) =>
    flags.map((f) => (f as HTMLElement).dataset.seconds),
  );
  expect([...times].sort()).toEqual(['1.5', '2.0', '3.0']);
  for (let i = 0; i < 3; i++) await expect.poll(() => drawnAt(i)).toBeCloseTo(Number(times[i]), 0);
  const v2 = review.markers.filter({ hasText: 'v2' });
  await v2.click();
  await expect(review.waveform).toHaveAttribute('data-last-seek', '2.0');
});

test('a revision note from the keyboard alone: Ctrl+Shift+E types into the note, Alt+T writes the playhead, Esc closes', async ({
  app,
  sandbox,
  session,
}) => {
  test.setTimeout(240_000);
  const { review } = await openDeliveredReview(app, sandbox, session, {
    title: uniqueTitle('E2E note keys'),
    parts: [ONE_LINE],
  });

  // The transport from the page: L plays, K stops; the playhead is where the note's time will come from.
  await app.keyboard.press('l');
  await expect(review.waveform).toHaveAttribute('data-state', 'playing');
  await expect.poll(() => review.currentTime()).toBeGreaterThanOrEqual(1);
  await app.keyboard.press('k');
  await expect(review.waveform).not.toHaveAttribute('data-state', 'playing');
  const at = await review.currentTime();
  const stamp = `[0:${at.toFixed(1).padStart(4, '0')}]`;

  // Ctrl+Shift+E: the form opens with the caret in the note, so J K L and Space are letters, not the transport.
  await app.keyboard.press('Control+Shift+E');
  await expect(review.revisionForm).toBeVisible();
  await expect(review.revisionInstructions).toBeFocused();
  await app.keyboard.type('Take the l and k out, keep the space ');
  await expect(review.revisionInstructions).toHaveValue('Take the l and k out, keep the space ');
  await expect(review.waveform).not.toHaveAttribute('data-state', 'playing');
  expect(await review.currentTime()).toBe(at);

  // Alt+T: the playhead's time at the caret, with its marker on the waveform; typing goes on after it.
  await app.keyboard.press('Alt+T');
  await app.keyboard.type(' please');
  await expect(review.revisionInstructions).toHaveValue(
    `Take the l and k out, keep the space ${stamp} please`,
  );
  await expect(review.markers).toHaveCount(1);
  await expect(review.markers.first()).toHaveAttribute('data-seconds', at.toFixed(1));

  // Esc closes the form; the player has focus, so Space plays again.
  await app.keyboard.press('Escape');
  await expect(review.revisionForm).toBeHidden();
  await expect(review.waveform).toBeFocused();
  await app.keyboard.press('Space');
  await expect(review.waveform).toHaveAttribute('data-state', 'playing');
  await app.keyboard.press('k');
  await expect(review.waveform).not.toHaveAttribute('data-state', 'playing');
  // The seek keys too: Home, → 1 s, Shift+→ 5 s (to the end at most), Shift+← and J back, End.
  await app.keyboard.press('Home');
  await expect(review.waveform).toHaveAttribute('data-last-seek', '0.0');
  await app.keyboard.press('ArrowRight');
  await expect(review.waveform).toHaveAttribute('data-last-seek', '1.0');
  await app.keyboard.press('Shift+ArrowLeft');
  await expect(review.waveform).toHaveAttribute('data-last-seek', '0.0');
  await app.keyboard.press('End');
  const duration = Number(await review.waveform.getAttribute('data-duration'));
  await expect
    .poll(async () => Number(await review.waveform.getAttribute('data-last-seek')))
    .toBeCloseTo(duration, 0);
  await app.keyboard.press('j');
  await expect
    .poll(async () => Number(await review.waveform.getAttribute('data-last-seek')))
    .toBeLessThan(duration - 1);
  await review.pause();

  // Ctrl+Shift+Backspace opens the reject dialog and Esc closes it; Ctrl+Enter approves.
  await app.keyboard.press('Control+Shift+Backspace');
  await expect(review.rejectDialog).toBeVisible();
  await app.keyboard.press('Escape');
  await expect(review.rejectDialog).toBeHidden();
  await app.keyboard.press('Control+Enter');
  await review.expectStatus('approved');
});
