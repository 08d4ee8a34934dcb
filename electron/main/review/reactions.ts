/**
 * The review's reactions to main's events: the outbox sends when the service answers again and follows a profile
 * switch, the review index keeps only existing profiles, and a sent decision has the watcher look again.
 */
import type { OutboxDecision, OutboxItem, ProfilesState } from '../../../shared/ipc';
import type { EventBus } from '../kernel/events';
import type { ReviewIndex } from './review-index';
import type { PokeTarget } from '../watcher';

export interface ReviewReactionDeps {
  events: EventBus;
  outbox: { list(): Promise<OutboxItem[]>; noticeReachable(): void };
  review: Pick<ReviewIndex, 'keepOnly'>;
  /** The profiles changed (one added, removed or switched to): the read mirror forgets removed accounts. */
  onProfiles?: (state: ProfilesState) => void;
}

/** Attaches the reactions to the bus; answers the function that detaches them. */
export function attachReviewReactions({
  events,
  outbox,
  review,
  onProfiles,
}: ReviewReactionDeps): () => void {
  return events.attach((event, payload) => {
    // The watcher's own requests tell when the service answers again: queued decisions go then.
    if (event === 'watcher.status' && !(payload as { failing: boolean }).failing) outbox.noticeReachable();
    // A switch shows that profile's outbox; its queued items go unless its service is known to be away.
    else if (event === 'profile.changed') {
      const state = payload as ProfilesState;
      if (Array.isArray(state.profiles)) {
        review.keepOnly(state.profiles.map((p) => p.id));
        onProfiles?.(state);
      }
      const active = state.profiles.find((p) => p.id === state.activeId);
      void outbox.list().then((items) => {
        events.emit('outbox.changed', items);
        if (active?.reachability !== 'unreachable') outbox.noticeReachable();
      });
    }
  });
}

/** What the watcher looks at again once the service has a decision: its take, or its project. */
export const pokeTargetOf = (decision: OutboxDecision): PokeTarget =>
  'deliverableId' in decision ? { deliverableId: decision.deliverableId } : { projectId: decision.projectId };
