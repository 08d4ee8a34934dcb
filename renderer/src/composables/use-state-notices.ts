import type { StateNotice } from '../../../shared/ipc';
import type { ClientApi } from '../../../shared/ipc/api';
import type { Toast } from '../stores/notifications';

/**
 * Tells the producer, once, what main recovered from a damaged state file (settings, tokens, library list…): what
 * was reset and where the damaged copy is. Main hands each notice out once (`app.notices`); they are taken at start
 * and whenever main says new ones wait. The toast stays until dismissed. Returns the unsubscribe.
 */
export function showStateNotices(
  api: Pick<ClientApi, 'app' | 'on'>,
  push: (toast: Omit<Toast, 'id'>, ms?: number) => unknown,
): () => void {
  const show = (notice: StateNotice) =>
    push({ kind: 'error', title: `${notice.label} was damaged and recovered`, detail: notice.message }, 0);
  // Nothing to show if main cannot be asked: the next notice event asks again.
  const take = () =>
    void api.app
      .notices()
      .then((notices) => notices.forEach(show))
      .catch(() => undefined);
  const off = api.on('app.notices', take);
  take();
  return off;
}
