/**
 * The service has no webhooks a desktop app can receive (docs/service.md#no-webhooks), so main polls the
 * active profile's projects in work and raises `deliverable.ready` once per delivery: the first one, and each
 * new version after a revision.
 * Polling is a good citizen: one request per slot of a fixed budget (poll-plan.ts), spent on the project on
 * screen, then on projects touched or changed within the hour, then on the rest in turn; a 429 pauses it for as
 * long as the service asks.
 */
import { pageMayContinue, type Deliverable } from '../../../shared/api';
import type { EventPayloads, WatchedProject, WatcherStatus } from '../../../shared/ipc';
import type { ApiClient } from '../api';
import { GONE, isSettled, OPEN, signature, type Seen } from './deliveries';
import {
  DEFAULT_POLL_POLICY,
  intervalOf,
  pickProject,
  slotMs,
  type Attention,
  type PollPolicy,
} from './poll-plan';
import { track, type ProfileWatch, type Tracked } from './profile-watch';
import type { PokeTarget, Watcher, WatcherDeps, WatcherMemory } from './watcher-types';

export type {
  PokeTarget,
  Watcher,
  WatcherDeps,
  WatcherEvents,
  WatcherMemory,
  WatcherMemoryStore,
} from './watcher-types';

const PAGE_SIZE = 100;
/** A listing stops after this many rows, whatever page size the service keeps to. */
const MAX_LISTED = 5_000;
/** Longest pause after failures (and the pause a 429 without Retry-After gets). */
const MAX_BACKOFF_MS = 60_000;

