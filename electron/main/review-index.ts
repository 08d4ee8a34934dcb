/**
 * Where each project stands for its producer, per profile, built only from answers main already has: the
 * watcher's listings and deliverable checks, and the app's own reads and decisions. It adds no request to the
 * watcher's budget (poll-plan.ts); the projects list reads it for its review column, filter and counts.
 */
import type { DeliverableSummary, ProjectListItem } from '../../shared/api';
import type { EventPayloads, ReviewSnapshot } from '../../shared/ipc';
import { reviewCounts } from '../../shared/review';

/** Anything with the event bus's emit (electron/main/events.ts). */
export interface ReviewIndexEvents {
  emit<E extends 'projects.reviewChanged'>(event: E, payload: EventPayloads[E]): void;
}

export interface ReviewIndex {
  /** Rows of a projects listing (a page of it, or the project just read or canceled). */
  projects(profileId: string, rows: readonly ProjectListItem[]): void;
  /** A project's new status (a cancel's answer). */
  status(profileId: string, projectId: string, status: string): void;
  /** The whole deliverables list of one project, as the service answered it. */
  deliverables(profileId: string, projectId: string, list: readonly DeliverableSummary[]): void;
  /** Deliverables a decision answered with (approve, approve all, reject, revision, winner). */
  decided(profileId: string, answers: ReadonlyArray<Pick<DeliverableSummary, 'id' | 'status'>>): void;
  /** The project of a deliverable, when a listing named it. */
  projectOf(profileId: string, deliverableId: string): string | undefined;
  snapshot(profileId: string): ReviewSnapshot;
}

interface Entry {
  row: ProjectListItem | null;
  deliverables: Map<string, DeliverableSummary> | null;
}

interface ProfileIndex {
  entries: Map<string, Entry>;
  projectOf: Map<string, string>;
}

/** Creates the index; `projects.reviewChanged` tells the renderer which profile's snapshot changed. */
export function createReviewIndex(events: ReviewIndexEvents): ReviewIndex {
  const profiles = new Map<string, ProfileIndex>();

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
      entry = { row: null, deliverables: null };
      index.entries.set(projectId, entry);
    }
    return entry;
  }

  const changed = (profileId: string) => events.emit('projects.reviewChanged', { profileId });

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
    deliverables(profileId, projectId, list) {
      const index = indexOf(profileId);
      const entry = entryOf(index, projectId);
      const next = new Map(list.map((d) => [d.id, summary(d)]));
      for (const id of next.keys()) index.projectOf.set(id, projectId);
      const same =
        entry.deliverables !== null &&
        entry.deliverables.size === next.size &&
        [...next].every(([id, d]) => entry.deliverables?.get(id)?.status === d.status);
      entry.deliverables = next;
      if (!same) changed(profileId);
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
    projectOf: (profileId, deliverableId) => profiles.get(profileId)?.projectOf.get(deliverableId),
    snapshot(profileId) {
      const index = profiles.get(profileId);
      const projects: ReviewSnapshot['projects'] = [];
      for (const entry of index?.entries.values() ?? []) {
        if (!entry.row) continue;
        projects.push({
          project: entry.row,
          counts: entry.deliverables ? reviewCounts([...entry.deliverables.values()]) : null,
        });
      }
      return { profileId, projects };
    },
  };
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
