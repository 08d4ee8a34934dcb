/**
 * What the watcher keeps per profile: the projects it watches, what it has seen of them, its listing under way; and
 * how a listed project joins or leaves the watch.
 */
import type { ProjectListItem } from '../../../shared/api';
import { inRevisionWindow, revisionWindowEnd } from '../../../shared/review/revision-window';
import type { Seen } from './deliveries';
import type { TrackedProject } from './poll-plan';

/** A project the watcher checks, with its title. */
export interface Tracked extends TrackedProject {
  title: string;
  /** A completed project: when its revision window closes (epoch ms). */
  windowEndsAt?: number;
}

export interface ProfileWatch {
  /** Without a memory of an earlier run, what the first listing finds is a baseline, not news. */
  baselineFirstListing: boolean;
  listedOnce: boolean;
  /** Projects of the first listing whose first check is quiet. */
  quiet: Set<string>;
  deliverables: Map<string, Seen>;
  projectOf: Map<string, string>;
  /** Projects in work. */
  projects: Map<string, Tracked>;
  /** Projects whose deliverables are all final, with their titles: skipped until the producer acts on them. */
  settled: Map<string, string>;
  /**
   * Completed projects within their revision window: a revision may still be asked (from another device) and
   * delivered, so each is looked at now and then, in slots nothing in work needs.
   */
  completed: Map<string, Tracked>;
  /** The next page of a listing under way, or null. */
  listingPage: number | null;
  /** Rows of this listing so far, and the length of its first page (the service may keep to a smaller size). */
  listingRows: number;
  listingFirstPage: number;
  listingSeen: Set<string>;
  listingStartedAt: number;
  listedAt: number;
}

/** A listed project joins, stays in or leaves the watch, by its status (`clock`: now, in epoch ms). */
export function track(watch: ProfileWatch, project: ProjectListItem, clock: () => number): void {
  if (project.status === 'canceled') {
    watch.projects.delete(project.id);
    watch.completed.delete(project.id);
    return;
  }
  if (project.status === 'completed') {
    trackCompleted(watch, project, clock);
    return;
  }
  watch.completed.delete(project.id);
  watch.listingSeen.add(project.id);
  if (watch.settled.has(project.id)) return;
  const known = watch.projects.get(project.id);
  if (known) {
    known.title = project.title;
    return;
  }
  // A project that appears after the first listing was just made (elsewhere: the web dashboard): its first
  // deliveries are near, so it is hot for the hour like one the producer made here.
  const activeAt = watch.listedOnce ? clock() : 0;
  watch.projects.set(project.id, { id: project.id, title: project.title, activeAt, checkedAt: 0 });
  if (!watch.listedOnce && watch.baselineFirstListing) watch.quiet.add(project.id);
}

/**
 * A completed project stays in work while a revision of it is (the service keeps it `completed`); otherwise,
 * within its revision window, it joins the slow lane of completed projects; after it, it leaves the watch.
 */
function trackCompleted(watch: ProfileWatch, project: ProjectListItem, clock: () => number): void {
  const windowEndsAt = revisionWindowEnd(project) ?? undefined;
  if (!inRevisionWindow(project, clock())) {
    watch.projects.delete(project.id);
    watch.completed.delete(project.id);
    return;
  }
  watch.listingSeen.add(project.id);
  const working = watch.projects.get(project.id);
  if (working) {
    working.title = project.title;
    working.windowEndsAt = windowEndsAt;
    return;
  }
  const known = watch.completed.get(project.id);
  if (known) {
    known.title = project.title;
    return;
  }
  watch.settled.delete(project.id);
  watch.completed.set(project.id, {
    id: project.id,
    title: project.title,
    activeAt: 0,
    checkedAt: 0,
    windowEndsAt,
  });
  if (!watch.listedOnce && watch.baselineFirstListing) watch.quiet.add(project.id);
}
