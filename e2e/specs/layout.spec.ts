import { captureScreens, expect, test } from '../fixtures';
import { PlayerBar } from '../pages/player-bar';
import { ReviewPage } from '../pages/review-page';
import { SamplesPage } from '../pages/samples-page';
import { openDeliveredReview } from '../support/open-review';
import { deliveredVoiceOver, uniqueTitle } from '../support/setup';

test('layout at 1024 and 1440 px: a full-size play button, the zoom inside its card, a wide waveform, compact banners', async ({
  app,
  sandbox,
  session,
}) => {
  const { review } = await openDeliveredReview(app, sandbox, session, {
    title: uniqueTitle('E2E layout'),
  });
  // Downloaded, so the version row carries every badge it can ("Latest", "On disk") beside its date.
  await review.qaDownload.click();
  await expect(review.version(1)).toContainText('On disk', { timeout: 60_000 });
  for (const width of [1024, 1440]) {
    await app.setViewportSize({ width, height: 860 });
    const play = (await review.playButton.boundingBox())!;
    expect(play.width, `play button width at ${width}`).toBeGreaterThanOrEqual(32);
    expect(play.height, `play button height at ${width}`).toBeGreaterThanOrEqual(32);
    const card = (await review.playerPanel.boundingBox())!;
    const zoom = (await review.zoom.boundingBox())!;
    expect(zoom.x, `zoom inside its card at ${width}`).toBeGreaterThanOrEqual(card.x);
    expect(zoom.x + zoom.width, `zoom inside its card at ${width}`).toBeLessThanOrEqual(card.x + card.width);
    expect(zoom.y + zoom.height).toBeLessThanOrEqual(card.y + card.height);
    const banners = (await app.locator('.banners').boundingBox())!;
    expect(banners.height, `banners at ${width}`).toBeLessThanOrEqual(30);
    // The waveform has the width: at 1024 the script goes under it rather than beside it (issue 26, item 10).
    const canvas = (await review.waveformCanvas.boundingBox())!;
    expect(canvas.width, `waveform width at ${width}`).toBeGreaterThan(width === 1024 ? 640 : 720);
    // A version's row is one line: name, badges and date side by side.
    const head = (await review.version(1).locator('.version-head').boundingBox())!;
    expect(head.height, `version row at ${width}`).toBeLessThanOrEqual(28);
    const row = (await review.version(1).boundingBox())!;
    const date = (await review.version(1).locator('.version-date').boundingBox())!;
    expect(date.x + date.width, `version date inside its row at ${width}`).toBeLessThanOrEqual(
      row.x + row.width,
    );
  }
  await captureScreens(app, 'layout-review');
});

test('layout: a preview shows its progress, then plays while it streams', async ({ app }) => {
  test.setTimeout(180_000);
  const samples = new SamplesPage(app);
  const player = new PlayerBar(app);
  // A slow start on the media route, so the waiting state is there to see.
  await app.route('**/media/remote/**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1200));
    // The player may drop a request while it is held (a new range, a pause): nothing is left to continue then.
    await route.continue().catch(() => undefined);
  });
  await samples.goto();
  await samples.searchWith({});
  await expect(samples.cards.first()).toBeVisible();
  const name = (await samples.cardName(0).textContent())!.trim();
  const button = samples.cards.first().getByTestId('sample-play');
  await button.click();
  await expect(button).toHaveAttribute('aria-busy', 'true');
  await expect(app.getByTestId('player-bar-waveform-progress')).toBeVisible();
  await expect(button).toBeEnabled();
  await player.expectPlaying(name);
  await expect(button).toHaveAttribute('aria-busy', 'false');
  await expect(app.getByTestId('player-bar-waveform-progress')).toBeHidden();
  // Paused for the record: a playing bar redraws every frame.
  await player.togglePlay();
  await expect(player.waveform).not.toHaveAttribute('data-state', 'playing');
  await app.unroute('**/media/remote/**');
  await captureScreens(app, 'layout-samples');
  await player.stop();
});

test('layout: the menu shortcuts work in browser mode (Ctrl+[ / ] versions, Ctrl+Enter approves)', async ({
  app,
  sandbox,
  session,
}) => {
  const { project, deliverables } = await deliveredVoiceOver(sandbox, { title: uniqueTitle('E2E keys') });
  const id = deliverables[0]!.id;
  await sandbox.api('POST', `/revisions/${id}`, { instructions: 'Once more, warmer.' });
  await sandbox.deliver(project.id);
  const review = new ReviewPage(app);
  await review.goto(session.appUrl, id, project.id);
  await expect(review.version(2)).toHaveAttribute('aria-pressed', 'true');
  await app.keyboard.press('Control+BracketLeft');
  await expect(review.version(1)).toHaveAttribute('aria-pressed', 'true');
  await app.keyboard.press('Control+BracketRight');
  await expect(review.version(2)).toHaveAttribute('aria-pressed', 'true');
  await app.keyboard.press('Control+Enter');
  await review.expectStatus('approved');
});
