import type { ClientApi } from '../../../shared/ipc/api';
import { createReadyBatcher, readyBatchText, type ReadyTake } from '../../../shared/review/ready-batch';
import type { Toast } from '../stores/notifications';

/** Where a batch's toast leads: the take itself when alone, its project when one, otherwise the list. */
function linkOf(batch: readonly ReadyTake[]): string {
  const [first] = batch;
  if (!first) return '/projects';
  if (batch.length === 1)
    return `/review/${first.deliverableId}?projectId=${encodeURIComponent(first.projectId)}`;
  return batch.every((t) => t.projectId === first.projectId) ? `/projects/${first.projectId}` : '/projects';
}

/**
 * One toast per batch of deliveries (a watcher turn), not one per take stacking over the form: it says how many
 * and where. The turn's end is main's `watcher.status`. Returns the unsubscribe.
 */
export function showReadyToasts(
  api: Pick<ClientApi, 'on'>,
  push: (toast: Omit<Toast, 'id'>, ms?: number) => unknown,
): () => void {
  const batcher = createReadyBatcher((batch) => {
    const { title, body } = readyBatchText(batch);
    push({ kind: 'info', title, detail: body, to: linkOf(batch) });
  });
  const offReady = api.on('deliverable.ready', (event) => batcher.add(event));
  const offStatus = api.on('watcher.status', () => batcher.end());
  return () => {
    offReady();
    offStatus();
    batcher.dispose();
  };
}
