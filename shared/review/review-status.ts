/**
 * Where a project stands for its producer, derived from its deliverables' statuses
 * (docs/service.md#statuses-and-transitions):
 * the projects list shows it, filters by it and counts it; the app opens on what needs review.
 */
import { plural } from '../text/plural';

/** Counts of a project's deliverables by what they wait for. */
export interface ReviewCounts {
  /** Delivered and waiting for the producer's decision. */
  ready: number;
  /** Sent back for a revision: the pro is working on it. */
  inRevision: number;
  /** Approved (or picked as the contest winner). */
  approved: number;
  /** Not delivered yet, or a rejected take whose replacement is on its way. */
  waiting: number;
}

/** One word per project, for the list's filter: the first that applies, in this order. */
export type ReviewState = 'needs-review' | 'in-revision' | 'waiting' | 'approved' | 'canceled' | 'unknown';

/** The filter's order, with the producer's words. */
export const REVIEW_STATES: ReadonlyArray<{ state: ReviewState; label: string }> = [
  { state: 'needs-review', label: 'Needs my review' },
  { state: 'in-revision', label: 'In revision' },
  { state: 'waiting', label: 'Waiting for delivery' },
  { state: 'approved', label: 'Approved' },
  { state: 'canceled', label: 'Canceled' },
];

const APPROVED = new Set(['approved', 'winner']);

/** Statuses of a contest entry that has not been judged: once a winner is picked it never will be. */
const UNJUDGED = new Set(['unassigned', 'assigned', 'rejected']);

/**
 * Counts deliverables by what they wait for; a rejected take counts as waiting until a kept one replaces it.
 * Once a contest has its winner, the service's other entries are decided (they lost and are not replaced): they
 * wait for nothing, so a decided contest is not "waiting for delivery".
 */
export function reviewCounts(
  deliverables: ReadonlyArray<{ status: string; serviceSubCategory?: string; name?: string }>,
): ReviewCounts {
  const counts: ReviewCounts = { ready: 0, inRevision: 0, approved: 0, waiting: 0 };
  const take = (d: { serviceSubCategory?: string; name?: string }) =>
    `${d.serviceSubCategory ?? ''}\n${d.name ?? ''}`;
  const replaced = new Set(deliverables.filter((d) => d.status !== 'rejected').map(take));
  const decided = new Set(deliverables.filter((d) => d.status === 'winner').map((d) => d.serviceSubCategory));
  for (const d of deliverables) {
    if (decided.has(d.serviceSubCategory) && UNJUDGED.has(d.status)) continue;
    if (d.status === 'reviewable') counts.ready++;
    else if (d.status === 'revisionRequested') counts.inRevision++;
    else if (APPROVED.has(d.status)) counts.approved++;
    else if (d.status !== 'rejected' || !replaced.has(take(d))) counts.waiting++;
  }
  return counts;
}

/** The project's state for the filter: canceled first, then what needs the producer, then what needs others. */
export function reviewStateOf(projectStatus: string | undefined, counts: ReviewCounts | null): ReviewState {
  if (projectStatus === 'canceled') return 'canceled';
  // A completed project had every deliverable approved (docs/service.md#transitions): no need to read them to
  // know.
  if (!counts) return projectStatus === 'completed' ? 'approved' : 'unknown';
  if (counts.ready > 0) return 'needs-review';
  if (counts.inRevision > 0) return 'in-revision';
  if (counts.waiting > 0) return 'waiting';
  if (counts.approved > 0) return 'approved';
  return projectStatus === 'completed' ? 'approved' : 'waiting';
}

/** "2 ready for review · 1 in revision": the parts that are not zero, most pressing first. */
export function reviewSummaryText(projectStatus: string | undefined, counts: ReviewCounts | null): string {
  if (projectStatus === 'canceled') return 'Canceled';
  if (!counts) return projectStatus === 'completed' ? 'All approved' : 'Not checked yet';
  const parts: string[] = [];
  if (counts.ready) parts.push(`${counts.ready} ready for review`);
  if (counts.inRevision) parts.push(`${counts.inRevision} in revision`);
  if (counts.waiting) parts.push(`${plural(counts.waiting, 'take')} to come`);
  if (counts.approved && !parts.length) parts.push('All approved');
  else if (counts.approved) parts.push(`${counts.approved} approved`);
  return parts.length ? parts.join(' · ') : 'Waiting for delivery';
}
