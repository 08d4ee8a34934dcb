/**
 * Download throughput: our download manager vs `curl -s -o FILE URL`, side by side in one run, both fetching the
 * sandbox's 10-minute 48 kHz / 24-bit stereo WAV (172.8 MB) and its MP3 over loopback to the same disk, over plain
 * HTTP and over HTTPS (the sandbox's HTTPS mode; curl gets `--cacert` with its certificate, ours the same
 * certificate as its only trusted authority, as the Sandbox profile does). The sandbox runs in its own process so
 * neither client shares an event loop with the server.
 *
 *   npx tsx bench/download.ts            (BENCH_RUNS=3, BENCH_SCHEMES=http,https)
 *
 * Ours is the app's wiring: a transfer worker receives and writes each chunk on one thread (as curl does), and a follow
 * worker hashes the same read slots. It includes what curl does not do: sha256 of every byte, the
 * size/ETag checks, the atomic rename and the manifest entry. Like curl (and browsers) it does not wait for an fsync:
 * the data fsync follows the rename in the background (the item stays `unsynced` and is re-verified at the next start
 * if that flush was interrupted). Each run's flush finishes in `downloads.close()`, after the time is taken and
 * before the next run starts. The curl + fsync column stays as a reference for what a synchronous flush costs.
 * Memory is the peak RSS growth of this process during a run, sampled every 50 ms (flat memory = a few MB,
 * independent of size).
 *
 * Second race: the app's own setting, which also measures loudness, true peak and peaks while the file streams in,
 * against curl followed by `ffmpeg -filter_complex ebur128=peak=true` on the downloaded file.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, open, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { DownloadJob, MediaFormat } from '../shared/ipc';
import { createDownloads } from '../electron/main/downloads/queue';
import { leanHttpGet } from '../electron/main/downloads/lean-http';
import { createFollowThreads, type FollowThreads } from '../electron/main/downloads/follow-threads';
import { withRedirects } from '../electron/main/downloads/transport';
import { createTransferThread, type TransferThread } from '../electron/main/downloads/transfer-thread';
import { createLibrary } from '../electron/main/library/library';
import { BENCH_MEDIA, createMediaStore } from '../electron/sandbox/media/media-store';
import { ffmpegLoudness } from './lib/media';
import { markdownTable } from './lib/report';
import { median } from './lib/timing';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
// BENCH_ANALYSIS=0 skips the download + loudness race.
const ANALYSIS = process.env.BENCH_ANALYSIS !== '0';
const SCHEMES = (process.env.BENCH_SCHEMES ?? 'http,https').split(',') as Array<'http' | 'https'>;
const root = fileURLToPath(new URL('..', import.meta.url));

interface Sample {
  seconds: number;
  /** The library item's analysis, when the run analysed while streaming. */
  integratedLufs?: number | null;
  /** Until the last byte was written (before the checks, rename and manifest entry), ours only. */
  transferSeconds?: number;
  rssDeltaMb?: number;
}

/** One sandbox: where it listens, and for HTTPS its certificate (as PEM, and as a file for curl's --cacert). */
interface Server {
  proc: ChildProcess;
  url: string;
  ca?: string;
  caFile?: string;
}

async function startSandbox(dataDir: string, https: boolean): Promise<Server> {
  const proc = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(root, 'electron/sandbox/cli.ts'),
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--delivery',
      'manual',
      ...(https ? ['--https'] : []),
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`sandbox exited (${code})`)));
    createInterface({ input: proc.stdout! }).once('line', resolve);
  });
  const { url, certificate } = JSON.parse(line) as { url: string; certificate?: string };
  if (!certificate) return { proc, url };
  const caFile = join(dataDir, 'bench-ca.pem');
  await writeFile(caFile, certificate);
  return { proc, url, ca: certificate, caFile };
}

function flushDisk() {
  // Start every run with no dirty pages from the previous one, so neither client pays for the other's writeback.
  spawnSync('sync');
}

/**
 * `durable`: curl, then `sync FILE` (fsync of that file) inside the timing, a reference for a synchronous flush
 * (ours flushes in the background after the rename); plain curl leaves the bytes in the page cache.
 */
