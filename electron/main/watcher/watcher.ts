/**
 * The service has no webhooks (spec: Events), so main polls the active profile's projects with
 * pending work and raises `deliverable.ready` once per delivery: the first one, and each new
 * version after a revision (issue 4, item 8).
 */
import type { Deliverable, ProjectListItem } from '../../../shared/api';
import type { EventName, EventPayloads, WatcherStatus } from '../../../shared/ipc';
import type { ApiClient } from '../api/client';
import type { ActiveProfile } from '../profiles/profiles';

/** The event bus as the watcher uses it (electron/main/events.ts); `attach` lets it follow profile switches. */
export interface WatcherEvents {
  emit<E extends 'deliverable.ready' | 'watcher.status'>(event: E, payload: EventPayloads[E]): void;
  attach?(sink: (event: EventName, payload: EventPayloads[EventName]) => void): () => void;
}

/** What a delivered version looked like when the watcher last saw it, per profile and deliverable id. */
export type WatcherMemory = Record<string, Record<string, { status: string; signature: string }>>;

/** Keeps the watcher's memory across app restarts, so what arrived while the app was closed is announced. */
export interface WatcherMemoryStore {
  load(): Promise<WatcherMemory>;
  save(memory: WatcherMemory): Promise<void>;
}

export interface WatcherDeps {
  profiles: { active(): Promise<ActiveProfile> };
  events: WatcherEvents;
  /** Without it the watcher remembers only while the app runs. */
  memory?: WatcherMemoryStore;
  now?: () => Date;
  /** Schedules `fn` after `ms`; returns a cancel function. */
  setTimer?: (fn: () => void, ms: number) => () => void;
  /** First and post-activity interval. Default 5 s. */
  minDelayMs?: number;
  /** Ceiling of the backoff while idle or failing. Default 60 s. */
  maxDelayMs?: number;
}

export interface Watcher {
  /** Polls at once, then on the backoff schedule. */
  start(): void;
  stop(): void;
  status(): WatcherStatus;
  /** Something is about to change (project created, revision requested): poll now at the fastest pace. */
  poke(): Promise<void>;
}

/** Deliverable states no delivery follows without a user action (which pokes the watcher). */
const FINAL = new Set(['approved', 'rejected', 'winner']);
/** Project states with nothing left to deliver. */
const CLOSED = new Set(['canceled', 'completed']);
const PAGE_SIZE = 100;
const MAX_PAGES = 20;

interface Seen {
  status: string;
  signature: string;
}

interface ProfileWatch {
  /** After the first poll of a profile; before it, what is already reviewable is not news. */
  baselined: boolean;
  deliverables: Map<string, Seen>;
  /** Projects whose deliverables are all final; skipped until a poke. */
  settled: Set<string>;
}

