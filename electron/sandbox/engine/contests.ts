// Contests: picking the winner of a contest project, which decides the other entries of its service.
import { SandboxError } from '../sandbox-error';
import { ownValue, type Json, type Store } from './store';
import { summary } from './views';

export function createContestOps(store: Store) {
  const { deps, st, findDeliverable, deliverablesOf, settle, setStatus } = store;

  return {
    selectWinner(userId: string, id: string): Json {
      const { d, project } = findDeliverable(id, userId);
      // The live pages list no winner (docs/service.md#contest-winners): under live shapes the service
      // refuses it.
      if (deps.liveShapes)
        throw new SandboxError('STATUS_NOT_ALLOWED', 'status must be approved or rejected.');
      if (project.fulfillmentType !== 'contest') {
        throw new SandboxError('PROJECT_NOT_CONTEST', 'A winner can only be selected in a contest project.');
      }
      if (project.winnerId) throw new SandboxError('WINNER_ALREADY_SELECTED');
      if (d.status !== 'reviewable') throw new SandboxError('DELIVERABLE_NOT_PENDING_REVIEW');
      setStatus(d, 'winner');
      project.winnerId = d.id;
      // The other entries of the same service lose: they are rejected and not replaced.
      for (const other of deliverablesOf(project.id)) {
        if (other.id !== d.id && other.serviceId === d.serviceId && other.entry !== undefined) {
          if (other.status === 'reviewable' || other.status === 'revisionRequested') {
            setStatus(other, 'rejected');
            delete other.pendingRevision;
          }
        }
      }
      const state = st();
      state.work = state.work.filter(
        (w) =>
          !(
            w.projectId === project.id &&
            w.deliverableId !== undefined &&
            ownValue(state.deliverables, w.deliverableId)?.serviceId === d.serviceId &&
            w.deliverableId !== d.id
          ),
      );
      settle(project);
      return summary(d);
    },
  };
}
