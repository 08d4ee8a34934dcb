/**
 * Where each project stands for its producer, per profile, built only from answers main already has: the
 * watcher's listings and deliverable checks, and the app's own reads and decisions. It adds no request to the
 * watcher's budget (poll-plan.ts); the projects list reads it for its review column, filter and counts.
 * It is saved (debounced) to the app data folder, so after a restart the list and the "needs my review" landing
 * answer at once from what was known, marked `asOf` until each project is read again.
 */
import { z } from 'zod';
import type { DeliverableSummary, ProjectListItem } from '../../../shared/api';
import type { EventPayloads, ReviewSnapshot } from '../../../shared/ipc';
import { reviewCounts } from '../../../shared/review';
import type { Cancellation } from '../../../shared/review/cancellation';
import { serviceTime } from '../../../shared/api/schemas';
import type { JsonFile } from '../kernel/json-file';

/** Anything with the event bus's emit (electron/main/kernel/events.ts). */
export interface ReviewIndexEvents {
  emit<E extends 'projects.reviewChanged'>(event: E, payload: EventPayloads[E]): void;
}

export interface ReviewIndex {
  /** Rows of a projects listing (a page of it, or the project just read or canceled). */
  projects(profileId: string, rows: readonly ProjectListItem[]): void;
  /** A project's new status (a cancel's answer). */
  status(profileId: string, projectId: string, status: string): void;
  /** Why a project was canceled and what it cost: the service says so only in the cancel's answer. */
  canceled(profileId: string, projectId: string, cancellation: Cancellation): void;
  /** How many of a project's takes wait for review, as last read; null when they were never read. */
  readyCount(profileId: string, projectId: string): number | null;
  /** The whole deliverables list of one project, as the service answered it. */
  deliverables(profileId: string, projectId: string, list: readonly DeliverableSummary[]): void;
  /** The creation dates of a take's versions, as read: the newest is the project's latest activity known. */
  versions(profileId: string, deliverableId: string, created: readonly string[]): void;
  /** Deliverables a decision answered with (approve, approve all, reject, revision, winner). */
  decided(profileId: string, answers: ReadonlyArray<Pick<DeliverableSummary, 'id' | 'status'>>): void;
  /** The project of a deliverable, when a listing named it. */
  projectOf(profileId: string, deliverableId: string): string | undefined;
  /**
   * The take to review after `after` (the one on screen, decided or not), across the profile's projects: the
   * oldest project first, its takes in name order, wrapping round; null when no other take waits. `back`: the
   * one before it.
   */
  nextReady(
    profileId: string,
    after?: string,
    back?: boolean,
  ): { projectId: string; deliverableId: string } | null;
  /** A deliverable's status as last read or decided (kept across restarts), if the index knows it. */
  deliverableStatus(profileId: string, projectId: string, deliverableId: string): string | undefined;
  snapshot(profileId: string): ReviewSnapshot;
  /** Reads the saved index (before anything else is recorded; what is recorded meanwhile wins). */
  load(): Promise<void>;
  /** Drops the index of profiles that no longer exist. */
  keepOnly(profileIds: readonly string[]): void;
  /** Writes what is pending now (app quit). */
  flush(): Promise<void>;
}

/** The saved index: per profile, each project's row and deliverables, and when those were read. */
export interface SavedReviewIndex {
  version: 1;
  profiles: Record<
    string,
    Array<{
      row: ProjectListItem;
      deliverables: DeliverableSummary[] | null;
      checkedAt: string | null;
      cancellation?: Cancellation;
      lastActivity?: string;
    }>
  >;
}

export interface ReviewIndexOptions {
  file?: JsonFile<SavedReviewIndex>;
  now?: () => Date;
  /** Changes within this time go in one write. Default 2 s. */
  saveDelayMs?: number;
}

interface Entry {
  row: ProjectListItem | null;
  deliverables: Map<string, DeliverableSummary> | null;
  /** When the deliverables were last read (ISO), this run or an earlier one. */
  checkedAt: string | null;
  /** Counts from an earlier run, not read again since this start. */
  stale: boolean;
  cancellation?: Cancellation;
  /**
   * The newest activity the app has seen on the project (ISO): a take's newest version date as read, or when a
   * listing first showed a take delivered (new, or ready for review again). The service has no update time.
   */
  lastActivity?: string;
}

interface ProfileIndex {
  entries: Map<string, Entry>;
  projectOf: Map<string, string>;
}

