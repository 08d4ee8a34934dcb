/**
 * Budgets of issue 6 item 10, measured in the e2e run, printed as `BUDGET <name> <value> <unit> (limit <n>)`,
 * and asserted. Named to run last: it fills the Sandbox user's account with 10,000 projects.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from '../fixtures';
import { DownloadsPage } from '../pages/downloads-page';
import { ProjectsPage } from '../pages/projects-page';
import { ReviewPage } from '../pages/review-page';
import { createVoiceOver, deliverablesOf, scriptOf, uniqueTitle } from '../support/setup';

function report(name: string, value: number, unit: string, limit: number): void {
  console.log(`BUDGET ${name} ${value.toFixed(1)} ${unit} (limit ${limit})`);
}

test('renderer initial JavaScript is at most 120 KB gzipped', () => {
  const dir = join(import.meta.dirname, '..', '..', 'out', 'renderer');
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const entry = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]!);
  const preloads = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
  expect(entry).toHaveLength(1);
  const files = [...new Set([...entry, ...preloads])];
  const bytes = files.reduce(
    (sum, src) => sum + gzipSync(readFileSync(join(dir, src.replace(/^\.?\//, '')))).length,
    0,
  );
  console.log(`initial scripts: ${files.join(', ')}`);
  report('renderer-initial-js-gzip', bytes / 1024, 'KB', 120);
  expect(bytes / 1024).toBeLessThanOrEqual(120);
});

test('first waveform paint of a 10-minute deliverable, after its peaks exist, is under 150 ms', async ({
  app,
  sandbox,
  session,
}) => {
  test.setTimeout(180_000);
  // ~1500 words at 150 wpm: a 10-minute take in one part.
  const project = await createVoiceOver(sandbox, {
    title: uniqueTitle('E2E long take'),
    parts: [scriptOf(1500)],
  });
  await sandbox.deliver(project.id);
  const [take] = await deliverablesOf(sandbox, project.id);
  expect(take).toBeTruthy();

  // Download it so the library computes its peaks.
  const review = new ReviewPage(app);
  await review.goto(session.appUrl, take!.id, project.id);
  await review.qaDownload.click();
  const downloads = new DownloadsPage(app);
  await downloads.goto(session.appUrl);
  await downloads.expectState(downloads.jobsOfFormat('wav').first(), 'done', 120_000);

  // A fresh load of the review screen: peaks from the library, then the first paint.
  await review.goto(session.appUrl, take!.id, project.id);
  // The duration is known once the peaks have loaded (data-placeholder is also 'false' before anything loads).
  const durationOf = async () => Number(await review.waveform.getAttribute('data-duration'));
  await expect.poll(durationOf).toBeGreaterThan(540);
  await expect(review.waveform).toHaveAttribute('data-placeholder', 'false');
  const duration = await durationOf();
  const paint = await review.waitForWaveform();
  await expect.poll(() => review.waitForWaveform()).not.toBeNull();
  const ms = (await review.waitForWaveform()) ?? paint ?? Number.NaN;
  report('waveform-first-paint', ms, 'ms', 150);
  console.log(`(deliverable of ${duration.toFixed(0)} s)`);
  expect(ms).toBeLessThan(150);
});

test('projects list of 10,000: first render under 200 ms from data arrival', async ({
  app,
  sandbox,
  session,
}) => {
  test.setTimeout(240_000);
  const { total: existing } = (await sandbox.api('GET', '/projects?pageSize=1')) as { total: number };
  const wanted = Math.max(0, 10_000 - existing);
  const started = Date.now();
  let next = 0;
  const worker = async () => {
    while (next < wanted) {
      const i = next++;
      await createVoiceOver(sandbox, { title: `Bulk ${String(i).padStart(5, '0')}`, parts: ['Short line.'] });
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  console.log(`created ${wanted} projects in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  // A fresh page load straight onto the projects screen: nothing cached in the renderer.
  await app.goto(`${session.appUrl}#/projects`);
  const projects = new ProjectsPage(app);
  await expect(projects.count).toHaveText(/10,\d{3} projects/);
  await expect(projects.rows.first()).toBeVisible();
  await expect.poll(() => projects.firstRenderMs()).not.toBeNull();
  const render = (await projects.firstRenderMs())!;
  const load = await app.evaluate(
    () => performance.getEntriesByName('projects-first-load', 'measure').at(-1)?.duration ?? null,
  );
  report('projects-first-render', render, 'ms', 200);
  console.log(`(projects-first-load, fetch included: ${load?.toFixed(1)} ms)`);
  expect(render).toBeLessThan(200);

  // Scrolling to the end of 10,000 rows keeps only a window of rows in the DOM.
  await projects.scrollToBottom();
  await expect(projects.rows.last()).toBeVisible();
  expect(await projects.rows.count()).toBeLessThan(80);
});
