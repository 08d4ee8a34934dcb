import { readdirSync, statSync } from 'node:fs';
import { extname, join, sep } from 'node:path';
import { captureScreens, expect, expectAccessible, screenshot, test } from '../fixtures';
import { DownloadsPage } from '../pages/downloads-page';
import { LibraryPage } from '../pages/library-page';
import { PlayerBar } from '../pages/player-bar';
import { ProjectPage } from '../pages/project-page';
import { ReviewPage } from '../pages/review-page';
import { createAudioAd, deliverablesOf, deliveredVoiceOver, uniqueTitle } from '../support/setup';

/** Every file under a folder, recursively (the library's own manifest files included). */
function filesUnder(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

test('downloads wav, mp3 and pdf to disk, the library lists them, and plays offline', async ({
  app,
  sandbox,
  session,
}) => {
  test.setTimeout(120_000);
  const title = uniqueTitle('E2E downloads');
  const project = await createAudioAd(sandbox, title);
  await sandbox.deliver(project.id);
  const deliverables = await deliverablesOf(sandbox, project.id);
  const voice = deliverables.find((d) => d.serviceSubCategory === 'voice_over')!;

  // One file from the review screen (the wav behind the QA panel)...
  const review = new ReviewPage(app);
  await review.goto(session.appUrl, voice.id, project.id);
  await review.qaDownload.click();
  const downloads = new DownloadsPage(app);
  await downloads.goto(session.appUrl);
  const wav = downloads.jobsOfFormat('wav').first();
  await downloads.expectState(wav, 'done');

  // ...then everything of the project with "Download all".
  const projectPage = new ProjectPage(app);
  await projectPage.goto(project.id);
  await expect(projectPage.deliverables).toHaveCount(3);
  await projectPage.downloadAllFiles();
  await expect(projectPage.downloadError).toHaveCount(0);
  await downloads.goto(session.appUrl);
  for (const format of ['wav', 'mp3', 'pdf']) {
    const rows = downloads.jobsOfFormat(format);
    await expect(rows.first()).toBeVisible();
    for (const row of await rows.all()) await downloads.expectState(row, 'done');
  }
  const done = downloads.jobs.and(app.locator('[data-state="done"]')).first();
  expect(await downloads.percent(done)).toBe(100);
  await screenshot(app, 'downloads');
  await expectAccessible(app, 'downloads');

  // On disk under the library folder.
  const files = filesUnder(session.libraryDir);
  const byExt = (ext: string) => files.filter((f) => extname(f).toLowerCase() === ext);
  expect(byExt('.wav').length).toBeGreaterThanOrEqual(2);
  expect(byExt('.mp3').length).toBeGreaterThanOrEqual(2);
  expect(byExt('.pdf').length).toBeGreaterThanOrEqual(1);
  for (const f of [...byExt('.wav'), ...byExt('.mp3'), ...byExt('.pdf')])
    expect(statSync(f).size).toBeGreaterThan(0);

  // The library lists them under the project.
  const library = new LibraryPage(app);
  await library.goto(session.appUrl);
  await expect(library.group(project.id)).toBeVisible();
  await expect(library.itemsOf(project.id, 'wav')).toHaveCount(2);
  await expect(library.itemsOf(project.id, 'mp3')).toHaveCount(2);
  await expect(library.itemsOf(project.id, 'pdf')).toHaveCount(1);
  await screenshot(app, 'library');
  await expectAccessible(app, 'library');

  // The service goes away: the library still browses and plays from disk.
  await sandbox.stop();
  try {
    await app.reload();
    await library.root.waitFor();
    await expect(library.group(project.id)).toBeVisible();
    await expect(library.itemsOf(project.id)).toHaveCount(5);
    const player = new PlayerBar(app);
    await library.play(library.itemsOf(project.id, 'wav').first());
    await expect(player.root).toBeVisible();
    await expect(player.waveform).toHaveAttribute('data-state', 'playing');
    await expect
      .poll(async () => Number(await player.waveform.getAttribute('data-current-time')))
      .toBeGreaterThan(0);
    await screenshot(app, 'library-offline');
    await player.stop();
  } finally {
    await sandbox.start();
  }
});

test('the library says each take’s status and shows approved takes only when asked (issue 26 item 8)', async ({
  app,
  sandbox,
  session,
}) => {
  test.setTimeout(120_000);
  const approved = await deliveredVoiceOver(sandbox, { title: uniqueTitle('E2E handed over') });
  const pending = await deliveredVoiceOver(sandbox, { title: uniqueTitle('E2E still in review') });
  const projectPage = new ProjectPage(app);
  const downloads = new DownloadsPage(app);
  for (const { project } of [approved, pending]) {
    await projectPage.goto(project.id);
    await expect(projectPage.deliverables).toHaveCount(
      project === approved.project ? approved.deliverables.length : pending.deliverables.length,
    );
    await projectPage.downloadAllFiles({ formats: ['wav'] });
  }
  await downloads.goto(session.appUrl);
  for (const row of await downloads.jobsOfFormat('wav').all()) await downloads.expectState(row, 'done');
  // The project folders hold only deliverables: the waveform peaks are in the library's hidden sidecar folder.
  const delivered = filesUnder(session.libraryDir).filter((f) => !f.includes(`${sep}.takedesk${sep}`));
  expect(delivered.length).toBeGreaterThanOrEqual(2);
  expect(delivered.filter((f) => f.endsWith('.peaks'))).toEqual([]);
  expect(
    filesUnder(join(session.libraryDir, '.takedesk', 'sidecars')).some((f) => f.endsWith('.wav.peaks')),
  ).toBe(true);
  await projectPage.goto(approved.project.id);
  await projectPage.approveAllConfirmed();
  await expect(projectPage.approveAllError).toHaveCount(0);

  const library = new LibraryPage(app);
  await library.goto(session.appUrl);
  const takes = (projectId: string) => library.itemsOf(projectId).getByTestId('library-take');
  await expect(takes(approved.project.id)).toHaveCount(approved.deliverables.length);
  for (const take of await takes(approved.project.id).all()) await expect(take).toHaveText('Approved');
  for (const take of await takes(pending.project.id).all()) await expect(take).toHaveText('Ready for review');

  await app.getByTestId('library-approved-only').check();
  await expect(library.group(approved.project.id)).toBeVisible();
  await expect(library.group(pending.project.id)).toHaveCount(0);
  await captureScreens(app, 'library-approved-only');
});