/** Creates the index; `projects.reviewChanged` tells the renderer which profile's snapshot changed. */
export function createReviewIndex(events: ReviewIndexEvents, options: ReviewIndexOptions = {}): ReviewIndex {
  const profiles = new Map<string, ProfileIndex>();
  const now = options.now ?? (() => new Date());
  const saveDelayMs = options.saveDelayMs ?? 2000;
  let saveTimer: NodeJS.Timeout | null = null;
  let saving: Promise<void> = Promise.resolve();

  function indexOf(profileId: string): ProfileIndex {
    let index = profiles.get(profileId);
    if (!index) {
      index = { entries: new Map(), projectOf: new Map() };
      profiles.set(profileId, index);
    }
    return index;
  }

  function entryOf(index: ProfileIndex, projectId: string): Entry {
    let entry = index.entries.get(projectId);
    if (!entry) {
      entry = { row: null, deliverables: null, checkedAt: null, stale: false };
      index.entries.set(projectId, entry);
    }
    return entry;
  }

  const changed = (profileId: string) => {
    events.emit('projects.reviewChanged', { profileId });
    scheduleSave();
  };

  function scheduleSave(): void {
    if (!options.file || saveTimer) return;
    saveTimer = setTimeout(() => void save(), saveDelayMs);
    saveTimer.unref?.();
  }

  function save(): Promise<void> {
    if (saveTimer) clearTimeout(saveTimer);
    saveTimer = null;
    const file = options.file;
    if (!file) return saving;
    const value = saved();
    // One write at a time, in order; a failed write only means an older index after a restart.
    saving = saving.then(() => file.save(value)).catch(() => undefined);
    return saving;
  }

  function saved(): SavedReviewIndex {
    const out: SavedReviewIndex = { version: 1, profiles: {} };
    for (const [profileId, index] of profiles) {
      out.profiles[profileId] = [...index.entries.values()]
        .filter((entry): entry is Entry & { row: ProjectListItem } => entry.row !== null)
        .map((entry) => ({
          row: entry.row,
          deliverables: entry.deliverables ? [...entry.deliverables.values()] : null,
          checkedAt: entry.checkedAt,
          ...(entry.cancellation ? { cancellation: entry.cancellation } : {}),
          ...(entry.lastActivity ? { lastActivity: entry.lastActivity } : {}),
        }));
    }
    return out;
  }

  return {
    projects(profileId, rows) {
      const index = indexOf(profileId);
      let any = false;
      for (const row of rows) {
        const entry = entryOf(index, row.id);
        const before = entry.row;
        // A full project (from a read) carries more than a listing row: keep the row's fields, take its news.
        entry.row = { ...before, ...listRow(row) };
        if (!before || before.status !== row.status || before.title !== row.title) any = true;
      }
      if (any) changed(profileId);
    },
    status(profileId, projectId, status) {
      const row = profiles.get(profileId)?.entries.get(projectId)?.row;
      if (!row || row.status === status) return;
      row.status = status as ProjectListItem['status'];
      changed(profileId);
    },
    canceled(profileId, projectId, cancellation) {
      const entry = profiles.get(profileId)?.entries.get(projectId);
      if (!entry?.row) return;
      entry.cancellation = cancellation;
      changed(profileId);
    },
    readyCount(profileId, projectId) {
      const list = profiles.get(profileId)?.entries.get(projectId)?.deliverables;
      return list ? [...list.values()].filter((d) => d.status === 'reviewable').length : null;
    },
    deliverables(profileId, projectId, list) {
      const index = indexOf(profileId);
      const entry = entryOf(index, projectId);
      const next = new Map(list.map((d) => [d.id, summary(d)]));
      for (const id of next.keys()) index.projectOf.set(id, projectId);
      // A take new to a list read before, or ready for review again, was delivered since: seen now.
      const before = entry.deliverables;
      const delivered =
        before !== null &&
        [...next.values()].some(
          (d) =>
            !before.has(d.id) || (d.status === 'reviewable' && before.get(d.id)?.status !== 'reviewable'),
        );
      if (delivered) noteActivity(entry, now().getTime());
      const same =
        !delivered &&
        entry.deliverables !== null &&
        entry.deliverables.size === next.size &&
        [...next].every(([id, d]) => entry.deliverables?.get(id)?.status === d.status);
      entry.deliverables = next;
      entry.checkedAt = now().toISOString();
      const wasStale = entry.stale;
      entry.stale = false;
      if (!same || wasStale) changed(profileId);
    },
    decided(profileId, answers) {
      const index = indexOf(profileId);
      let any = false;
      for (const answer of answers) {
        const projectId = index.projectOf.get(answer.id);
        const known = projectId ? index.entries.get(projectId)?.deliverables?.get(answer.id) : undefined;
        if (known && known.status !== answer.status) {
          known.status = answer.status;
          any = true;
        }
      }
      if (any) changed(profileId);
    },
    versions(profileId, deliverableId, created) {
      const projectId = profiles.get(profileId)?.projectOf.get(deliverableId);
      const entry = projectId ? profiles.get(profileId)?.entries.get(projectId) : undefined;
      if (!entry) return;
      const newest = Math.max(...created.map(serviceTime).filter(Number.isFinite));
      if (noteActivity(entry, newest)) changed(profileId);
    },
    projectOf: (profileId, deliverableId) => profiles.get(profileId)?.projectOf.get(deliverableId),
    nextReady(profileId, after, back = false) {
      const takes = reviewOrder(profiles.get(profileId));
      if (back) takes.reverse();
      const from = takes.findIndex((t) => t.deliverableId === after);
      for (let i = 1; i <= takes.length; i++) {
        const t = takes[(from + i) % takes.length]!;
        if (t.ready && t.deliverableId !== after)
          return { projectId: t.projectId, deliverableId: t.deliverableId };
      }
      return null;
    },
    deliverableStatus: (profileId, projectId, deliverableId) =>
      profiles.get(profileId)?.entries.get(projectId)?.deliverables?.get(deliverableId)?.status,
    snapshot(profileId) {
      const index = profiles.get(profileId);
      const projects: ReviewSnapshot['projects'] = [];
      for (const entry of index?.entries.values() ?? []) {
        if (!entry.row) continue;
        projects.push({
          project: entry.row,
          counts: entry.deliverables ? reviewCounts([...entry.deliverables.values()]) : null,
          ...(entry.stale && entry.checkedAt ? { asOf: entry.checkedAt } : {}),
          ...(entry.cancellation ? { cancellation: entry.cancellation } : {}),
          ...(entry.lastActivity ? { lastActivity: entry.lastActivity } : {}),
        });
      }
      return { profileId, projects };
    },
    async load() {
      const value = await options.file?.load();
      for (const [profileId, rows] of Object.entries(value?.profiles ?? {})) {
        const index = indexOf(profileId);
        for (const { row, deliverables, checkedAt, cancellation, lastActivity } of rows) {
          if (index.entries.has(row.id)) continue; // read since this start: newer than the file
          const list = deliverables ?? null;
          index.entries.set(row.id, {
            row,
            deliverables: list ? new Map(list.map((d) => [d.id, d])) : null,
            checkedAt,
            stale: list !== null,
            ...(cancellation ? { cancellation } : {}),
            ...(lastActivity ? { lastActivity } : {}),
          });
          for (const d of list ?? []) index.projectOf.set(d.id, row.id);
        }
      }
    },
    keepOnly(profileIds) {
      let any = false;
      for (const id of profiles.keys())
        if (!profileIds.includes(id)) {
          profiles.delete(id);
          any = true;
        }
      if (any) scheduleSave();
    },
    flush: () => (saveTimer ? save() : saving),
  };
}

