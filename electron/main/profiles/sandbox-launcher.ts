import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { SandboxStatus } from '../../../shared/ipc';
import { localError } from '../kernel/local-error';
import type { SandboxConnection, SandboxLauncher } from './profiles';

/** A started sandbox process as the launcher drives it: Electron's utilityProcess, or a Node child process. */
export interface SandboxProcess {
  readonly pid: number | undefined;
  /** The first line is the sandbox's `{ url, tokens }` (electron/sandbox/cli.ts). */
  readonly stdout: NodeJS.ReadableStream | null;
  /** Log lines; they go to main's log. */
  readonly stderr: NodeJS.ReadableStream | null;
  /** Calls back once when the process has ended (or could not be started). */
  onExit(listener: (code: number | null, signal: string | null) => void): void;
  /** Asks it to close its server and exit. */
  terminate(): void;
  /** Ends it at once. */
  kill(): void;
}

/**
 * A SandboxProcess over a started child process (Node's fork or Electron's utilityProcess); `pid` is read live
 * because it is set only once the process has started.
 */
export function sandboxProcessOf(
  child: {
    readonly pid?: number | undefined;
    readonly stdout: NodeJS.ReadableStream | null;
    readonly stderr: NodeJS.ReadableStream | null;
  },
  control: Pick<SandboxProcess, 'onExit' | 'terminate' | 'kill'>,
): SandboxProcess {
  return {
    get pid() {
      return child.pid;
    },
    stdout: child.stdout,
    stderr: child.stderr,
    ...control,
  };
}

/** Starts the sandbox program (`npm run sandbox`'s cli.ts, or out/main/sandbox.js) with these arguments. */
export type SpawnSandbox = (args: string[]) => SandboxProcess;

export interface SandboxLauncherOptions {
  /** App data folder; the sandbox keeps its state under `<dataDir>/sandbox`. */
  dataDir: string;
  /** An already running sandbox (tests, `npm run sandbox`): no process is started or watched. */
  external?: SandboxConnection;
  delivery?: 'manual' | number;
  /** Serve the sandbox over HTTPS (its certificate is then the one the Sandbox profile trusts). */
  https?: boolean;
  /** Required unless `external`. */
  spawn?: SpawnSandbox;
  log?: (message: string, error?: unknown) => void;
  /** Routine progress (it started, at this address); `log` when not given. */
  info?: (message: string) => void;
  /** Automatic restarts: `initialMs`, doubling up to `maxMs`; a run of `stableMs` resets the count; after `maxAttempts` failures in a row it waits for `restart()`. */
  backoff?: { initialMs?: number; maxMs?: number; stableMs?: number; maxAttempts?: number };
  /** How long a start may take before it counts as failed. */
  startTimeoutMs?: number;
  /** How long a stop may take before the process is killed. */
  stopTimeoutMs?: number;
}

/** The Sandbox profile's service, supervised: started on first use, restarted when it dies, stopped on close. */
export interface SandboxSupervisor extends Required<SandboxLauncher> {
  /** The running process's id, if any (diagnostics, tests). */
  pid(): number | undefined;
  /** Stops the process (asks, then kills after `stopTimeoutMs`); nothing is restarted afterwards. */
  close(): Promise<void>;
}

type Connection = SandboxConnection;

interface Running {
  child: SandboxProcess;
  connection: Connection;
  startedAt: number;
  exited: Promise<void>;
}

const STDERR_TAIL = 5;

/**
 * Runs the embedded sandbox as a process of its own, so neither a fault in it nor its media synthesis can stop
 * main. It is started on first use on a free loopback port, with its state under the app's data folder (projects
 * and tokens survive restarts; the port may change). When it dies, calls to it answer SANDBOX_UNAVAILABLE at once
 * (they never wait on a dead port) and it is restarted with backoff.
 */
