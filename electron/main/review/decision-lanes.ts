/**
 * The order rule of the decisions: a project's decisions reach the service one after another, in the order they
 * were made; a later one waits while an earlier one of its project is queued, sending, held or failed. Other
 * projects go on.
 */
import type { OutboxDecision, OutboxHeard } from '../../../shared/ipc';
import type { Row } from './decision-rows';

/** The order lane: a project's decisions go one after another. */
export function laneOf(decision: OutboxDecision, heard: OutboxHeard | undefined): string {
  if ('projectId' in decision) return `project:${decision.projectId}`;
  return heard?.projectId ? `project:${heard.projectId}` : `deliverable:${decision.deliverableId}`;
}

/**
 * An earlier decision of the same project still waits (queued, sending, held or failed): this one goes after it.
 * `accountRows`: every row of the row's account.
 */
export function earlierInLane(row: Row, accountRows: readonly Row[]): boolean {
  return accountRows.some(
    (other) =>
      other.lane === row.lane &&
      other.seq < row.seq &&
      (other.state === 'queued' ||
        other.state === 'sending' ||
        other.state === 'held' ||
        other.state === 'failed'),
  );
}
