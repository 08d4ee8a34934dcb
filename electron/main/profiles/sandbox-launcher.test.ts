import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SandboxStatus } from '../../../shared/ipc';
import { createSandboxLauncher, type SandboxProcess, type SandboxSupervisor } from './sandbox-launcher';

/** A scripted sandbox process: the test says when it is ready, writes to stderr, or ends it. */
class ScriptedProcess implements SandboxProcess {
  static nextPid = 1000;
  readonly pid = ScriptedProcess.nextPid++;
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  terminated = 0;
  killed = 0;
  /** Whether terminate() ends it (a healthy sandbox) or it must be killed. */
  obeysTerminate = true;
  #exit: ((code: number | null, signal: string | null) => void) | null = null;
  ended = false;
  constructor(readonly args: string[]) {}
  ready(port: number) {
    this.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}`, tokens: { full: 'tok' } })}\n`);
  }
  end(code: number | null, signal: string | null = null) {
    if (this.ended) return;
    this.ended = true;
    this.stdout.end();
    this.stderr.end();
    this.#exit?.(code, signal);
  }
  onExit(listener: (code: number | null, signal: string | null) => void) {
    this.#exit = listener;
  }
  terminate() {
    this.terminated++;
    if (this.obeysTerminate) setImmediate(() => this.end(0));
  }
  kill() {
    this.killed++;
    setImmediate(() => this.end(null, 'SIGKILL'));
  }
}

function setup(options: Partial<Parameters<typeof createSandboxLauncher>[0]> = {}) {
  const spawned: ScriptedProcess[] = [];
  const statuses: SandboxStatus[] = [];
  const logs: string[] = [];
  const launcher = createSandboxLauncher({
    dataDir: '/data',
    delivery: 'manual',
    spawn: (args) => {
      const child = new ScriptedProcess(args);
      spawned.push(child);
      return child;
    },
    log: (message) => logs.push(message),
    backoff: { initialMs: 500, maxMs: 4000, stableMs: 60_000, maxAttempts: 4 },
    ...options,
  });
  launcher.onStatus((s) => statuses.push(s));
  launchers.push(launcher);
  const last = () => spawned.at(-1)!;
  return { launcher, spawned, statuses, logs, last };
}

