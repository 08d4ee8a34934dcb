import type { Page } from '@playwright/test';
import { captureScreens, expect, expectAccessible, screenshot, test } from '../fixtures';
import { NewProjectPage } from '../pages/new-project-page';
import { ProjectPage } from '../pages/project-page';
import { watchCreateRequests } from '../support/create-requests';
import { uniqueTitle } from '../support/setup';

/** The new-project form opened, the project page it lands on, and the create calls it sends from now on. */
async function openForm(app: Page) {
  const form = new NewProjectPage(app);
  const project = new ProjectPage(app);
  const creates = watchCreateRequests(app);
  await form.goto();
  return { form, project, creates };
}

test('voice over: field errors before sending, live word count, quote, lands on the project', async ({
  app,
}) => {
  const { form, project, creates } = await openForm(app);
  await form.category('voice_over');
  await screenshot(app, 'new-project-voice-over');
  await expectAccessible(app, 'new project (voice over)');

  // Client-side validation: an empty title and then a 101-character one are refused at the field, unsent.
  await form.create();
  await expect(form.titleError).not.toBeEmpty();
  await form.title.fill('x'.repeat(101));
  await form.create();
  await expect(form.titleError).toContainText(/100/);
  await expect(form.title).toHaveAttribute('aria-invalid', 'true');
  expect(creates, 'nothing is sent while the form has errors').toEqual([]);

  const title = uniqueTitle('E2E voice over');
  await form.title.fill('');
  await form.fillVoiceOver({
    title,
    script: ['Fresh bread every morning, delivered warm.', 'Order by nine, eat by ten. Visit us today.'],
  });
  await expect(form.titleError).toBeEmpty();
  // Live counts: per part and in total (6 + 9 words), following every keystroke.
  await expect(app.getByTestId('script-part-count').nth(0)).toHaveText('6 words');
  await expect(app.getByTestId('script-part-count').nth(1)).toHaveText('9 words');
  await expect(form.scriptTotal).toContainText('15');
  await form.scriptPart(1).fill('Order by nine, eat by ten.');
  await expect(app.getByTestId('script-part-count').nth(1)).toHaveText('6 words');
  await expect(form.scriptTotal).toContainText('12');
  const price = await form.quotedPrice();
  expect(price).toMatch(/\d/);

  await form.create();
  await expect(project.title).toHaveText(title);
  expect(creates).toHaveLength(1);
  await expect(project.price).toContainText(price.replace(/[^\d.,]/g, ''));
  await expect(project.services).toHaveCount(1);
  const service = project.services.first();
  await expect(service).toHaveAttribute('data-sub-category', 'voice_over');
  await expect(service).toContainText('12 words');
  await expect(service).toContainText(/\d+\.\d\d/);
  await expect(project.deliverablesEmpty).toBeVisible();
  await screenshot(app, 'project-new');
  await expectAccessible(app, 'project');
});

test('audio ad: all three services, tone sliders, exclusive music choice, lands on the project', async ({
  app,
}) => {
  const { form, project } = await openForm(app);
  const title = uniqueTitle('E2E audio ad');
  await form.fillAudioAd({ title, seconds: 30, music: 'library' });

  // Tone sliders move and say where they are.
  const slider = app.locator('[data-testid^="tone-"][type="range"]').first();
  await slider.fill('3');
  await expect(slider).toHaveValue('3');
  await expect(slider).toHaveAttribute('aria-valuetext', /3 toward/);

  // Music: one choice at a time. Library track -> own file -> pro selects; each hides the others' inputs.
  await expect(form.tracks().first()).toBeVisible();
  await form.tracks().first().check();
  await form.music('own');
  await expect(form.tracks()).toHaveCount(0);
  await expect(app.getByTestId('music-own-file')).toBeVisible();
  await app.getByTestId('music-own-file').fill('https://example.com/music.mp3');
  await form.music('library');
  await expect(app.getByTestId('music-own-file')).toHaveCount(0);
  await expect(form.tracks().first()).toBeVisible();
  await expect(app.getByTestId('music-mode-own')).not.toBeChecked();
  await form.tracks().first().check();
  await expect(app.getByTestId('music-mode-library')).toBeChecked();
  await expect(app.getByTestId('music-mode-pro')).not.toBeChecked();

  await expect(app.getByTestId('np-section-scriptwriting')).toBeVisible();
  await expect(app.getByTestId('np-section-ads-voice-over')).toBeVisible();
  await expect(app.getByTestId('np-section-post-production')).toBeVisible();
  const price = await form.quotedPrice();
  expect(price).toMatch(/\d/);
  await screenshot(app, 'new-project-audio-ads');
  await expectAccessible(app, 'new project (audio ads)');

  await form.create();
  await expect(project.title).toHaveText(title);
  await expect(project.services).toHaveCount(3);
  for (const sub of ['scriptwriting', 'voice_over', 'post-production']) {
    const row = project.services.and(app.locator(`[data-sub-category="${sub}"]`));
    await expect(row).toContainText(/\d+\.\d\d/);
    await expect(row).toContainText(/\d+ (words|seconds)/);
  }
  await expect(project.price).toContainText(price.replace(/[^\d.,]/g, ''));
});

