import type { BrowserWindow } from 'electron';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileResponse } from '../../../http/file-response';

/** Launch switch of the packaged-app smoke test (workflows): `Takedesk --smoke-test`. */
export const SMOKE_TEST_FLAG = '--smoke-test';

/** The prefix of every line the smoke test prints (scripts/smoke-packaged.ts reads them). */
export const SMOKE_LINE = 'takedesk smoke:';

/** The MP3 the checks decode in a worker and read back through the media protocol. */
export const SMOKE_MEDIA_URL = 'takedesk-media://smoke/probe.mp3';

/** The steps in the order they run and print (the last, `quit`, stops the services). */
export const SMOKE_STEP_NAMES = ['window', 'ipc', 'sandbox', 'database', 'worker', 'media', 'quit'] as const;

/** One check: resolves with what it saw, or throws with why not. */
export interface SmokeStep {
  name: string;
  run(): Promise<string>;
}

/** What only the services behind the edge can check (built in services.ts). */
export interface SmokeProbes {
  /** Starts the embedded sandbox (in Electron, a utility process) and asks it for the projects list. */
  sandbox(): Promise<string>;
  /** Decodes an MP3 in a worker thread (the wasm decoder; inside app.asar in a packaged app). */
  decodeMp3(path: string): Promise<string>;
}

/**
 * Runs the steps in order, printing one line each, and stops at the first that fails or takes longer than
 * `stepTimeoutMs`. Resolves 0 when all passed, 1 otherwise.
 */
export async function runSmokeSteps(
  steps: readonly SmokeStep[],
  print: (line: string) => void,
  stepTimeoutMs = 60_000,
): Promise<0 | 1> {
  for (const step of steps) {
    let timer: NodeJS.Timeout | undefined;
    try {
      const seen = await Promise.race([
        step.run(),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${stepTimeoutMs} ms`)), stepTimeoutMs);
        }),
      ]);
      print(`${SMOKE_LINE} ok ${step.name}: ${seen}`);
    } catch (error) {
      print(`${SMOKE_LINE} FAILED ${step.name}: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    } finally {
      clearTimeout(timer);
    }
  }
  return 0;
}

/** The renderer asks main for `app.info` through the preload: a real IPC round trip from the loaded page. */
const ROUND_TRIP = `window.takedesk.app.info().then((r) => r.ok === true && r.value.name === 'Takedesk')`;

/** The page reads 1 KiB of the probe MP3 through the media protocol with a Range request, as wavesurfer does. */
const RANGED_FETCH = `fetch(${JSON.stringify(SMOKE_MEDIA_URL)}, { headers: { Range: 'bytes=0-1023' } }).then(
  async (r) => ({ status: r.status, bytes: (await r.arrayBuffer()).byteLength, range: r.headers.get('content-range') }),
)`;

/**
 * The checks of a packaged app, in the order a producer's first minute needs them: the window loads, the page
 * reaches main over IPC, the sandbox's process answers, the local database opens, a worker decodes an MP3 with
 * the bundled wasm, and the page reads that MP3 through the media protocol with a Range request.
 */
export function smokeSteps(deps: {
  win: Pick<BrowserWindow, 'webContents'>;
  /** Resolves when the window finished loading, rejects when it failed to. */
  loaded: Promise<string>;
  probes: SmokeProbes;
  /** A fresh folder for the probe's files (the MP3, the database). */
  workDir: string;
}): SmokeStep[] {
  const mp3 = join(deps.workDir, 'probe.mp3');
  return [
    { name: 'window', run: () => deps.loaded },
    {
      name: 'ipc',
      run: async () => {
        const ok: unknown = await deps.win.webContents.executeJavaScript(ROUND_TRIP, true);
        if (ok !== true) throw new Error('app.info did not answer ok through the preload');
        return 'app.info answered through the preload';
      },
    },
    { name: 'sandbox', run: () => deps.probes.sandbox() },
    { name: 'database', run: () => probeDatabase(deps.workDir) },
    {
      name: 'worker',
      run: async () => {
        await writeFile(mp3, await encodeProbeMp3());
        return deps.probes.decodeMp3(mp3);
      },
    },
    {
      name: 'media',
      run: async () => {
        const answer = (await deps.win.webContents.executeJavaScript(RANGED_FETCH, true)) as {
          status: number;
          bytes: number;
          range: string | null;
        };
        if (answer.status !== 206 || answer.bytes !== 1024)
          throw new Error(
            `a ranged fetch answered ${answer.status} with ${answer.bytes} bytes (want 206, 1024)`,
          );
        return `fetch() read a 206 (${answer.range ?? 'no Content-Range'}) from ${SMOKE_MEDIA_URL}`;
      },
    },
  ];
}

/** Serves the probe MP3 (`takedesk-media://smoke/probe.mp3`) with the same ranged file answer as library media. */
export function smokeMedia(workDir: string): (request: Request) => Promise<Response> {
  return async (request) =>
    new URL(request.url).pathname === '/probe.mp3'
      ? fileResponse(request, join(workDir, 'probe.mp3'), { contentType: 'audio/mpeg' })
      : new Response('Not found', { status: 404 });
}

/** Opens a SQLite database with `node:sqlite` (built into Electron's Node), in WAL mode, writes, reads, checks. */
export async function probeDatabase(dir: string): Promise<string> {
  const { DatabaseSync } = await import('node:sqlite');
  const file = join(dir, 'probe.sqlite');
  const db = new DatabaseSync(file);
  try {
    const mode = db.prepare('PRAGMA journal_mode = WAL').get() as { journal_mode: string };
    db.exec('CREATE TABLE probe (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    db.prepare('INSERT INTO probe (key, value) VALUES (?, ?)').run('take', 'approved');
    const row = db.prepare('SELECT value FROM probe WHERE key = ?').get('take') as
      { value: string } | undefined;
    const check = db.prepare('PRAGMA quick_check').get() as { quick_check: string };
    const version = db.prepare('SELECT sqlite_version() AS v').get() as { v: string };
    if (row?.value !== 'approved') throw new Error('a row written was not read back');
    if (check.quick_check !== 'ok') throw new Error(`quick_check said ${check.quick_check}`);
    return `node:sqlite (SQLite ${version.v}) opened ${file} in ${mode.journal_mode} mode, wrote and read a row`;
  } finally {
    db.close();
  }
}

/** One second of a 440 Hz tone as a 128 kbit/s mono MP3, encoded with lamejs (a runtime dependency in the asar). */
export async function encodeProbeMp3(): Promise<Uint8Array> {
  const { Mp3Encoder } = await import('@breezystack/lamejs');
  const rate = 44_100;
  const pcm = new Int16Array(rate);
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 12_000);
  const encoder = new Mp3Encoder(1, rate, 128);
  const parts = [encoder.encodeBuffer(pcm), encoder.flush()];
  return Buffer.concat(parts.map((part) => new Uint8Array(part.buffer, part.byteOffset, part.byteLength)));
}
