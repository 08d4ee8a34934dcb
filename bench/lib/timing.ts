import { spawn } from 'node:child_process';

/** Wall times of N runs of one contender, in milliseconds. */
export interface Timing {
  runsMs: number[];
  medianMs: number;
}

/** Median of a list of numbers (NaN for an empty list). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** Runs `fn` `runs` times sequentially and returns each wall time plus the median; keeps the last value. */
export async function timeRuns<T>(runs: number, fn: () => Promise<T> | T): Promise<Timing & { last: T }> {
  const runsMs: number[] = [];
  let last: T | undefined;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    last = await fn();
    runsMs.push(performance.now() - t0);
  }
  return { runsMs, medianMs: median(runsMs), last: last as T };
}

/** Output of a finished child process. */
export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion (no shell); rejects if it cannot start or exits non-zero (unless allowFailure). */
export function runCommand(
  command: string,
  args: readonly string[],
  options: { allowFailure?: boolean; input?: string } = {},
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    // A command that exits without reading its input (sox --version) closes the pipe first: not an error.
    child.stdin.on('error', () => undefined);
    child.on('close', (code) => {
      const result = { code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() };
      if (code !== 0 && !options.allowFailure)
        reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${result.stderr.slice(-500)}`));
      else resolve(result);
    });
    child.stdin.end(options.input ?? '');
  });
}

/** True when `command` can be started (e.g. ffmpeg, sox, curl). */
export async function hasCommand(command: string, versionArg = '-version'): Promise<boolean> {
  try {
    await runCommand(command, [versionArg], { allowFailure: true });
    return true;
  } catch {
    return false;
  }
}