test('the form names the fields it still needs, and takes the producer to the first', async ({ app }) => {
  test.setTimeout(240_000);
  const form = new NewProjectPage(app);
  await form.goto();
  await form.category('voice_over');

  // Beside the price: which fields, not "the required fields".
  const missing = app.getByTestId('np-missing');
  await expect(form.quoteIncomplete).toContainText('To see the price, fill in');
  await expect(missing).toHaveText(/^Title, .*Gender and age.*Script/);
  await missing.click();
  await expect(form.title).toBeFocused();
  await expect(form.title).toHaveAttribute('aria-invalid', 'true');
  await captureScreens(app, 'new-project-missing');

  // After a create attempt, the count names them too; a field filled in leaves the list.
  await form.create();
  await expect(form.hasErrors).toHaveText(/Fix the \d fields marked in red: Title, .*Script\./);
  await form.title.fill(uniqueTitle('E2E names'));
  await expect(missing).not.toContainText('Title');
  await expect(form.hasErrors).not.toContainText('Title');
});

test('an audio ad without script writing takes a multi-line script for the voice', async ({
  app,
  sandbox,
}) => {
  test.setTimeout(240_000);
  const { form, project } = await openForm(app);
  await form.category('audio_ads');
  const title = uniqueTitle('E2E own ad script');
  await form.title.fill(title);
  await app.getByTestId('np-with-scriptwriting').uncheck();
  const script = app.getByTestId('np-avo-script');
  await expect(script).toBeVisible();
  // Required now that nobody writes it: named beside the price.
  await expect(app.getByTestId('np-missing')).toContainText('Script (Voice over)');
  await script.fill('Spring sale at the corner bakery.\nEverything half price.\nThis weekend only.');
  await form.pickFirst('np-avo-language');
  await form.pickFirst('np-avo-gender');
  await app.getByTestId('np-pp-seconds').fill('30');
  await form.music('pro');
  await expect(form.quotePrice).toHaveAttribute('data-state', 'ready');
  await captureScreens(app, 'new-project-own-ad-script');
  await form.create();
  await expect(project.title).toHaveText(title);

  // The service has the script as written, line breaks kept, on the voice over.
  const created = (await sandbox.api('GET', `/projects/${await project.id()}`)) as {
    services: Array<{ subCategory: string; script?: unknown }>;
  };
  expect(created.services.find((s) => s.subCategory === 'voice_over')?.script).toEqual([
    { part001: 'Spring sale at the corner bakery.\nEverything half price.\nThis weekend only.' },
  ]);
});

test('an order says what its price is made of and asks before paying it; test and fake are explained (issue 26 item 6)', async ({
  app,
}) => {
  const { form, project, creates } = await openForm(app);
  await expect(app.locator('#np-options-hint')).toContainText('does not say what they change');
  const title = uniqueTitle('E2E priced order');
  await form.fillVoiceOver({ title, script: ['Fresh bread every morning, delivered warm to your door.'] });
  const price = await form.quotedPrice();

  // The quote's lines, labelled: the voice over with the words it was priced for, then the total.
  const lines = app.getByTestId('np-quote-line');
  await expect(lines).toHaveCount(1);
  await expect(lines.first()).toContainText('Voice over');
  await expect(lines.first()).toContainText('9 words');
  await expect(app.getByTestId('np-quote-lines')).toContainText(`Total, speedy${price}`);
  await expect(app.getByTestId('np-quote-note')).toContainText('does not say how they are built');
  await captureScreens(app, 'new-project-quote');

  // Asked first, with the amount; cancelling sends nothing.
  await form.submit.click();
  await expect(form.orderDialog).toContainText(`Order for ${price}?`);
  await expect(form.orderDialog).toContainText(`The service charges its quote, ${price} (speedy)`);
  await captureScreens(app, 'new-project-order-confirmation');
  await app.getByTestId('np-confirm-cancel').click();
  await expect(form.orderDialog).toBeHidden();
  expect(creates).toEqual([]);

  await form.create();
  await expect(project.title).toHaveText(title);
  expect(creates).toHaveLength(1);
});

test('music library: the first play of a track starts at once (the sandbox streams it as it is made)', async ({
  app,
}) => {
  const form = new NewProjectPage(app);
  await form.goto();
  await form.category('audio_ads');
  await form.music('library');
  // From the click on a track's play button to its audio element's `playing` event, measured in the page.
  await app.evaluate(() => {
    const w = window as unknown as { clickedAt: number; startTimes: number[] };
    w.startTimes = [];
    document.addEventListener(
      'click',
      (event) => {
        if ((event.target as Element).closest('[data-testid="music-track-play"]'))
          w.clickedAt = performance.now();
      },
      true,
    );
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      const clickedAt = w.clickedAt;
      this.addEventListener('playing', () => w.startTimes.push(performance.now() - clickedAt), {
        once: true,
      });
      return play.call(this);
    };
  });
  // The last three tracks: no other spec plays them, so each mp3 is made on this request.
  const buttons = form.trackPlayButtons();
  const count = await buttons.count();
  for (let i = count - 3; i < count; i++) {
    const play = buttons.nth(i);
    await expect(play).toBeVisible();
    await play.click();
    await expect(play).toHaveAttribute('aria-pressed', 'true', { timeout: 10_000 });
    await play.click();
    await expect(play).toHaveAttribute('aria-pressed', 'false');
  }
  const times = await app.evaluate(() => (window as unknown as { startTimes: number[] }).startTimes);
  expect(times).toHaveLength(3);
  // The median of three: one play slowed by the load of the machine does not decide it. The sandbox encodes the
  // track as it streams and Chromium starts once some of it is in: medians of 0.4-0.5 s on this 2-core machine at a
  // load of 2, 0.7-1.2 s when other test runs shared it (load 10-15). Each run prints its times.
  const median = [...times].sort((a, b) => a - b)[1]!;
  const said = `click to playing: ${times.map((t) => Math.round(t)).join(', ')} ms`;
  console.log(`music first play, ${said}`);
  expect(median, said).toBeLessThan(1_000);
});
