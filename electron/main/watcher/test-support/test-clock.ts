/**
 * Virtual time for the watcher (its `now` and `setTimer`), moved on by `advance`, which fires the due timers in
 * order and waits for each turn to end. Used by the watcher's tests and bench/polling.ts, so an hour of polling
 * runs in seconds while every request stays real.
 */
export function createTestClock(startMs: number) {
  const timers: Array<{ fn: () => void; due: number; ms: number; canceled: boolean }> = [];
  const waiters: Array<() => void> = [];
  const clock = {
    now: startMs,
    date: () => new Date(clock.now),
    setTimer(fn: () => void, ms: number): () => void {
      const timer = { fn, ms, due: clock.now + ms, canceled: false };
      timers.push(timer);
      return () => {
        timer.canceled = true;
      };
    },
    /** Call on every `watcher.status` event: the watcher publishes one at the end of each turn. */
    turned(): void {
      waiters.splice(0).forEach((resolve) => resolve());
    },
    /** The delay of the timer set last and still pending. */
    lastDelay: (): number => timers.filter((t) => !t.canceled).at(-1)?.ms ?? NaN,
    async advance(ms: number): Promise<void> {
      const end = clock.now + ms;
      for (;;) {
        const next = timers.filter((t) => !t.canceled).sort((a, b) => a.due - b.due)[0];
        if (!next || next.due > end) break;
        clock.now = Math.max(clock.now, next.due);
        next.canceled = true;
        const turn = new Promise<void>((resolve) => waiters.push(resolve));
        next.fn();
        await turn;
      }
      clock.now = end;
    },
  };
  return clock;
}