async function runCurl(server: Server, url: string, file: string, durable = false): Promise<Sample> {
  flushDisk();
  const t0 = performance.now();
  await new Promise<void>((resolve, reject) => {
    const proc = spawn('curl', curlArgs(server, url, file), { stdio: 'ignore' });
    proc.once('error', reject);
    proc.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`curl exited ${code}`))));
  });
  if (durable) spawnSync('sync', [file]);
  const seconds = (performance.now() - t0) / 1000;
  await rm(file, { force: true });
  return { seconds };
}

const curlArgs = (server: Server, url: string, file: string) => [
  '-s',
  ...(server.caFile ? ['--cacert', server.caFile] : []),
  '-o',
  file,
  url,
];

/** The sequential way to the same result: curl the file, then measure it with ffmpeg's ebur128 (true peak on). */
async function runCurlThenFfmpeg(server: Server, url: string, file: string): Promise<Sample> {
  flushDisk();
  const t0 = performance.now();
  spawnSync('curl', curlArgs(server, url, file));
  const loudness = await ffmpegLoudness(file);
  const seconds = (performance.now() - t0) / 1000;
  await rm(file, { force: true });
  return { seconds, integratedLufs: loudness.integratedLufs };
}

/** Our transfer path alone — lean HTTP reader, direct body, positional writes — with no checksum, fsync or rename. */
async function runTransferPath(server: Server, url: string, file: string): Promise<Sample> {
  flushDisk();
  const t0 = performance.now();
  const handle = await open(file, 'w');
  try {
    const response = await leanHttpGet(url, {
      headers: {},
      signal: new AbortController().signal,
      ...(server.ca ? { ca: server.ca } : {}),
    });
    const result = await response.pump({ handle, position: 0, onBytes: () => undefined });
    if (result.networkError) throw result.networkError;
  } finally {
    await handle.close();
  }
  const seconds = (performance.now() - t0) / 1000;
  await rm(file, { force: true });
  return { seconds };
}

async function runOurs(
  server: Server,
  url: string,
  work: string,
  format: MediaFormat,
  app: AppTransport,
): Promise<Sample> {
  const libraryDir = join(work, 'library');
  await mkdir(libraryDir, { recursive: true });
  let verifyingAt = 0;
  let settle: (job: DownloadJob) => void = () => undefined;
  const finished = new Promise<DownloadJob>((resolve) => (settle = resolve));
  const library = createLibrary({ dir: () => libraryDir });
  const downloads = createDownloads({
    library,
    resolve: async () => ({
      url,
      ...(server.ca ? { ca: server.ca } : {}),
      projectId: 'bench-project',
      projectTitle: 'Bench',
      serviceSubCategory: 'post-production',
      deliverableName: 'ten minutes',
      version: 1,
      orderedSeconds: null,
    }),
    emit: (event, payload) => {
      if (event !== 'downloads.changed') return;
      const job = payload as DownloadJob;
      if (job.state === 'verifying') verifyingAt = performance.now();
      if (job.state === 'done' || job.state === 'failed') settle(job);
    },
    stateFile: join(work, 'downloads.json'),
    concurrency: () => 1,
    follow: app.follow,
    fetchImpl: withRedirects(app.http),
  });
  await downloads.ready();
  flushDisk();
  global.gc?.();
  const base = process.memoryUsage.rss();
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);
  const t0 = performance.now();
  await downloads.start({ deliverableId: `bench-${format}`, projectId: 'bench-project', format });
  const job = await finished;
  const item = job.libraryId ? await library.get(job.libraryId) : null;
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  if (job.state !== 'done') throw new Error(`download failed: ${JSON.stringify(job.error)}`);
  // Outside the timing: waits for the background data flush, so it does not overlap the next run.
  await downloads.close();
  await rm(work, { recursive: true, force: true });
  return {
    seconds,
    transferSeconds: (verifyingAt - t0) / 1000,
    rssDeltaMb: (peak - base) / 1e6,
    integratedLufs: item?.analysis?.integratedLufs ?? null,
  };
}

/** As the app wires it: follow workers, and a transfer worker that receives and writes on their shared slots. */
interface AppTransport {
  follow: FollowThreads;
  http: TransferThread;
}
function appTransport(analyze: boolean): AppTransport {
  const follow = createFollowThreads({ analyze });
  return { follow, http: createTransferThread({ slots: follow.readBuffers }) };
}

