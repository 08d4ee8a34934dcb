/**
 * The e2e world: a fresh sandbox with manual delivery, and Takedesk in browser mode using it as the Sandbox
 * profile, with data and library in a temp folder (plus, on request, a live-shapes twin: POST /live/start).
 * Prints one JSON line for the specs; exits when stdin closes. TAKEDESK_E2E_HTTPS=1 serves the sandbox over HTTPS:
 * the Sandbox profile trusts its certificate (and nothing else does); browser mode's own bridge stays plain HTTP.
 */
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSandbox, type Sandbox } from '../electron/sandbox/server';
import { startBrowserMode } from '../electron/main/app/browser-mode';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'takedesk-e2e-'));
const sandboxDir = join(work, 'sandbox');
const dataDir = join(work, 'data');
const libraryDir = join(work, 'Library');

const https = process.env.TAKEDESK_E2E_HTTPS === '1';
// Sign-in tokens expire after a day (live tokens expire, docs/service.md#tokens-expire); the session spec
// ends them at once.
const TOKEN_LIFETIME_MS = 24 * 3_600_000;
// The sandbox of the specs, as first started and as started again after an offline spec stopped it.
const SANDBOX_OPTIONS = {
  delivery: 'manual',
  dataDir: sandboxDir,
  tokenLifetimeMs: TOKEN_LIFETIME_MS,
  https,
  // Specs assert QA verdicts: every take is mastered in spec here (the seeded misses are unit-tested).
  outOfSpecRate: 0,
} as const;
let sandbox: Sandbox | null = await createSandbox(SANDBOX_OPTIONS);
const first = sandbox;
const sandboxPort = Number(new URL(first.url).port);
const APP_OPTIONS = {
  rendererDir: join(root, 'out', 'renderer'),
  dataDir,
  libraryDir,
  externalSandbox: {
    url: first.url,
    token: first.tokens.full,
    ...(first.certificate ? { certificate: first.certificate } : {}),
  },
  revealInOs: false,
};
let app = await startBrowserMode(APP_OPTIONS);
/** The app as first started: a restart keeps its port and launch secret, so the specs' URL stays good. */
const appPort = Number(new URL(app.url).port);
const appSecret = new URL(app.url).hash.replace(/^#s=/, '');
// Specs share this world and count their own downloads: background fetch (on by default) starts off here, and
// background-fetch.spec.ts turns it on in Settings for its own run.
await app.services.settings.set({ backgroundFetch: false });

/**
 * A second world for the live-shapes spec, started on its first request so other specs pay nothing: a sandbox
 * answering in the live service's shapes (`liveShapes`) and its own browser-mode app using it.
 */
let live:
  Promise<{ appUrl: string; origin: string; sandboxUrl: string; tokens: Sandbox['tokens'] }> | undefined;
let liveParts: { sandbox: Sandbox; app: Awaited<ReturnType<typeof startBrowserMode>> } | undefined;
function startLive() {
  live ??= (async () => {
    const liveSandbox = await createSandbox({ delivery: 'manual', liveShapes: true });
    const liveApp = await startBrowserMode({
      rendererDir: join(root, 'out', 'renderer'),
      dataDir: join(work, 'live-data'),
      libraryDir: join(work, 'LiveLibrary'),
      externalSandbox: { url: liveSandbox.url, token: liveSandbox.tokens.full },
      revealInOs: false,
    });
    liveParts = { sandbox: liveSandbox, app: liveApp };
    return {
      appUrl: liveApp.url,
      origin: liveApp.origin,
      sandboxUrl: liveSandbox.url,
      tokens: liveSandbox.tokens,
    };
  })();
  return live;
}

// Control for offline specs: stop the sandbox and start it again on the same port with the same state.
const control = createServer((req, res) => {
  const done = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  void (async () => {
    if (req.method === 'POST' && req.url === '/sandbox/stop') {
      await sandbox?.close();
      sandbox = null;
      return done(200, { running: false });
    }
    if (req.method === 'POST' && req.url === '/sandbox/start') {
      // The same data dir keeps the same certificate, so the app still trusts the restarted sandbox.
      // Every option as at first (a restart without outOfSpecRate made one take in ten fail QA specs at random).
      sandbox ??= await createSandbox({ ...SANDBOX_OPTIONS, port: sandboxPort });
      return done(200, { running: true, url: sandbox.url });
    }
    if (req.method === 'POST' && req.url === '/live/start') return done(200, await startLive());
    // A restart of the app (main's services) on the same data folder, behind the same URL: the page reloads.
    if (req.method === 'POST' && req.url === '/app/restart') {
      await app.close();
      app = await startBrowserMode({ ...APP_OPTIONS, port: appPort, secret: appSecret });
      await app.services.settings.set({ backgroundFetch: false });
      return done(200, { url: app.url });
    }
    return done(404, { error: 'unknown control route' });
  })().catch((error: unknown) => done(500, { error: String(error) }));
});
await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
const controlUrl = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;

process.stdout.write(
  `${JSON.stringify({
    appUrl: app.url,
    origin: app.origin,
    sandboxUrl: first.url,
    ...(first.certificate ? { certificate: first.certificate } : {}),
    tokens: first.tokens,
    controlUrl,
    work,
    dataDir,
    libraryDir,
  })}\n`,
);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await app.close().catch(() => undefined);
  await liveParts?.app.close().catch(() => undefined);
  await liveParts?.sandbox.close().catch(() => undefined);
  control.close();
  await sandbox?.close().catch(() => undefined);
  process.exit(0);
};
process.stdin.on('end', () => void stop());
process.stdin.resume();
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
