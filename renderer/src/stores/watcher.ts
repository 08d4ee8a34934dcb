import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { WatchedProject, WatcherStatus } from '../../../shared/ipc';
import { useApi } from '../bridge';

/**
 * How often main's watcher checks for deliveries, for the account and per project, and "Check now" (which main
 * runs in the budget's next slot, so a click never spends more than the budget).
 */
export const useWatcherStore = defineStore('watcher', () => {
  const api = useApi();
  const status = ref<WatcherStatus | null>(null);
  /** When `status` arrived: `nextPollInMs` counts from then. */
  const statusAt = ref(0);
  const projects = ref<Record<string, WatchedProject & { at: number }>>({});
  const checking = ref<string | null>(null);
  const checkError = ref<unknown>(null);

  function take(next: WatcherStatus): void {
    status.value = next;
    statusAt.value = Date.now();
  }

  async function loadStatus(): Promise<void> {
    take(await api.watcher.status());
  }

  async function loadProject(projectId: string): Promise<void> {
    const watched = await api.watcher.project({ projectId });
    projects.value = { ...projects.value, [projectId]: { ...watched, at: Date.now() } };
  }

  /** Asks main to check now: the project, or without one the project list. '' names the account in `checking`. */
  async function checkNow(projectId?: string): Promise<void> {
    checking.value = projectId ?? '';
    checkError.value = null;
    try {
      take(await api.watcher.checkNow(projectId ? { projectId } : {}));
      if (projectId) await loadProject(projectId);
    } catch (error) {
      checkError.value = error;
    } finally {
      checking.value = null;
    }
  }

  /** Follows the watcher's turns; `projectIds()` are the projects on screen, read again after each turn. */
  function listen(projectIds: () => string[] = () => []): () => void {
    return api.on('watcher.status', (next) => {
      take(next);
      for (const id of projectIds()) void loadProject(id).catch(() => undefined);
    });
  }

  return { status, statusAt, projects, checking, checkError, loadStatus, loadProject, checkNow, listen };
});
