import { spawnSync } from 'node:child_process';

export interface QuietRun {
  /** The exit code (null when a signal ended it). */
  status: number | null;
  /** Everything it wrote (stdout, then stderr), to print when it fails. */
  output: string;
}

/**
 * Runs a command with its output held back: `npm start` says in one line that it builds, not the bundler's ~75
 * lines of chunk sizes and timings. The output is printed only when the command fails, where it says why.
 */
export function runQuietly(command: string, args: readonly string[], options: { cwd: string }): QuietRun {
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = [result.stdout, result.stderr, result.error ? `${result.error.message}\n` : '']
    .filter(Boolean)
    .join('');
  return { status: result.error ? 1 : result.status, output };
}
