/**
 * The queue's scheduling: how many jobs run at once (`concurrency`, read at every turn), which queued job starts
 * next (in the order they were added), a run's end turned into the job's state, stopping a run for a pause, a
 * cancel or the app's quit, and waiting for the queue to be idle.
 */
import type { Finished } from './job';
import { failureOf, type Entry } from './queue-entry';
import { createRateMeter } from './rate-meter';

export interface SchedulerDeps {
  entries: Map<string, Entry>;
  concurrency: () => number;
  /** Jobs wait until `open()` (the library's start-up check has run). */
  gated: boolean;
  /** One job's run (job.ts), stopped through `signal`. */
  run: (entry: Entry, signal: AbortSignal) => Promise<Finished>;
  /** The job's state changed: tell the renderer and save the queue. */
  changed: (entry: Entry) => void;
  /** A run started (progress events begin). */
  started: () => void;
  /** A run completed its file. */
  finished: (finished: Finished) => void;
}

export function createScheduler(deps: SchedulerDeps) {
  let closed = false;
  let gated = deps.gated;
  let idleWaiters: Array<() => void> = [];

  const running = () => [...deps.entries.values()].filter((e) => e.running !== null).length;

  function pump() {
    if (closed || gated) return;
    const limit = Math.max(1, Math.floor(deps.concurrency()) || 1);
    for (const entry of deps.entries.values()) {
      if (running() >= limit) break;
      if (entry.job.state === 'queued' && !entry.running) launch(entry);
    }
    if (running() === 0 && ![...deps.entries.values()].some((e) => e.job.state === 'queued')) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  function launch(entry: Entry) {
    let finished: Finished | null = null;
    const controller = new AbortController();
    entry.controller = controller;
    entry.stopReason = null;
    entry.job.state = 'downloading';
    entry.job.error = null;
    entry.meter = createRateMeter();
    deps.changed(entry);
    deps.started();
    entry.running = deps
      .run(entry, controller.signal)
      .then((result) => {
        entry.job.state = 'done';
        finished = result;
      })
      .catch((error: unknown) => {
        if (entry.stopReason) return; // pause/cancel/close already set the state they want
        const failure = failureOf(error);
        entry.job.state = 'failed';
        entry.job.error = { type: failure.type, message: failure.message };
      })
      .finally(() => {
        entry.running = null;
        entry.controller = null;
        delete entry.job.verifying;
        entry.job.rate = 0;
        entry.job.etaSeconds = null;
        if (!entry.stopReason) deps.changed(entry);
        if (finished) deps.finished(finished);
        pump();
      });
  }

  const isIdle = () => running() === 0 && ![...deps.entries.values()].some((e) => e.job.state === 'queued');

  /** Resolves when no job is running or queued. */
  async function whenIdle(): Promise<void> {
    if (isIdle()) return;
    await new Promise<void>((resolve) => idleWaiters.push(resolve));
  }

  async function stop(entry: Entry, reason: 'pause' | 'cancel' | 'close') {
    entry.stopReason = reason;
    entry.controller?.abort();
    if (entry.running) await entry.running;
  }

  return {
    pump,
    stop,
    whenIdle,
    /** Jobs may run from now on. */
    open() {
      gated = false;
      pump();
    },
    /** App quit: no job starts again; the running ones are stopped without a change of state. */
    async close() {
      closed = true;
      await Promise.all([...deps.entries.values()].filter((e) => e.running).map((e) => stop(e, 'close')));
    },
  };
}