/** Creates the watcher. */
export function createWatcher(deps: WatcherDeps): Watcher {
  const { profiles, events } = deps;
  const now = deps.now ?? (() => new Date());
  const setTimer = deps.setTimer ?? defaultTimer;
  const minDelay = deps.minDelayMs ?? 5_000;
  const maxDelay = deps.maxDelayMs ?? 60_000;

  const watches = new Map<string, ProfileWatch>();
  // Loaded once; a profile's remembered deliverables become its baseline on its first poll.
  let remembered: Promise<WatcherMemory> | null = null;
  const memory = (): Promise<WatcherMemory> =>
    (remembered ??= deps.memory
      ? deps.memory.load().catch((): WatcherMemory => ({}))
      : Promise.resolve<WatcherMemory>({}));
  let running = false;
  let delay = minDelay;
  let cancelTimer: (() => void) | null = null;
  let nextAt: number | null = null;
  let inFlight: Promise<void> | null = null;
  let detach: (() => void) | null = null;
  let current: WatcherStatus = { watching: 0, lastPollAt: null, nextPollInMs: null, failing: false };

  function status(): WatcherStatus {
    return { ...current, nextPollInMs: nextAt === null ? null : Math.max(0, nextAt - now().getTime()) };
  }

  function publish(): void {
    events.emit('watcher.status', status());
  }

  function schedule(ms: number): void {
    cancelTimer?.();
    nextAt = now().getTime() + ms;
    cancelTimer = setTimer(() => {
      cancelTimer = null;
      void run();
    }, ms);
  }

  function run(): Promise<void> {
    if (inFlight) return inFlight;
    cancelTimer?.();
    cancelTimer = null;
    nextAt = null;
    inFlight = (async () => {
      try {
        const result = await pollOnce();
        delay = result.activity ? minDelay : Math.min(delay * 2, maxDelay);
        current = { ...current, watching: result.watching, failing: false };
      } catch {
        // A failed poll is retried later; the UI shows `failing` (the next user action will surface the error).
        delay = Math.min(delay * 2, maxDelay);
        current = { ...current, failing: true };
      }
      current = { ...current, lastPollAt: now().toISOString() };
      inFlight = null;
      if (running) schedule(delay);
      publish();
    })();
    return inFlight;
  }

  async function pollOnce(): Promise<{ watching: number; activity: boolean }> {
    const { profile, client } = await profiles.active();
    let watch = watches.get(profile.id);
    if (!watch) {
      const saved: Array<[string, Seen]> = Object.entries((await memory())[profile.id] ?? {});
      // With a memory from the last run, whatever differs from it is news (it arrived while the app was closed).
      watch = { baselined: saved.length > 0, deliverables: new Map(saved), settled: new Set() };
      watches.set(profile.id, watch);
    }
    const projects = await pendingProjects(client, watch);
    let activity = false;
    for (const project of projects) {
      const deliverables = await client.listDeliverables(project.id);
      for (const deliverable of deliverables) {
        const seen: Seen = { status: deliverable.status, signature: signature(deliverable) };
        const before = watch.deliverables.get(deliverable.id);
        watch.deliverables.set(deliverable.id, seen);
        if (before ? before.status === seen.status && before.signature === seen.signature : !watch.baselined)
          continue;
        activity = true;
        const ready =
          seen.status === 'reviewable' &&
          (!before || before.status !== 'reviewable' || before.signature !== seen.signature);
        if (ready) {
          events.emit('deliverable.ready', {
            profileId: profile.id,
            projectId: project.id,
            projectTitle: project.title,
            deliverableId: deliverable.id,
            deliverableName: deliverable.name,
            serviceSubCategory: deliverable.serviceSubCategory,
          });
        }
      }
      if (deliverables.length > 0 && deliverables.every((d) => FINAL.has(d.status)))
        watch.settled.add(project.id);
    }
    const changed = activity || !watch.baselined;
    watch.baselined = true;
    if (changed && deps.memory) await remember(profile.id, watch);
    return { watching: projects.length, activity };
  }

  async function remember(profileId: string, watch: ProfileWatch): Promise<void> {
    const all = await memory();
    all[profileId] = Object.fromEntries(watch.deliverables);
    // A failed save only means a delivery may be announced again after a restart.
    await deps.memory?.save(all).catch(() => undefined);
  }

  async function poke(): Promise<void> {
    if (!running) return;
    // A poll already under way may have read the list before the change: run one more after it.
    if (inFlight) await inFlight;
    delay = minDelay;
    for (const watch of watches.values()) watch.settled.clear();
    await run();
  }

  return {
    start() {
      if (running) return;
      running = true;
      delay = minDelay;
      // Another profile's projects are a fresh start: poll it at once.
      detach =
        events.attach?.((event) => {
          if (event === 'profile.changed') void poke();
        }) ?? null;
      void run();
    },
    stop() {
      running = false;
      cancelTimer?.();
      cancelTimer = null;
      nextAt = null;
      detach?.();
      detach = null;
      publish();
    },
    status,
    poke,
  };
}

/** Projects of the profile that may still receive deliveries. */
async function pendingProjects(client: ApiClient, watch: ProfileWatch): Promise<ProjectListItem[]> {
  const out: ProjectListItem[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const result = await client.listProjects({ page, pageSize: PAGE_SIZE });
    for (const project of result.projects) {
      if (project.status !== undefined && CLOSED.has(project.status)) continue;
      if (watch.settled.has(project.id)) continue;
      out.push(project);
    }
    if (result.projects.length < PAGE_SIZE) break;
  }
  return out;
}

/**
 * What identifies one delivered version: its file links without query strings (signed URLs may
 * change their signature between polls without a new delivery).
 */
function signature(deliverable: Deliverable): string {
  const entries = Object.entries(deliverable.urls)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([key, value]) => [key, key === 'content' ? value : value.split('?')[0]] as const)
    .sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify(entries);
}

function defaultTimer(fn: () => void, ms: number): () => void {
  const timer = setTimeout(fn, ms);
  timer.unref?.();
  return () => clearTimeout(timer);
}