/** Moves the project's latest activity to `time` (ms) when that is later; true when it moved. */
function noteActivity(entry: Entry, time: number): boolean {
  if (!Number.isFinite(time)) return false;
  if (entry.lastActivity && Date.parse(entry.lastActivity) >= time) return false;
  entry.lastActivity = new Date(time).toISOString();
  return true;
}

/** The fields a list row shows (a project read carries its services and more: not kept). */
function listRow(project: ProjectListItem): ProjectListItem {
  const { id, title, mainService, fulfillmentType, created, status, price } = project;
  return Object.fromEntries(
    Object.entries({ id, title, mainService, fulfillmentType, created, status, price }).filter(
      ([, value]) => value !== undefined,
    ),
  ) as ProjectListItem;
}

function summary(d: DeliverableSummary): DeliverableSummary {
  return { id: d.id, serviceSubCategory: d.serviceSubCategory, name: d.name, status: d.status };
}

/**
 * The shape of a saved index, checked before it is used; a file of another version is ignored, and a bad row is
 * dropped alone (state-recovery.ts).
 */
export const SavedReviewIndexSchema = z.object({
  version: z.literal(1),
  profiles: z.record(
    z.string(),
    z.array(
      z.object({
        row: z.looseObject({ id: z.string() }),
        deliverables: z.array(z.looseObject({ id: z.string(), status: z.string() })).nullable(),
        checkedAt: z.string().nullable(),
        cancellation: z
          .object({
            reason: z.string(),
            reasonCode: z.string(),
            feePercent: z.number().nullable(),
            fee: z.number().nullable(),
            at: z.string(),
          })
          .optional(),
        lastActivity: z.string().optional(),
      }),
    ),
  ),
}) as unknown as z.ZodType<SavedReviewIndex>;

export function isSavedReviewIndex(value: unknown): value is SavedReviewIndex {
  return SavedReviewIndexSchema.safeParse(value).success;
}

const byName = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * Every known take of the profile's live projects in the order a producer works through them: the oldest project
 * first (it has waited longest), then its takes by service and name ("2" before "10"). Decided takes stay in the
 * order, so the one just decided still says where "next" starts.
 */
function reviewOrder(
  index: ProfileIndex | undefined,
): Array<{ projectId: string; deliverableId: string; ready: boolean }> {
  const projects = [...(index?.entries.entries() ?? [])]
    .filter(([, entry]) => entry.row && entry.row.status !== 'canceled' && entry.deliverables)
    .sort(
      ([a, x], [b, y]) => (x.row!.created ?? '').localeCompare(y.row!.created ?? '') || a.localeCompare(b),
    );
  return projects.flatMap(([projectId, entry]) =>
    [...entry.deliverables!.values()]
      .sort(
        (x, y) =>
          byName.compare(x.serviceSubCategory, y.serviceSubCategory) ||
          byName.compare(x.name, y.name) ||
          x.id.localeCompare(y.id),
      )
      .map((d) => ({ projectId, deliverableId: d.id, ready: d.status === 'reviewable' })),
  );
}
