/**
 * An async task that runs one pass at a time: a call while a pass runs shares its promise and asks for one more
 * pass after it, so a burst of calls costs at most two passes and the last call's state is always covered.
 */
export interface CoalescedTask {
  /** Starts a pass, or asks the running one for another; settles when the passes end (rejects if one throws). */
  run(): Promise<void>;
  /** The passes running now, or null when idle. */
  running(): Promise<void> | null;
}

/** A pass that throws ends the run: no further pass until the next `run()`. */
export function createCoalescedTask(pass: () => Promise<void>): CoalescedTask {
  let current: Promise<void> | null = null;
  let again = false;
  return {
    run() {
      if (current) {
        again = true;
        return current;
      }
      current = (async () => {
        try {
          do {
            again = false;
            await pass();
          } while (again);
        } finally {
          current = null;
        }
      })();
      return current;
    },
    running: () => current,
  };
}
