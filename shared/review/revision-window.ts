/**
 * Revisions after completion. The live service lets a client ask for revisions of approved takes after the project
 * is `completed` (its status pages say "depending on agreement"; its help centre gives bookings 90 days after
 * delivery). The list gives no delivery or completion date, only the order's `created`, so the window is counted
 * from there: it may end a few days before the service's, never after it.
 */
import { serviceTime } from '../api/schemas';

/** How long after delivery revisions stay possible. */
export const REVISION_WINDOW_MS = 90 * 24 * 3_600_000;

/** What the window reads of a project. */
export interface RevisionWindowFacts {
  status?: string;
  created?: string;
}

/** Epoch ms when revisions of a completed project stop being possible; null when not completed or undated. */
export function revisionWindowEnd(project: RevisionWindowFacts): number | null {
  if (project.status !== 'completed') return null;
  const created = serviceTime(project.created);
  return Number.isFinite(created) ? created + REVISION_WINDOW_MS : null;
}

/** A completed project whose revision window is still open at `now`. */
export function inRevisionWindow(project: RevisionWindowFacts, now: number): boolean {
  const end = revisionWindowEnd(project);
  return end !== null && now < end;
}
