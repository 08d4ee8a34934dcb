/**
 * How a review action runs: one busy flag, each action's own error next to its button, the last success in words
 * for a polite live region, and a decision main kept in the outbox (the service could not be reached) told apart.
 * Also the one action that is not a decision: downloading the selected version's file.
 */
import { ref } from 'vue';
import type { ClientApi, MediaFormat } from '../../../../shared/ipc';
import { isQueuedOffline, type useOutboxStore } from '../outbox';
import type { ReviewAction } from './model';
import type { ReviewState } from './state';

export function reviewActions(api: ClientApi, state: ReviewState, outbox: ReturnType<typeof useOutboxStore>) {
  const busy = ref<ReviewAction | null>(null);
  const actionErrors = ref<Partial<Record<ReviewAction, unknown>>>({});
  /** Text of the last successful action, for a polite live region. */
  const lastResult = ref('');

  /** Runs an action; `'queued'` when main kept it in the outbox (the service could not be reached). */
  async function runAction<T>(action: ReviewAction, call: () => Promise<T>): Promise<T | 'queued' | null> {
    busy.value = action;
    const { [action]: _cleared, ...rest } = actionErrors.value;
    actionErrors.value = rest;
    try {
      return await call();
    } catch (e) {
      if (isQueuedOffline(e)) {
        void outbox.load();
        return 'queued';
      }
      actionErrors.value = { ...actionErrors.value, [action]: e };
      return null;
    } finally {
      busy.value = null;
    }
  }

  /** Queues the selected version's file for download ("Download to analyse"). */
  async function download(format: MediaFormat = 'wav'): Promise<boolean> {
    const id = state.deliverableId.value;
    if (!id) return false;
    const version = state.selectedVersion.value;
    const projectId = state.project.value?.id;
    const job = await runAction('download', async () => {
      if (!projectId) throw new Error('Open this deliverable from its project to download it.');
      return api.downloads.start({ deliverableId: id, projectId, format, version });
    });
    if (job && job !== 'queued') lastResult.value = `Downloading ${format.toUpperCase()}…`;
    return job !== null && job !== 'queued';
  }

  /** Forgets the errors and the result of the deliverable shown before. */
  function reset(): void {
    actionErrors.value = {};
    lastResult.value = '';
  }

  return { busy, actionErrors, lastResult, runAction, download, reset };
}

export type ReviewActions = ReturnType<typeof reviewActions>;