/** Creates the watcher. */
export function createWatcher(deps: WatcherDeps): Watcher {
  const { profiles, events } = deps;
  const policy: PollPolicy = { ...DEFAULT_POLL_POLICY, ...deps.policy };
  const clock = (): number => (deps.now ?? (() => new Date()))().getTime();
  const setTimer = deps.setTimer ?? defaultTimer;

  const watches = new Map<string, ProfileWatch>();
  // Loaded once; a profile's remembered deliverables become its baseline on its first poll.
  let remembered: Promise<WatcherMemory> | null = null;
  const memory = (): Promise<WatcherMemory> =>
    (remembered ??= deps.memory
      ? deps.memory.load().catch((): WatcherMemory => ({}))
      : Promise.resolve<WatcherMemory>({}));
  let attention: Attention = { projectId: null, visible: true };
  let running = false;
  let cancelTimer: (() => void) | null = null;
  let nextAt: number | null = null;
  let inFlight: Promise<boolean> | null = null;
  let detach: (() => void) | null = null;
  let lastRequestAt = 0;
  let lastCompletedAt = -Infinity;
  let failures = 0;
  let pausedUntil = 0;
  let activeWatch: ProfileWatch | null = null;
  let current: WatcherStatus = { watching: 0, lastPollAt: null, nextPollInMs: null, failing: false };

  function status(): WatcherStatus {
    return {
      ...current,
      nextPollInMs: nextAt === null ? null : Math.max(0, nextAt - clock()),
      cycleMs: cycleMs(),
    };
  }

  /**
   * One round of the projects in work: every one is checked at least each `coldIntervalMs` while the budget can
   * afford it; past that (about 230 projects shown, 90 hidden) a round takes one slot per project. The budget
   * wins, and the status says how long a round takes.
   */
  function cycleMs(): number | null {
    if (!current.watching) return null;
    return Math.max(policy.coldIntervalMs, current.watching * slotMs(attention, policy));
  }

  function projectStatus(projectId: string): WatchedProject {
    const watch = activeWatch;
    const inWork = watch?.projects.get(projectId);
    const tracked = inWork ?? watch?.completed.get(projectId);
    if (!tracked) return { watched: false, checkedAt: null, nextInMs: null };
    const now = clock();
    let every = policy.completedIntervalMs;
    if (inWork) {
      every = intervalOf(inWork, attention, now, policy);
      // The rest go in turn: a round of them takes as long as the budget needs.
      if (every === policy.coldIntervalMs) every = Math.max(every, cycleMs() ?? every);
    }
    const soonest = nextAt === null ? 0 : Math.max(0, nextAt - now);
    return {
      watched: true,
      checkedAt: tracked.checkedAt ? new Date(tracked.checkedAt).toISOString() : null,
      nextInMs: tracked.checkedAt ? Math.max(soonest, tracked.checkedAt + every - now) : soonest,
    };
  }

  function publish(): void {
    events.emit('watcher.status', status());
  }

  async function watchFor(profileId: string): Promise<ProfileWatch> {
    let watch = watches.get(profileId);
    if (!watch) {
      const saved: Array<[string, Seen]> = Object.entries((await memory())[profileId] ?? {});
      watch = {
        // With a memory from the last run, whatever differs from it is news (it arrived while the app was closed).
        baselineFirstListing: saved.length === 0,
        listedOnce: false,
        quiet: new Set(),
        deliverables: new Map(saved),
        projectOf: new Map(),
        projects: new Map(),
        settled: new Map(),
        completed: new Map(),
        listingPage: null,
        listingRows: 0,
        listingFirstPage: 0,
        listingSeen: new Set(),
        listingStartedAt: 0,
        listedAt: 0,
      };
      watches.set(profileId, watch);
    }
    return watch;
  }

  /** When the next request falls due, or null when nothing will (no projects, no listing owed). */
  function nextDueAt(watch: ProfileWatch | null, now: number): number {
    if (!watch || watch.listingPage !== null) return now;
    const listDue = watch.listedAt + policy.listIntervalMs;
    const { nextDueAt: projectDue } = pickProject(watch.projects.values(), attention, now, policy);
    const completedDue = nextCompletedDue(watch, now);
    return Math.min(listDue, projectDue ?? Infinity, completedDue ?? Infinity);
  }

  /** Completed projects are checked one at a time, at most one per `completedSpacingMs`, each every `completedIntervalMs`. */
  function completedPlan(watch: ProfileWatch, now: number) {
    const lane = { ...policy, coldIntervalMs: policy.completedIntervalMs };
    const resting = { projectId: null, visible: attention.visible };
    return pickProject(watch.completed.values(), resting, now, lane);
  }

  function nextCompletedDue(watch: ProfileWatch, now: number): number | null {
    const { nextDueAt: due } = completedPlan(watch, now);
    return due === null ? null : Math.max(due, lastCompletedAt + policy.completedSpacingMs);
  }

  function step(): Promise<boolean> {
    inFlight ??= (async () => {
      try {
        const { profile, client } = await profiles.active();
        const watch = await watchFor(profile.id);
        activeWatch = watch;
        const now = clock();
        if (watch.listingPage !== null || now >= watch.listedAt + policy.listIntervalMs) {
          lastRequestAt = now;
          await listPage(profile.id, client, watch, now);
          return true;
        }
        const { due } = pickProject(watch.projects.values(), attention, now, policy);
        if (due) {
          lastRequestAt = now;
          await check(profile.id, client, watch, watch.projects.get(due.id)!, now);
          return true;
        }
        // A slot nothing in work needs: a completed project, now and then.
        if (now < lastCompletedAt + policy.completedSpacingMs) return false;
        const { due: late } = completedPlan(watch, now);
        if (!late) return false;
        lastRequestAt = now;
        lastCompletedAt = now;
        await check(profile.id, client, watch, watch.completed.get(late.id)!, now);
        return true;
      } finally {
        inFlight = null;
      }
    })();
    return inFlight;
  }

  async function listPage(
    profileId: string,
    client: ApiClient,
    watch: ProfileWatch,
    now: number,
  ): Promise<void> {
    const page = watch.listingPage ?? 1;
    if (page === 1) {
      watch.listingSeen.clear();
      watch.listingStartedAt = now;
      watch.listingRows = 0;
      watch.listingFirstPage = 0;
    }
    const result = await client.listProjects({ page, pageSize: PAGE_SIZE });
    deps.onProjects?.(profileId, result.projects);
    for (const project of result.projects) track(watch, project, clock);
    const rows = result.projects.length;
    if (page === 1) watch.listingFirstPage = rows;
    watch.listingRows += rows;
    // Pages go on until a short or empty one, even when the service keeps to a smaller page than asked.
    if (pageMayContinue(rows, PAGE_SIZE, watch.listingFirstPage) && watch.listingRows < MAX_LISTED) {
      watch.listingPage = page + 1;
      return;
    }
    // A whole listing: projects no longer listed leave the watch (not one the producer woke meanwhile).
    for (const [id, project] of watch.projects)
      if (!watch.listingSeen.has(id) && project.activeAt < watch.listingStartedAt) watch.projects.delete(id);
    for (const id of watch.completed.keys()) if (!watch.listingSeen.has(id)) watch.completed.delete(id);
    watch.listingPage = null;
    watch.listedAt = now;
    watch.listedOnce = true;
    current = { ...current, watching: watch.projects.size };
  }

  async function check(
    profileId: string,
    client: ApiClient,
    watch: ProfileWatch,
    project: Tracked,
    now: number,
  ): Promise<void> {
    let deliverables: Deliverable[];
    try {
      deliverables = await client.listDeliverables(project.id);
    } catch (error) {
      if (!GONE.has((error as { type?: string }).type ?? '')) throw error;
      watch.projects.delete(project.id);
      watch.completed.delete(project.id);
      return;
    }
    project.checkedAt = now;
    deps.onDeliverables?.(profileId, project.id, deliverables);
    const quiet = watch.quiet.delete(project.id);
    let changed = quiet;
    for (const deliverable of deliverables) {
      watch.projectOf.set(deliverable.id, project.id);
      const seen: Seen = { status: deliverable.status, signature: signature(deliverable) };
      const before = watch.deliverables.get(deliverable.id);
      watch.deliverables.set(deliverable.id, seen);
      if (before ? before.status === seen.status && before.signature === seen.signature : quiet) continue;
      changed = true;
      // A change now often means more to come (the other services of an audio ad): keep it hot.
      project.activeAt = now;
      const ready =
        seen.status === 'reviewable' &&
        (!before || before.status !== 'reviewable' || before.signature !== seen.signature);
      if (ready) {
        // A project woken before any listing named it: its title, once, for the notification.
        if (!project.title)
          project.title = (await client.getProject(project.id).catch(() => null))?.title ?? '';
        events.emit('deliverable.ready', {
          profileId,
          projectId: project.id,
          projectTitle: project.title,
          deliverableId: deliverable.id,
          deliverableName: deliverable.name,
          serviceSubCategory: deliverable.serviceSubCategory,
        });
      }
    }
    const completedInWindow = project.windowEndsAt !== undefined && now < project.windowEndsAt;
    if (isSettled(deliverables)) {
      watch.projects.delete(project.id);
      if (completedInWindow) watch.completed.set(project.id, project);
      else watch.settled.set(project.id, project.title);
    } else if (watch.completed.has(project.id) && deliverables.some((d) => OPEN.has(d.status))) {
      // A revision of a completed project: watched as in work until it is decided again.
      watch.completed.delete(project.id);
      project.activeAt = now;
      watch.projects.set(project.id, project);
    }
    current = { ...current, watching: watch.projects.size };
    if (changed && deps.memory) await remember(profileId, watch);
  }

  async function remember(profileId: string, watch: ProfileWatch): Promise<void> {
    const all = await memory();
    all[profileId] = Object.fromEntries(watch.deliverables);
    // A failed save only means a delivery may be announced again after a restart.
    await deps.memory?.save(all).catch(() => undefined);
  }

  /** One turn of the loop: a step, then the next turn at the budget's pace (or later after failures/429). */
  async function turn(): Promise<void> {
    cancelTimer?.();
    cancelTimer = null;
    nextAt = null;
    try {
      await step();
      failures = 0;
      current = { ...current, failing: false };
    } catch (error) {
      // A failed request is tried again later; the UI shows `failing` (the next user action will surface it).
      failures++;
      current = { ...current, failing: true };
      const asked = retryAfterMs(error);
      if (asked !== null) pausedUntil = clock() + asked;
    }
    current = { ...current, lastPollAt: new Date(clock()).toISOString() };
    if (running) schedule();
    publish();
  }

  function schedule(): void {
    const now = clock();
    const backoff = failures === 0 ? 0 : Math.min(MAX_BACKOFF_MS, slotMs(attention, policy) * 2 ** failures);
    const earliest = Math.max(
      lastRequestAt + slotMs(attention, policy),
      lastRequestAt + backoff,
      pausedUntil,
    );
    const at = Math.max(earliest, nextDueAt(activeWatch, now));
    cancelTimer?.();
    nextAt = at;
    cancelTimer = setTimer(
      () => {
        cancelTimer = null;
        void turn();
      },
      Math.max(0, at - now),
    );
  }

  /** The active profile's watch, or null while the profile cannot be resolved (the next step tries again). */
  async function currentWatch(): Promise<ProfileWatch | null> {
    try {
      return await watchFor((await profiles.active()).profile.id);
    } catch {
      return null;
    }
  }

  /** Makes a project due now: known, settled (the producer acted on it) or not listed yet (just created). */
  function wake(watch: ProfileWatch, projectId: string, hot: boolean, now: number, title = ''): void {
    let project = watch.projects.get(projectId) ?? watch.completed.get(projectId);
    watch.completed.delete(projectId);
    if (!project) {
      title ||= watch.settled.get(projectId) ?? '';
      watch.settled.delete(projectId);
      project = { id: projectId, title, activeAt: 0, checkedAt: 0 };
    }
    watch.projects.set(projectId, project);
    if (hot) project.activeAt = now;
    project.checkedAt = 0;
  }

  async function poke(target?: PokeTarget): Promise<void> {
    const watch = await currentWatch();
    const projectId =
      target?.projectId ?? (target?.deliverableId && watch?.projectOf.get(target.deliverableId));
    if (watch && projectId) wake(watch, projectId, true, clock(), target?.title);
    else if (watch) watch.listedAt = 0;
    if (!target) activeWatch = null; // maybe another profile: resolve it on the next step
    if (!running) return;
    // A step under way may have read the list before the change: take the next turn right after it.
    if (inFlight) await inFlight.catch(() => undefined);
    await turn();
  }

  async function checkNow(projectId?: string): Promise<WatcherStatus> {
    const watch = await currentWatch();
    if (watch && projectId) wake(watch, projectId, true, clock());
    else if (watch) watch.listedAt = 0;
    // A turn under way schedules the next one when it ends; otherwise the next slot moves up, never earlier
    // than the budget allows (schedule() keeps one slot between requests).
    if (running && !inFlight) schedule();
    publish();
    return status();
  }

  return {
    start() {
      if (running) return;
      running = true;
      // Another profile's projects (or a renewed session) are a fresh start: read its list at once. Other
      // profile changes (the service's reachability) cost no request.
      let seenProfile: string | null = null;
      detach =
        events.attach?.((event, payload) => {
          if (event !== 'profile.changed') return;
          const state = payload as Partial<EventPayloads['profile.changed']>;
          const active = state.profiles?.find((p) => p.id === state.activeId);
          const key = `${state.activeId}\n${active?.signedOut ?? false}`;
          if (seenProfile !== null && key === seenProfile) return;
          seenProfile = key;
          void poke();
        }) ?? null;
      schedule();
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
    project: projectStatus,
    checkNow,
    poke,
    attend(next) {
      const sooner = next.visible && (!attention.visible || next.projectId !== attention.projectId);
      attention = { ...next };
      // A project on screen is watched even before a listing finds it (opened from a link or made elsewhere).
      if (sooner && next.projectId && activeWatch && !activeWatch.projects.has(next.projectId))
        wake(activeWatch, next.projectId, false, clock());
      if (running && !inFlight) schedule();
    },
    async observe(profileId, projects) {
      const watch = await watchFor(profileId);
      for (const project of projects) track(watch, project, clock);
      current = { ...current, watching: watch.projects.size };
      if (running && !inFlight) schedule();
    },
    step,
  };
}

/** The pause a 429 asks for (the client's error carries the Retry-After it read), or a minute without one. */
export function retryAfterMs(error: unknown): number | null {
  const e = error as { status?: number; retryAfterMs?: number };
  return e?.status === 429 ? (e.retryAfterMs ?? MAX_BACKOFF_MS) : null;
}

function defaultTimer(fn: () => void, ms: number): () => void {
  const timer = setTimeout(fn, ms);
  timer.unref?.();
  return () => clearTimeout(timer);
}
