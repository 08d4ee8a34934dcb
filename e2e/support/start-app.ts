import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** `npm start`'s program on a data folder of its own: what it printed before its URL, and the URL. */
export interface StartedApp {
  child: ChildProcess;
  url: string;
  /** Everything printed on stdout up to and including the URL's line. */
  output: string;
  /** Everything printed so far, stdout and stderr in the order they arrived. */
  printed(): string;
  stop(): Promise<void>;
}

/** The launch URL as `npm start` prints it, on a line of its own: the launch secret in the fragment. */
export const LAUNCH_URL = /^http:\/\/127\.0\.0\.1:\d+\/open#s=[\w-]+$/;

/** Starts `scripts/start.ts` (browser mode here) on `dataDir` and waits for the URL it prints (60 s at most). */
export async function startApp(dataDir: string): Promise<StartedApp> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: join(import.meta.dirname, '..', '..'),
    env: { ...process.env, TAKEDESK_DATA_DIR: dataDir, TAKEDESK_NO_OPEN: '1', HOME: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = async () => {
    child.kill('SIGTERM');
    if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
  };
  let output = '';
  let printed = '';
  child.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL within 60 s:\n${output}`)), 60_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const line = output.split('\n').find((l) => LAUNCH_URL.test(l.trim()));
        if (line) {
          clearTimeout(timer);
          resolve(line.trim());
        }
      });
      child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
    });
    return { child, url, output, printed: () => printed, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
