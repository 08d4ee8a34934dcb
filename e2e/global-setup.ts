import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const SESSION_FILE = join(here, 'artifacts', 'session.json');

/**
 * Starts the app in browser mode against a fresh sandbox (manual delivery) in a child process (`e2e/serve.ts`),
 * writes its URLs for the specs, and stops it afterwards. The child also exits when this process goes away.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  mkdirSync(join(here, 'artifacts', 'screens'), { recursive: true });
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'serve.ts')], {
    cwd: join(here, '..'),
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env },
  });
  const line = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error('e2e server did not start within 60 s')), 60_000);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      const newline = buffer.indexOf('\n');
      if (newline >= 0) {
        clearTimeout(timer);
        resolve(buffer.slice(0, newline));
      }
    });
    child.on('exit', (code) => reject(new Error(`e2e server exited early with code ${code}`)));
  });
  writeFileSync(SESSION_FILE, line);
  return async () => {
    child.stdin.end();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  };
}
