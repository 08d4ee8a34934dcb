/**
 * The app's downloads and library in a process of their own, for the crash-safety test (crash-safety.test.ts):
 * the real services in browser mode against a sandbox the test started, on a data folder and a library folder
 * that outlive this process. It keeps downloading what it is told to want; with `churn` it also removes finished
 * items at random and downloads them again, and asks for waveforms and analyses with links planted at sidecars'
 * names, so that the test's SIGKILL lands in transfers, renames, sidecar and manifest writes alike. Without `churn`
 * it prints "complete" once everything wanted is in the library, and exits.
 *
 * Run: node --import tsx crash-child.ts '<json config>'
 */
import { mkdir, rm, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { DownloadJob, LibraryItem, MediaFormat, Result } from '../../../../shared/ipc';
import { createServices } from '../../app/services';
import { testServicesOptions } from '../../app/test-support/test-world';

interface Config {
  dataDir: string;
  libraryDir: string;
  sandbox: { url: string; token: string };
  wanted: Array<{ deliverableId: string; projectId: string; format: MediaFormat }>;
  seed: number;
  churn: boolean;
  /** A file outside the library: with `churn`, links to it are planted at waveform sidecars' names. */
  outsideFile?: string;
}

const config = JSON.parse(process.argv[2] ?? '{}') as Config;
let state = config.seed >>> 0 || 1;
const random = () => (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;

const services = await createServices({
  ...testServicesOptions(config.dataDir, config.libraryDir),
  version: '0.0.0-crash',
  externalSandbox: config.sandbox,
});

async function value<T>(channel: string, input?: unknown): Promise<T> {
  const result = (await services.router.invoke(channel, input, { transport: 'browser' })) as Result<T>;
  if (!result.ok) throw new Error(`${channel}: ${result.error.type} ${result.error.message}`);
  return result.value;
}

const UNFINISHED = new Set<DownloadJob['state']>(['queued', 'downloading', 'verifying', 'paused', 'failed']);
// Every event goes to the test as a line, so that it can kill this process at a point in the work rather than at
// a wall-clock time (which a busy machine would shift).
services.events.attach((event) => process.stdout.write(`event ${event}\n`));
process.stdout.write('ready\n');

for (;;) {
  const items = await value<LibraryItem[]>('library.list');
  const jobs = await value<DownloadJob[]>('downloads.list');
  let missing = 0;
  for (const want of config.wanted) {
    const have = items.some((i) => i.deliverableId === want.deliverableId && i.format === want.format);
    if (have) continue;
    missing++;
    const job = jobs.find(
      (j) => j.deliverableId === want.deliverableId && j.format === want.format && UNFINISHED.has(j.state),
    );
    if (!job) await value('downloads.start', want);
    else if (job.state === 'failed' || job.state === 'paused')
      await value('downloads.resume', { id: job.id });
  }
  if (config.churn && items.length > 0 && random() < 0.5) {
    // A library write the kill may interrupt: the item leaves, and is downloaded again on the next turn.
    await value('library.remove', { id: items[Math.floor(random() * items.length)]!.id }).catch(
      () => undefined,
    );
  }
  if (config.churn && config.outsideFile && items.length > 0 && random() < 0.3) {
    // Reads of the library that may write (the waveform built again, the analysis remembered), with a link out of
    // the library planted at the sidecar's name: it is replaced, never written through, wherever the kill lands.
    const item = items[Math.floor(random() * items.length)]!;
    const sidecar = `${join(config.libraryDir, '.takedesk', 'sidecars', ...item.relativePath.split('/'))}.peaks`;
    await mkdir(dirname(sidecar), { recursive: true }).catch(() => undefined);
    await rm(sidecar, { force: true }).catch(() => undefined);
    await symlink(config.outsideFile, sidecar).catch(() => undefined);
    await value('library.peaks', { id: item.id }).catch(() => undefined);
    await value('audio.analyze', { id: item.id }).catch(() => undefined);
    await (await services.media.library(item.id, new Request('http://x/'))).arrayBuffer();
  }
  if (!config.churn && missing === 0 && !jobs.some((j) => UNFINISHED.has(j.state) && j.state !== 'failed')) {
    process.stdout.write('complete\n');
    await services.dispose();
    process.exit(0);
  }
  await new Promise((resolve) => setTimeout(resolve, 10 + Math.floor(random() * 30)));
}
