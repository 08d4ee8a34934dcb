import { captureScreens, expect, test } from '../fixtures';
import { LibraryPage } from '../pages/library-page';
import { ProjectPage } from '../pages/project-page';
import { ReviewPage } from '../pages/review-page';
import { createVoiceOver, deliverablesOf, uniqueTitle, type ProjectInfo } from '../support/setup';

/**
 * Background fetch (issue 15, item 11): what becomes ready for review lands in the library by itself, measured as
 * it streams, and a long deliverable's waveform is drawn while it streams in instead of a flat line.
 */
test.describe.configure({ mode: 'serial' });

test.beforeEach(async ({ app }) => {
  // The e2e world starts with it off (other specs count their own downloads); the setting is what turns it on.
  await app.getByTestId('nav-settings').click();
  const toggle = app.getByTestId('settings-background-fetch');
  await toggle.check();
  await expect(toggle).toBeChecked();
});

test.afterEach(async ({ app, sandbox }) => {
  await sandbox.api('POST', '/_sandbox/faults', {});
  await app.getByTestId('nav-settings').click();
  await app.getByTestId('settings-background-fetch').uncheck();
});

test('a delivery appears in the library with its loudness, without a manual download', async ({
  app,
  sandbox,
}) => {
  test.setTimeout(120_000);
  await captureScreens(app, 'settings-background-fetch');
  const project = await createVoiceOver(sandbox, { title: uniqueTitle('E2E background'), parts: ['Hello.'] });
  // On screen, the project is what the watcher looks at first (within its budget).
  const projectPage = new ProjectPage(app);
  await projectPage.goto(project.id);
  await sandbox.deliver(project.id);
  // The watcher notices the delivery (the page shows it): that is when it is fetched, nobody asking.
  await expect(projectPage.deliverables).toHaveCount(1, { timeout: 60_000 });

  const library = new LibraryPage(app);
  await expect(async () => {
    await app.getByTestId('nav-library').click();
    await expect(library.itemsOf(project.id, 'wav')).toHaveCount(1, { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  const row = library.itemsOf(project.id, 'wav');
  // Measured while it streamed: the loudness verdict is there without opening anything.
  await expect(row).toContainText('LUFS');
  await expect(library.qaBadge(row)).toBeVisible();
});

test('a long deliverable opened while it streams in draws its waveform as the peaks arrive', async ({
  app,
  sandbox,
}) => {
  test.setTimeout(480_000);
  const project = (await sandbox.api('POST', '/projects', {
    title: uniqueTitle('E2E long take'),
    mainService: 'audio_ads',
    services: [
      { subCategory: 'voice_over', language: 'eng-us', genderAndAge: 'middleAgeMale' },
      { subCategory: 'post-production', seconds: 300, proSelectsMusic: true },
    ],
  })) as ProjectInfo;
  const projectPage = new ProjectPage(app);
  await projectPage.goto(project.id);
  // A slow link: every media answer stops after 1 MB and comes after 300 ms; the engine resumes each time.
  await sandbox.api('POST', '/_sandbox/faults', {
    resetAfterBytes: 1_000_000,
    latencyMs: 300,
    pathPrefix: '/media/',
  });
  await sandbox.deliver(project.id);
  // The watcher notices the delivery (voice over and the mixed ad) and the background fetch starts.
  await expect(projectPage.deliverables).toHaveCount(2, { timeout: 60_000 });
  const post = (await deliverablesOf(sandbox, project.id)).find(
    (d) => d.serviceSubCategory === 'post-production',
  )!;

  const review = new ReviewPage(app);
  await app.evaluate(`location.hash = ${JSON.stringify(`#/review/${post.id}?projectId=${project.id}`)}`);
  await review.expectLoaded();
  // Not in the library yet: no file peaks, yet the waveform is drawn from what has arrived, and grows.
  await expect(review.waveform).toHaveAttribute('data-placeholder', 'true');
  // The sandbox first synthesises the five-minute mix (slow on a loaded machine), then it streams.
  await expect(app.getByTestId('review-waveform-live')).toBeVisible({ timeout: 180_000 });
  const painted = Number(await review.waveform.getAttribute('data-live-painted'));
  await expect
    .poll(async () => Number(await review.waveform.getAttribute('data-live-painted')), { timeout: 30_000 })
    .toBeGreaterThan(painted);
  await expect(review.waveform).toHaveAttribute('data-duration', /^(299|300)\./);
  await captureScreens(app, 'review-waveform-streaming');

  // Once the file is in the library, its own peaks replace the live drawing.
  await sandbox.api('POST', '/_sandbox/faults', {});
  await expect(review.waveform).toHaveAttribute('data-placeholder', 'false', { timeout: 90_000 });
});