export function createSandboxLauncher(options: SandboxLauncherOptions): SandboxSupervisor {
  const log = options.log ?? (() => undefined);
  const info = options.info ?? log;
  const initialMs = options.backoff?.initialMs ?? 500;
  const maxMs = options.backoff?.maxMs ?? 30_000;
  const stableMs = options.backoff?.stableMs ?? 60_000;
  const maxAttempts = options.backoff?.maxAttempts ?? 10;
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  const stopTimeoutMs = options.stopTimeoutMs ?? 5_000;
  const listeners = new Set<(status: SandboxStatus) => void>();

  let status: SandboxStatus = options.external ? { state: 'running' } : { state: 'idle' };
  let running: Running | null = null;
  let starting: Promise<Connection> | null = null;
  let retryTimer: NodeJS.Timeout | undefined;
  let failures = 0;
  let everRan = false;
  let closed = false;

  function setStatus(next: SandboxStatus): void {
    status = next;
    for (const listener of listeners) listener(status);
  }

  function args(): string[] {
    const list = ['--port', '0', '--data-dir', join(options.dataDir, 'sandbox')];
    if (options.delivery !== undefined) list.push('--delivery', String(options.delivery));
    if (options.https) list.push('--https');
    return list;
  }

  /**
   * Marks the sandbox unavailable and schedules the next automatic start, unless closed or out of attempts.
   * `stopped`: it was ended from outside (a signal, or asked to stop and exiting 0), not broken: the log says so.
   */
  function unavailable(reason: string, stopped?: { code: number | null; signal: string | null }): Error {
    failures++;
    clearTimeout(retryTimer);
    const restarting = !closed && failures <= maxAttempts;
    if (restarting) {
      const delay = Math.min(maxMs, initialMs * 2 ** (failures - 1));
      retryTimer = setTimeout(() => void start().catch(() => undefined), delay);
      retryTimer.unref();
    }
    const next = restarting ? '' : ' (no more automatic restarts)';
    log(stopped ? `sandbox stopped (${exitText(stopped)})${next}` : `sandbox unavailable: ${reason}${next}`);
    setStatus({ state: 'unavailable', reason, restarting });
    return unavailableError();
  }

  function unavailableError(): Error {
    if (closed) return localError('SANDBOX_UNAVAILABLE', 'The sandbox service has stopped.');
    if (status.state === 'unavailable' && status.reason) {
      return localError(
        'SANDBOX_UNAVAILABLE',
        status.restarting
          ? `${status.reason}; restarting…`
          : `${status.reason}. Use “Restart sandbox” to try again.`,
      );
    }
    return localError('SANDBOX_UNAVAILABLE', 'The sandbox service stopped; restarting…');
  }

  function start(): Promise<Connection> {
    clearTimeout(retryTimer);
    starting ??= launch().finally(() => (starting = null));
    return starting;
  }

  async function launch(): Promise<Connection> {
    if (!options.spawn) throw new Error('createSandboxLauncher: no spawn port and no external sandbox');
    setStatus({ state: 'starting' });
    let child: SandboxProcess;
    try {
      child = options.spawn(args());
    } catch (error) {
      throw unavailable(`The sandbox could not start: ${(error as Error).message}`);
    }
    const tail: string[] = [];
    const stderrClosed = new Promise<void>((resolve) =>
      eachLine(
        child.stderr,
        (line) => {
          log(`sandbox: ${line}`);
          tail.push(line);
          if (tail.length > STDERR_TAIL) tail.shift();
        },
        resolve,
      ),
    );
    const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.onExit((code, signal) => resolve({ code, signal })),
    );
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      firstLine(child.stdout).then((line) => ({ line })),
      exit.then((ended) => ({ ended })),
      new Promise<{ timedOut: true }>((resolve) => {
        timer = setTimeout(() => resolve({ timedOut: true }), startTimeoutMs);
      }),
    ]);
    clearTimeout(timer);

    const connection = 'line' in outcome && outcome.line !== null ? parseReady(outcome.line) : null;
    if (!connection) {
      let ended: { code: number | null; signal: string | null } | null = null;
      if (!('timedOut' in outcome)) {
        // It is on its way out (stdout closed first, or it printed something else): wait for its last words.
        ended = await Promise.race([exit, sleep(1000).then(() => null)]);
        await Promise.race([stderrClosed, sleep(500)]);
      }
      if (!ended) child.kill();
      const lastWords = tail.at(-1)?.replace(/^sandbox: (could not start: )?/, '');
      // Killed while starting (a signal from outside): it was stopped, it did not fail to start.
      if (ended && wasStopped(ended))
        throw unavailable(`The sandbox service stopped (${exitText(ended)}) while starting`, ended);
      const why =
        'timedOut' in outcome
          ? `it did not answer within ${Math.round(startTimeoutMs / 1000)} s`
          : (lastWords ?? (ended ? exitText(ended) : 'it printed no address'));
      throw unavailable(`The sandbox could not start: ${why}`);
    }
    const entry: Running = {
      child,
      connection,
      startedAt: Date.now(),
      exited: exit.then(() => undefined),
    };
    running = entry;
    everRan = true;
    info(`sandbox running at ${connection.url} (pid ${child.pid ?? '?'})`);
    setStatus({ state: 'running' });
    void exit.then((ended) => {
      if (running !== entry) return; // stopped on purpose
      running = null;
      if (Date.now() - entry.startedAt >= stableMs) failures = 0;
      const lastWords = tail.at(-1)?.replace(/^sandbox: /, '');
      unavailable(
        `The sandbox service stopped (${exitText(ended)})${lastWords ? `: ${lastWords}` : ''}`,
        wasStopped(ended) ? ended : undefined,
      );
    });
    return connection;
  }

  async function stop(entry: Running): Promise<void> {
    if (running === entry) running = null;
    entry.child.terminate();
    let timer: NodeJS.Timeout | undefined;
    const stopped = await Promise.race([
      entry.exited.then(() => true),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), stopTimeoutMs))),
    ]);
    clearTimeout(timer);
    if (!stopped) {
      log(`sandbox did not stop within ${stopTimeoutMs} ms; killing it`);
      entry.child.kill();
      await entry.exited;
    }
  }

  return {
    async ensure() {
      if (options.external) return options.external;
      if (running) return running.connection;
      if (closed) throw unavailableError();
      // The first start is waited for (the Sandbox profile starts on first use); after a failure, calls answer at
      // once instead of hanging on a process that is coming back.
      if (status.state === 'idle' || (status.state === 'starting' && !everRan)) return start();
      throw unavailableError();
    },
    status: () => ({ ...status }),
    onStatus(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async restart() {
      if (options.external || closed) return { ...status };
      failures = 0;
      clearTimeout(retryTimer);
      if (starting) await starting.catch(() => undefined);
      else {
        if (running) await stop(running);
        await start().catch(() => undefined);
      }
      return { ...status };
    },
    pid: () => running?.child.pid,
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      if (starting) await starting.catch(() => undefined);
      if (running) await stop(running);
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * Ended by a signal, or exiting 0 (the sandbox exits 0 only when told to stop: SIGTERM, SIGINT, its lifeline
 * closing). Ctrl+C in the terminal reaches the sandbox with the app, so a normal quit can end it before the app
 * closes it: that is a stop, not a failure.
 */
function wasStopped(ended: { code: number | null; signal: string | null }): boolean {
  return ended.signal !== null || ended.code === 0;
}

function exitText(ended: { code: number | null; signal: string | null }): string {
  return ended.signal ? `signal ${ended.signal}` : `exit code ${ended.code ?? '?'}`;
}

/** The sandbox's ready line: `{ url, tokens: { full }, certificate? }`; anything else is a failed start. */
function parseReady(line: string): Connection | null {
  try {
    const ready = JSON.parse(line) as { url?: unknown; tokens?: { full?: unknown }; certificate?: unknown };
    if (typeof ready.url === 'string' && /^https?:\/\/127\.0\.0\.1:\d+$/.test(ready.url)) {
      if (typeof ready.tokens?.full === 'string') {
        const certificate = typeof ready.certificate === 'string' ? { certificate: ready.certificate } : {};
        return { url: ready.url, token: ready.tokens.full, ...certificate };
      }
    }
  } catch {
    // not JSON
  }
  return null;
}

/** Resolves with the first line of a stream (null if it ends first); later lines are read and dropped. */
function firstLine(stream: NodeJS.ReadableStream | null): Promise<string | null> {
  return new Promise((resolve) => {
    if (!stream) return resolve(null);
    let first = true;
    eachLine(
      stream,
      (line) => {
        if (first) resolve(line);
        first = false;
      },
      () => resolve(null),
    );
  });
}

function eachLine(
  stream: NodeJS.ReadableStream | null,
  onLine: (line: string) => void,
  onEnd?: () => void,
): void {
  if (!stream) return void onEnd?.();
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  lines.on('line', (line) => {
    if (line.trim()) onLine(line);
  });
  lines.on('close', () => onEnd?.());
}
