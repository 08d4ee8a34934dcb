/** The watcher's public face: what it needs (the bus, a memory store, the active profile) and what it offers. */
import type { Deliverable, ProjectListItem } from '../../../shared/api';
import type { EventName, EventPayloads, WatchedProject, WatcherStatus } from '../../../shared/ipc';
import type { ActiveProfile } from '../profiles';
import type { Attention, PollPolicy } from './poll-plan';

/** The event bus as the watcher uses it (electron/main/kernel/events.ts); `attach` lets it follow profile switches. */
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
  /** Pacing; see DEFAULT_POLL_POLICY. */
  policy?: Partial<PollPolicy>;
  /** Sees every listing page it reads (the review index keeps the rows: no extra request). */
  onProjects?: (profileId: string, projects: readonly ProjectListItem[]) => void;
  /** Sees every deliverables list it reads. */
  onDeliverables?: (profileId: string, projectId: string, deliverables: readonly Deliverable[]) => void;
}

/** What the producer acted on: a project, or a deliverable of one. */
export interface PokeTarget {
  projectId?: string;
  /** The project's title when the caller knows it (a project just created is not listed yet). */
  title?: string;
  deliverableId?: string;
}

export interface Watcher {
  /** Starts polling at the budget's pace. */
  start(): void;
  stop(): void;
  status(): WatcherStatus;
  /** When one project of the active profile was last checked, and about when it will be again. */
  project(projectId: string): WatchedProject;
  /**
   * The producer asked to check now: the project (or, without one, the project list) falls due at once, but the
   * request waits for the budget's next slot, so clicking never spends more than the budget.
   */
  checkNow(projectId?: string): Promise<WatcherStatus>;
  /**
   * The producer acted (project created, revision asked, take rejected): check that project now and keep it hot
   * for the hour. Without a target (profile switch), read the project list again now.
   */
  poke(target?: PokeTarget): Promise<void>;
  /** What the producer is looking at, and whether the window is shown. */
  attend(attention: Attention): void;
  /**
   * Projects the app listed for a profile: those in work join the watch as its own listing would add them (new
   * ones are checked in the budget's next free slots), so the review index knows them before the next listing.
   */
  observe(profileId: string, projects: readonly ProjectListItem[]): Promise<void>;
  /** Spends one request on what is due now; false when nothing was due (tests and the benchmark drive time). */
  step(): Promise<boolean>;
}
