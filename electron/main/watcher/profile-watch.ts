/** What the watcher keeps per profile: the projects it watches, what it has seen of them, its listing under way. */
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
