/**
 * The e2e world: a fresh sandbox with manual delivery, and Takedesk in browser mode using it as the Sandbox
 * profile, with data and library in a temp folder. Prints one JSON line for the specs; exits when stdin closes.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSandbox } from '../electron/sandbox/server';
import { startBrowserMode } from '../electron/main/browser-mode';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'takedesk-e2e-'));
const sandboxDir = join(work, 'sandbox');
const dataDir = join(work, 'data');
const libraryDir = join(work, 'Library');

const sandbox = await createSandbox({ delivery: 'manual', dataDir: sandboxDir });
const app = await startBrowserMode({
  rendererDir: join(root, 'out', 'renderer'),
  dataDir,
  libraryDir,
  externalSandbox: { url: sandbox.url, token: sandbox.tokens.full },
  revealInOs: false,
});

process.stdout.write(
  `${JSON.stringify({
    appUrl: app.url,
    origin: app.origin,
    sandboxUrl: sandbox.url,
    tokens: sandbox.tokens,
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
  await sandbox.close().catch(() => undefined);
  process.exit(0);
};
process.stdin.on('end', () => void stop());
process.stdin.resume();
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