// Checksum only for the throughput race (curl computes nothing); the app's own setting, analysis while streaming,
// races curl + ffmpeg below.
const checksumOnly = appTransport(false);
const analysing = appTransport(true);

async function main() {
  const dataDir = join(tmpdir(), 'takedesk-bench-download');
  const store = createMediaStore({ dir: join(dataDir, 'media') });
  const descriptors = { wav: BENCH_MEDIA, mp3: { ...BENCH_MEDIA, format: 'mp3' as const } };
  process.stderr.write('Preparing the benchmark media (generated once, then cached)...\n');
  const files = {
    wav: { key: store.mediaKey(descriptors.wav), file: await store.ensure(descriptors.wav) },
    mp3: { key: store.mediaKey(descriptors.mp3), file: await store.ensure(descriptors.mp3) },
  };
  const out = await mkdtemp(join(tmpdir(), 'takedesk-bench-dl-'));
  const rows: string[][] = [];
  const analysisRows: string[][] = [];
  const summary: Record<string, { ratio: number; durableRatio: number; rss: number }> = {};
  const servers: Server[] = [];
  try {
    for (const scheme of SCHEMES) {
      const server = await startSandbox(dataDir, scheme === 'https');
      servers.push(server);
      for (const format of ['wav', 'mp3'] as const) {
        const label = `${format} ${scheme.toUpperCase()}`;
        const mediaUrl = `${server.url}/media/${files[format].key}.${format}`;
        const size = (await stat(files[format].file.path)).size;
        const mb = size / 1e6;
        // Warm-up: the server's file cache and both clients' code paths.
        await runCurl(server, mediaUrl, join(out, `warm.${format}`));
        await runOurs(server, mediaUrl, join(out, 'warm'), format, checksumOnly);
        const curl: Sample[] = [];
        const curlDurable: Sample[] = [];
        const ours: Sample[] = [];
        const path: Sample[] = [];
        for (let i = 0; i < RUNS; i++) {
          path.push(await runTransferPath(server, mediaUrl, join(out, `path.${format}`)));
          // Alternate the order so drift in machine load does not favour one side.
          if (i % 2 === 0) {
            curl.push(await runCurl(server, mediaUrl, join(out, `curl.${format}`)));
            curlDurable.push(await runCurl(server, mediaUrl, join(out, `curl.${format}`), true));
            ours.push(await runOurs(server, mediaUrl, join(out, `ours-${i}`), format, checksumOnly));
          } else {
            ours.push(await runOurs(server, mediaUrl, join(out, `ours-${i}`), format, checksumOnly));
            curlDurable.push(await runCurl(server, mediaUrl, join(out, `curl.${format}`), true));
            curl.push(await runCurl(server, mediaUrl, join(out, `curl.${format}`)));
          }
          process.stderr.write(
            `${label} run ${i + 1}: curl ${(mb / curl[i]!.seconds).toFixed(0)} MB/s, ` +
              `curl+fsync ${(mb / curlDurable[i]!.seconds).toFixed(0)} MB/s, ours ${(mb / ours[i]!.seconds).toFixed(0)} MB/s ` +
              `(transfer ${(mb / ours[i]!.transferSeconds!).toFixed(0)} MB/s), RSS +${ours[i]!.rssDeltaMb!.toFixed(1)} MB\n`,
          );
        }
        const curlMbps = median(curl.map((s) => mb / s.seconds));
        const durableMbps = median(curlDurable.map((s) => mb / s.seconds));
        const oursMbps = median(ours.map((s) => mb / s.seconds));
        const transferMbps = median(ours.map((s) => mb / s.transferSeconds!));
        const pathMbps = median(path.map((s) => mb / s.seconds));
        const rss = Math.max(...ours.map((s) => s.rssDeltaMb!));
        summary[label] = { ratio: oursMbps / curlMbps, durableRatio: oursMbps / durableMbps, rss };
        rows.push([
          `${label} (${mb.toFixed(1)} MB)`,
          curl.map((s) => (mb / s.seconds).toFixed(0)).join(' / '),
          ours.map((s) => (mb / s.seconds).toFixed(0)).join(' / '),
          curlMbps.toFixed(0),
          durableMbps.toFixed(0),
          oursMbps.toFixed(0),
          transferMbps.toFixed(0),
          `${pathMbps.toFixed(0)} (${(pathMbps / curlMbps).toFixed(2)}x)`,
          `${(oursMbps / curlMbps).toFixed(2)}x`,
          `${(oursMbps / durableMbps).toFixed(2)}x`,
          `${rss.toFixed(1)} MB`,
        ]);

        // Download and measure: ours analyses while the bytes stream in; the sequential reference downloads with
        // curl, then runs ffmpeg's ebur128 over the file.
        if (!ANALYSIS) continue;
        await runOurs(server, mediaUrl, join(out, 'warm'), format, analysing);
        const sequential: Sample[] = [];
        const streamed: Sample[] = [];
        for (let i = 0; i < RUNS; i++) {
          if (i % 2 === 0) {
            sequential.push(await runCurlThenFfmpeg(server, mediaUrl, join(out, `seq.${format}`)));
            streamed.push(await runOurs(server, mediaUrl, join(out, `ours-a${i}`), format, analysing));
          } else {
            streamed.push(await runOurs(server, mediaUrl, join(out, `ours-a${i}`), format, analysing));
            sequential.push(await runCurlThenFfmpeg(server, mediaUrl, join(out, `seq.${format}`)));
          }
          if (streamed[i]!.integratedLufs == null) throw new Error('the streamed download has no analysis');
          process.stderr.write(
            `${format} analysis run ${i + 1}: curl+ffmpeg ${sequential[i]!.seconds.toFixed(2)} s ` +
              `(${sequential[i]!.integratedLufs!.toFixed(1)} LUFS), ours ${streamed[i]!.seconds.toFixed(2)} s ` +
              `(${streamed[i]!.integratedLufs!.toFixed(1)} LUFS), RSS +${streamed[i]!.rssDeltaMb!.toFixed(1)} MB\n`,
          );
        }
        const seqS = median(sequential.map((x) => x.seconds));
        const oursS = median(streamed.map((x) => x.seconds));
        analysisRows.push([
          `${label} (${mb.toFixed(1)} MB)`,
          sequential.map((x) => x.seconds.toFixed(2)).join(' / '),
          streamed.map((x) => x.seconds.toFixed(2)).join(' / '),
          `${(seqS / oursS).toFixed(2)}x`,
          `${Math.max(...streamed.map((x) => x.rssDeltaMb!)).toFixed(1)} MB`,
        ]);
      }
    }
  } finally {
    for (const app of [checksumOnly, analysing]) {
      await app.http.close();
      await app.follow.close();
    }
    for (const server of servers) server.proc.kill('SIGTERM');
    await rm(out, { recursive: true, force: true });
  }
  console.log(
    markdownTable(
      [
        'file',
        'curl MB/s (runs)',
        'ours MB/s (runs)',
        'curl median',
        'curl + fsync median',
        'ours median',
        'ours until verifying (transfer only)',
        'transfer path alone, no checksum/fsync (vs curl)',
        'ours / curl',
        'ours / (curl + fsync)',
        'ours max RSS Δ',
      ],
      rows,
    ),
  );
  const ratios = (pick: (s: { ratio: number; durableRatio: number }) => number) =>
    Object.entries(summary)
      .map(([label, s]) => `${label} ${pick(s).toFixed(2)}x`)
      .join(', ');
  console.log(
    `\nGoal: >= 0.90x curl with flat memory, over HTTP and HTTPS. ${ratios((s) => s.ratio)} ` +
      `(N=${RUNS}, medians; ours includes sha256 + rename + manifest, curl does neither; the data fsync follows the ` +
      `rename in the background, re-verified at next start if interrupted). Against curl + fsync of ` +
      `its file: ${ratios((s) => s.durableRatio)}.`,
  );
  console.log(
    `\n${markdownTable(
      [
        'download + loudness',
        'curl, then ffmpeg ebur128=peak=true: s (runs)',
        'ours, analysing while streaming: s (runs)',
        'speed-up',
        'ours max RSS Δ',
      ],
      analysisRows,
    )}`,
  );
  console.log(
    '\nOurs also writes the waveform peaks and the sha256 in the same pass; ffmpeg prints loudness only.',
  );
}

await main();
