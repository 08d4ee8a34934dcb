/**
 * Which decisions the producer is offered, from the service's state machine
 * (docs/service.md#statuses-and-transitions). One rule for the project page, the review page and their tests:
 * a button is shown
 * only where the service would accept the call, so a 4xx is the exception (another window, another device).
 */

/** The decisions a producer can take on a project or one of its deliverables. */
export type ReviewAction = 'approve' | 'approveAll' | 'reject' | 'revision' | 'winner' | 'cancel';

/** What the rule reads of a project. */
export interface ProjectFacts {
  status: string;
  fulfillmentType?: string;
}

/** What the rule reads of a deliverable. */
export interface DeliverableFacts {
  status: string;
}

/**
 * Project statuses after which nothing can be decided (docs/service.md#cancellation-drops-the-deliverables).
 */
const CLOSED_PROJECT = new Set(['canceled']);
/**
 * A take that was delivered and not rejected: revisions stay possible after approval
 * (docs/service.md#transitions).
 */
const REVISABLE = new Set(['reviewable', 'approved', 'winner']);
/** Not delivered yet (docs/service.md#undelivered-takes): nothing to judge, so nothing to reject. */
const UNDELIVERED = new Set(['unassigned', 'assigned']);

/** A completed project had every take approved (docs/service.md#project-statuses): there is no work left to cancel. */
const FINISHED_PROJECT = new Set(['completed']);

/**
 * Actions on the project as a whole: approve all needs a take pending review and is never offered on a contest
 * (its entries compete: approving them all would pay every entrant and leave no winner to pick); cancel needs
 * work still in progress.
 */
export function projectActions(
  project: ProjectFacts,
  deliverables: readonly DeliverableFacts[],
): Set<Extract<ReviewAction, 'approveAll' | 'cancel'>> {
  const allowed = new Set<'approveAll' | 'cancel'>();
  if (CLOSED_PROJECT.has(project.status)) return allowed;
  if (!FINISHED_PROJECT.has(project.status)) allowed.add('cancel');
  const contest = project.fulfillmentType === 'contest';
  if (!contest && deliverables.some((d) => d.status === 'reviewable')) allowed.add('approveAll');
  return allowed;
}

/**
 * Actions on one deliverable. `siblings` are the project's deliverables (for a contest's single winner); pass
 * an empty list when they are not known and the service has the last word.
 */
export function deliverableActions(
  project: ProjectFacts | null,
  deliverable: DeliverableFacts,
  siblings: readonly DeliverableFacts[] = [],
): Set<Exclude<ReviewAction, 'approveAll' | 'cancel'>> {
  const allowed = new Set<'approve' | 'reject' | 'revision' | 'winner'>();
  if (project && CLOSED_PROJECT.has(project.status)) return allowed;
  const { status } = deliverable;
  if (status === 'reviewable') allowed.add('approve');
  if (REVISABLE.has(status)) allowed.add('revision');
  if (status !== 'rejected' && !UNDELIVERED.has(status)) allowed.add('reject');
  const contest = project?.fulfillmentType === 'contest';
  if (contest && status === 'reviewable' && !siblings.some((d) => d.status === 'winner'))
    allowed.add('winner');
  return allowed;
}
