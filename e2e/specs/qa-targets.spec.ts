import { captureScreens, expect, test } from '../fixtures';
import { LibraryPage } from '../pages/library-page';
import { ReviewPage } from '../pages/review-page';
import { deliveredRadioAndPodcast } from '../support/purpose-pair';

const SCRIPT = ['Fresh bread every morning, delivered warm to your door by the corner bakery.'];

test('QA: each project checks against its purpose, badges name the target, a changed target stays with its project', async ({
  app,
  sandbox,
  session,
}) => {
  test.setTimeout(300_000);
  const { radio, podcast } = await deliveredRadioAndPodcast(sandbox, 'E2E QA', SCRIPT);
  const review = new ReviewPage(app);
  const source = app.getByTestId('qa-target-source');

  // A radio ad is checked against EBU R128, and the sandbox's creative mastered it there.
  await review.goto(session.appUrl, radio.deliverables[0]!.id, radio.project.id);
  await review.qaDownload.click();
  await expect(review.qaVerdict).toHaveText('-23 LUFS EBU R128: pass', { timeout: 60_000 });
  await expect(review.qaTarget).toHaveValue('ebu-r128');
  await expect(source).toHaveAttribute('data-source', 'purpose');

  // A podcast against -16 LUFS.
  await review.goto(session.appUrl, podcast.deliverables[0]!.id, podcast.project.id);
  await review.qaDownload.click();
  await expect(review.qaVerdict).toHaveText('-16 LUFS podcast and online: pass', { timeout: 60_000 });
  await expect(review.qaVerdict).toHaveAttribute('data-pass', 'true');
  await expect(review.qaTarget).toHaveValue('podcast');
  await captureScreens(app, 'qa-targets');

  // The producer checks the podcast against broadcast: it fails, and says against what and by how much.
  await review.setQaTarget('ebu-r128');
  await expect(review.qaVerdict).toHaveText(/^fails EBU R128 -23: -1[5-7]\.\d LUFS$/);
  await expect(source).toHaveAttribute('data-source', 'chosen');

  // Remembered after a reload, for that project only.
  await app.reload();
  await review.expectLoaded();
  await expect(review.qaTarget).toHaveValue('ebu-r128');
  await expect(source).toHaveAttribute('data-source', 'chosen');
  await review.goto(session.appUrl, radio.deliverables[0]!.id, radio.project.id);
  await expect(review.qaTarget).toHaveValue('ebu-r128');
  await expect(source).toHaveAttribute('data-source', 'purpose');

  // The library checks each project's files against that project's target.
  const library = new LibraryPage(app);
  await library.goto(session.appUrl);
  await expect(library.qaBadge(library.itemsOf(radio.project.id, 'wav').first())).toHaveText(
    '-23 LUFS EBU R128: pass',
  );
  await expect(library.qaBadge(library.itemsOf(podcast.project.id, 'wav').first())).toHaveText(
    /^fails EBU R128 -23: -1[5-7]\.\d LUFS$/,
  );
});