const launchers: SandboxSupervisor[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(launchers.splice(0).map((l) => l.close()));
});

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the sandbox launcher (a supervised process of its own)', () => {
  it('starts the sandbox program on first use with the data folder and delivery, and waits for its address', async () => {
    const { launcher, last, statuses } = setup();
    expect(launcher.status()).toEqual({ state: 'idle' });
    const first = launcher.ensure();
    await tick();
    expect(last().args).toEqual(['--port', '0', '--data-dir', '/data/sandbox', '--delivery', 'manual']);
    expect(launcher.status().state).toBe('starting');
    last().ready(4001);
    expect(await first).toEqual({ url: 'http://127.0.0.1:4001', token: 'tok' });
    expect(await launcher.ensure()).toEqual({ url: 'http://127.0.0.1:4001', token: 'tok' });
    expect(statuses.map((s) => s.state)).toEqual(['starting', 'running']);
    expect(launcher.pid()).toBe(last().pid);
  });

  it('after a crash answers SANDBOX_UNAVAILABLE at once, then restarts with backoff on a new port', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { launcher, spawned, last, logs } = setup();
    const first = launcher.ensure();
    await tick();
    last().ready(4001);
    await first;
    last().stderr.write('boom: out of memory\n');
    await tick();
    last().end(null, 'SIGKILL');
    await tick();
    expect(launcher.status()).toEqual({
      state: 'unavailable',
      reason: 'The sandbox service stopped (signal SIGKILL): boom: out of memory',
      restarting: true,
    });
    await expect(launcher.ensure()).rejects.toMatchObject({
      type: 'SANDBOX_UNAVAILABLE',
      status: 0,
      message: expect.stringMatching(/stopped \(signal SIGKILL\).*; restarting…$/),
    });
    expect(spawned).toHaveLength(1);
    vi.advanceTimersByTime(499);
    expect(spawned).toHaveLength(1);
    vi.advanceTimersByTime(1);
    await tick();
    expect(spawned).toHaveLength(2);
    // While it comes back, calls still answer at once.
    await expect(launcher.ensure()).rejects.toMatchObject({ type: 'SANDBOX_UNAVAILABLE' });
    last().ready(4002);
    await tick();
    expect(launcher.status()).toEqual({ state: 'running' });
    expect(await launcher.ensure()).toEqual({ url: 'http://127.0.0.1:4002', token: 'tok' });
    expect(logs).toContain('sandbox: boom: out of memory');
  });

  it('a sandbox ended from outside (Ctrl+C reaching it with the app, a kill) is logged as stopped, not unavailable', async () => {
    const { launcher, last, logs } = setup();
    const first = launcher.ensure();
    await tick();
    last().ready(4001);
    await first;
    // Ctrl+C in the terminal: the sandbox gets SIGINT too, closes its server and exits 0 before the app closes it.
    last().end(0);
    await tick();
    expect(logs.filter((line) => !line.startsWith('sandbox running'))).toEqual([
      'sandbox stopped (exit code 0)',
    ]);
    expect(launcher.status()).toMatchObject({ state: 'unavailable', restarting: true });
  });

  it('a sandbox killed while it starts was stopped: it is not reported as one that could not start', async () => {
    const { launcher, last, logs } = setup();
    const first = launcher.ensure().catch((e: unknown) => e);
    await tick();
    last().end(null, 'SIGKILL');
    expect(await first).toMatchObject({
      type: 'SANDBOX_UNAVAILABLE',
      message: 'The sandbox service stopped (signal SIGKILL) while starting; restarting…',
    });
    expect(logs).toEqual(['sandbox stopped (signal SIGKILL)']);
  });

  it('doubles the delay after each failure up to the cap, gives up after maxAttempts, and restart() tries again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { launcher, spawned, last } = setup();
    const first = launcher.ensure().catch((e: unknown) => e);
    await tick();
    last().stderr.write('sandbox: could not start: EACCES: permission denied, mkdir /data/sandbox\n');
    await tick();
    last().end(1);
    expect(await first).toMatchObject({
      type: 'SANDBOX_UNAVAILABLE',
      message: 'The sandbox could not start: EACCES: permission denied, mkdir /data/sandbox; restarting…',
    });
    const delays: number[] = [];
    for (let attempt = 2; attempt <= 5; attempt++) {
      let waited = 0;
      while (spawned.length < attempt && waited < 10_000) {
        vi.advanceTimersByTime(100);
        waited += 100;
        await tick();
      }
      delays.push(waited);
      last().end(1);
      await tick();
    }
    expect(delays).toEqual([500, 1000, 2000, 4000]);
    expect(launcher.status()).toMatchObject({ state: 'unavailable', restarting: false });
    vi.advanceTimersByTime(60_000);
    await tick();
    expect(spawned).toHaveLength(5);
    await expect(launcher.ensure()).rejects.toMatchObject({
      message: expect.stringContaining('Use “Restart sandbox” to try again.'),
    });

    const restarted = launcher.restart();
    await tick();
    expect(spawned).toHaveLength(6);
    last().ready(4003);
    expect(await restarted).toEqual({ state: 'running' });
  });

  it('counts a start that prints no address in time as failed, and kills it', async () => {
    const { launcher, last } = setup({ startTimeoutMs: 50 });
    await expect(launcher.ensure()).rejects.toMatchObject({
      type: 'SANDBOX_UNAVAILABLE',
      message: expect.stringContaining('did not answer within'),
    });
    expect(last().killed).toBe(1);
    expect(launcher.status()).toMatchObject({ state: 'unavailable', restarting: true });
  });

  it('restart() stops the running process on purpose (not counted as a crash) and starts a fresh one', async () => {
    const { launcher, spawned, last, statuses } = setup();
    const first = launcher.ensure();
    await tick();
    last().ready(4001);
    await first;
    const restarted = launcher.restart();
    await tick();
    await tick();
    expect(spawned[0]!.terminated).toBe(1);
    expect(spawned).toHaveLength(2);
    last().ready(4005);
    expect(await restarted).toEqual({ state: 'running' });
    expect(statuses.map((s) => s.state)).toEqual(['starting', 'running', 'starting', 'running']);
  });

  it('close() asks the process to stop, kills it when it does not, and restarts nothing afterwards', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { launcher, spawned, last } = setup({ stopTimeoutMs: 1000 });
    const first = launcher.ensure();
    await tick();
    last().ready(4001);
    await first;
    last().obeysTerminate = false;
    const closing = launcher.close();
    await tick();
    expect(last().terminated).toBe(1);
    expect(last().killed).toBe(0);
    vi.advanceTimersByTime(1000);
    await closing;
    expect(last().killed).toBe(1);
    vi.advanceTimersByTime(60_000);
    expect(spawned).toHaveLength(1);
    await expect(launcher.ensure()).rejects.toMatchObject({ type: 'SANDBOX_UNAVAILABLE' });
  });

  it('an external sandbox is used as is: always running, never started', async () => {
    const launcher = createSandboxLauncher({
      dataDir: '/data',
      external: { url: 'http://127.0.0.1:9', token: 't' },
    });
    expect(launcher.status()).toEqual({ state: 'running' });
    expect(await launcher.ensure()).toEqual({ url: 'http://127.0.0.1:9', token: 't' });
    expect(await launcher.restart()).toEqual({ state: 'running' });
  });
});
