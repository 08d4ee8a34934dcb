/**
 * Deliveries the watcher finds in one turn, told once: one toast and one desktop notification per batch, not one
 * per take stacking over the form. Shared by main (the OS notification) and the renderer (the toast).
 */
import { plural } from '../text/plural';
import { serviceLabel } from '../text/service-label';

/** What a batch reads of each delivery (the `deliverable.ready` event carries more). */
export interface ReadyTake {
  projectId: string;
  projectTitle: string;
  deliverableId: string;
  deliverableName: string;
  serviceSubCategory: string;
}

/**
 * A take's name that says what it is: the service, then the part ("Voice over · part 2") or the deliverable's own
 * name when it says more than a number ("Voice over · Entry 1 (Ana)"); a name that repeats the service is said once.
 */
export function takeName(take: { serviceSubCategory: string; name: string }): string {
  const service = serviceLabel(take.serviceSubCategory);
  const name = take.name.trim();
  if (!name || name.toLowerCase() === service.toLowerCase()) return service;
  const part = /^(?:part\s*)?(\d+)$/i.exec(name);
  return `${service} · ${part ? `part ${part[1]}` : name}`;
}

/** Title and body of one batch: the take itself when alone, otherwise how many and for which projects. */
export function readyBatchText(batch: readonly ReadyTake[]): { title: string; body: string } {
  const [first] = batch;
  if (!first) return { title: 'Ready for review', body: '' };
  const name = (t: ReadyTake) =>
    takeName({ serviceSubCategory: t.serviceSubCategory, name: t.deliverableName });
  if (batch.length === 1) return { title: 'Ready for review', body: `${first.projectTitle}: ${name(first)}` };
  const byProject = new Map<string, { title: string; takes: ReadyTake[] }>();
  for (const t of batch) {
    const entry = byProject.get(t.projectId) ?? { title: t.projectTitle, takes: [] };
    entry.takes.push(t);
    byProject.set(t.projectId, entry);
  }
  const title = `${plural(batch.length, 'take')} ready for review`;
  if (byProject.size === 1) return { title, body: `${first.projectTitle}: ${batch.map(name).join(', ')}` };
  const body = [...byProject.values()].map((p) => `${p.title} (${p.takes.length})`).join(' · ');
  return { title, body };
}

/** Timers the batcher uses; tests pass their own. */
export interface BatchTimers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: BatchTimers = {
  set: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    // Never keeps a process alive on its own (main's tests, a quitting app).
    (handle as { unref?: () => void }).unref?.();
    return handle;
  },
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Collects deliveries until the watcher's turn ends (`end()`, on its `watcher.status`), then hands them over at
 * once. `waitMs` after the first one it flushes anyway, so a turn whose status never arrives still tells.
 */
export function createReadyBatcher(
  flush: (batch: ReadyTake[]) => void,
  waitMs = 3000,
  timers: BatchTimers = realTimers,
): { add(take: ReadyTake): void; end(): void; dispose(): void } {
  let pending: ReadyTake[] = [];
  let timer: unknown = null;
  function end(): void {
    if (timer !== null) timers.clear(timer);
    timer = null;
    if (!pending.length) return;
    const batch = pending;
    pending = [];
    flush(batch);
  }
  return {
    add(take) {
      // The same take told twice in one batch (a second window's poke) is one delivery.
      if (!pending.some((t) => t.deliverableId === take.deliverableId)) pending.push(take);
      if (timer === null) timer = timers.set(end, waitMs);
    },
    end,
    dispose() {
      if (timer !== null) timers.clear(timer);
      timer = null;
      pending = [];
    },
  };
}
