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
export function takeName(
  take: { serviceSubCategory: string; name: string },
  more: { script?: string | null; take?: number | null } = {},
): string {
  const service = serviceLabel(take.serviceSubCategory);
  const name = take.name.trim();
  const part = /^(?:part\s*)?(\d+)$/i.exec(name);
  const parts = [service];
  if (name && name.toLowerCase() !== service.toLowerCase()) parts.push(part ? `part ${part[1]}` : name);
  // The line it reads says which take this is better than a number does.
  const words = more.script ? firstWords(more.script) : '';
  if (words) parts.push(`“${words}”`);
  if (more.take && more.take > 1) parts.push(`take ${more.take}`);
  return parts.join(' · ');
}

/** The first words of a script, about `max` characters, cut at a word with an ellipsis. */
export function firstWords(text: string, max = 32): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max + 1);
  const end = cut.lastIndexOf(' ');
  return `${(end > max / 2 ? cut.slice(0, end) : flat.slice(0, max)).replace(/[\s,.;:!?-]+$/, '')}…`;
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
