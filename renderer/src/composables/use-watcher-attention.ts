import { computed, onBeforeUnmount, onMounted, ref, watch } from 'vue';
import type { RouteLocationNormalizedLoaded } from 'vue-router';
import type { ClientApi } from '../../../shared/ipc/api';

/** The project on screen: a project page, or a review opened with `?projectId=`. */
export function projectOnScreen(
  route: Pick<RouteLocationNormalizedLoaded, 'name' | 'params' | 'query'>,
): string | null {
  if (route.name === 'project' && typeof route.params.id === 'string') return route.params.id;
  if (route.name === 'review' && typeof route.query.projectId === 'string') return route.query.projectId;
  return null;
}

/**
 * Tells main's watcher which project the producer is looking at and whether the window is shown, so polling
 * checks that project often and slows down while the app is hidden. Works the same in both transports.
 */
export function useWatcherAttention(
  api: Pick<ClientApi, 'watcher'>,
  route: RouteLocationNormalizedLoaded,
  doc: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'> = document,
): void {
  const visible = ref(doc.visibilityState !== 'hidden');
  const projectId = computed(() => projectOnScreen(route));
  const onVisibility = () => (visible.value = doc.visibilityState !== 'hidden');
  // Attention is a hint: a failed report changes nothing the producer sees.
  const report = () =>
    void api.watcher.attend({ projectId: projectId.value, visible: visible.value }).catch(() => {});
  onMounted(() => doc.addEventListener('visibilitychange', onVisibility));
  onBeforeUnmount(() => doc.removeEventListener('visibilitychange', onVisibility));
  watch([projectId, visible], report, { immediate: true });
}
