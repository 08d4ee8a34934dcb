import { voiceOverService } from '../../electron/sandbox/sample-bodies';
import { captureScreens, expect, test } from '../fixtures';
import { ProjectPage } from '../pages/project-page';
import { ReviewPage } from '../pages/review-page';
import { createAudioAd, deliverablesOf, uniqueTitle, type ProjectInfo } from '../support/setup';

test('context: the project page shows the brief in words; the review shows the script beside the waveform', async ({
  app,
  sandbox,
  session,
}) => {
  // Two screens recorded at two widths in two themes, each checked by axe: slow on a shared machine.
  test.setTimeout(480_000);
  const parts = ['Fresh bread every morning, warm at your door.', 'Order by nine and eat by ten, every day.'];
  const project = (await sandbox.api('POST', '/projects', {
    title: uniqueTitle('E2E brief'),
    mainService: 'voice_over',
    remarks: 'Smile while you read.',
    services: [{ ...voiceOverService(parts), purpose: 'elearning' }],
  })) as ProjectInfo;
  await sandbox.deliver(project.id);
  const deliverables = await deliverablesOf(sandbox, project.id);

  const projectPage = new ProjectPage(app);
  await projectPage.goto(project.id);
  const brief = projectPage.brief;
  await expect(brief.getByTestId('brief-language')).toContainText('English - North America');
  await expect(brief.getByTestId('brief-voice')).toContainText('Young adult female');
  await expect(brief.getByTestId('brief-purpose')).toContainText('E-learning');
  await expect(app.getByTestId('project-meta')).toContainText('Smile while you read.');
  await expect(brief.getByTestId('brief-script-part')).toHaveText([
    /Part 1\s*Fresh bread/,
    /Part 2\s*Order by nine/,
  ]);
  // Words, not the service's ids.
  await expect(brief).not.toContainText(/eng-us|youngAdultFemale|elearning/);
  await captureScreens(app, 'brief-context-project');

  // Review part 2: its own text, beside the waveform at 1440 px and under it at 1024 px (where the waveform takes the
  // width: issue 26 item 10), above the fold at both widths.
  const review = new ReviewPage(app);
  await review.goto(session.appUrl, deliverables.find((d) => d.name === '2')!.id, project.id);
  await expect(review.readAlong.getByTestId('read-along-text')).toHaveText(parts[1]!);
  await expect(review.readAlong.getByTestId('read-along-source')).toHaveText('Part 2 of 2');
  for (const width of [1024, 1440]) {
    await app.setViewportSize({ width, height: 860 });
    const wave = (await review.playerPanel.boundingBox())!;
    const script = (await review.readAlong.boundingBox())!;
    if (width >= 1280) {
      expect(script.x, `script right of the waveform at ${width}`).toBeGreaterThanOrEqual(
        wave.x + wave.width - 1,
      );
      expect(Math.abs(script.y - wave.y), `same row at ${width}`).toBeLessThan(4);
    } else {
      expect(script.y, `script under the waveform at ${width}`).toBeGreaterThanOrEqual(
        wave.y + wave.height - 1,
      );
    }
    expect(script.y + 40, `script above the fold at ${width}`).toBeLessThan(860);
  }
  await captureScreens(app, 'brief-context-review');

  // An audio ad: perspective and music in words on the project page; the voice reads the written script.
  const ad = await createAudioAd(sandbox, uniqueTitle('E2E brief ad'));
  await sandbox.deliver(ad.id);
  await projectPage.goto(ad.id);
  await expect(projectPage.brief.getByTestId('brief-perspective')).toContainText("Pro's choice");
  await expect(projectPage.brief.getByTestId('brief-music')).toContainText('Casual1 (Mood: Casual)');
  const adDeliverables = await deliverablesOf(sandbox, ad.id);
  const written = adDeliverables.find((d) => d.serviceSubCategory === 'scriptwriting')!;
  await review.goto(
    session.appUrl,
    adDeliverables.find((d) => d.serviceSubCategory === 'voice_over')!.id,
    ad.id,
  );
  await expect(review.readAlong.getByTestId('read-along-source')).toHaveText('Written script');
  await expect(review.readAlong.getByTestId('read-along-text')).toHaveText(written.urls.content!.trim());
});
