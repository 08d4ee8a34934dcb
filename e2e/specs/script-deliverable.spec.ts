import { expect, expectAccessible, screenshot, test } from '../fixtures';
import { ProjectPage } from '../pages/project-page';
import { ReviewPage } from '../pages/review-page';
import { createAudioAd, deliverablesOf, uniqueTitle } from '../support/setup';

test('script deliverable: its text is shown and the PDF can be opened', async ({ app, sandbox }) => {
  const project = await createAudioAd(sandbox, uniqueTitle('E2E script'));
  await sandbox.deliver(project.id);
  const script = (await deliverablesOf(sandbox, project.id)).find(
    (d) => d.serviceSubCategory === 'scriptwriting',
  )!;

  const projectPage = new ProjectPage(app);
  const review = new ReviewPage(app);
  await projectPage.goto(project.id);
  await projectPage.deliverable(script.id).getByTestId('deliverable-review-link').click();
  await review.expectLoaded();
  await expect(review.script).toBeVisible();
  await expect(review.scriptContent).toContainText(script.urls.content!.slice(0, 40));
  await expect(review.waveform).toHaveCount(0);
  await expect(review.openPdf).toBeVisible();
  const href = await review.openPdf.getAttribute('href');
  expect(href).toBeTruthy();
  const pdf = await app.request.get(new URL(href!, app.url()).toString());
  expect(pdf.ok()).toBe(true);
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await screenshot(app, 'review-script');
  await expectAccessible(app, 'review (script)');
});
