import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { LibraryItem, ProjectQaTarget } from '../../../shared/ipc';
import { useApi } from '../bridge';
import { onProfileSwitch, useProfilesStore } from './profiles';

/** One project's files in the library. */
export interface LibraryGroup {
  projectId: string;
  projectTitle: string;
  items: LibraryItem[];
}

/** Library action in flight on a file. */
export type LibraryAction = 'remove' | 'reveal' | 'drag';

/** The offline library (main's manifest): browsable without the service. */
export const useLibraryStore = defineStore('library', () => {
  const api = useApi();
  const profiles = useProfilesStore();
  const items = ref<LibraryItem[]>([]);
  const loaded = ref(false);
  const loading = ref(false);
  const loadError = shallowRef<unknown>(null);
  const actionErrors = ref<Record<string, unknown>>({});
  const busy = ref<Record<string, LibraryAction>>({});
  /** Each project's remembered QA target, by project id. */
  const projectQaTargets = ref<Record<string, ProjectQaTarget>>({});
  /** Text filter over project title, deliverable name and path. */
  const query = ref('');

  const groups = computed(() => groupByProject(filterItems(items.value, query.value)));

  async function load(): Promise<void> {
    loading.value = true;
    loadError.value = null;
    // Targets are a nicety: without them files are checked against the Settings default.
    void api.qa.targets().then(
      (targets) => void (projectQaTargets.value = targets),
      () => undefined,
    );
    try {
      items.value = await api.library.list();
      loaded.value = true;
    } catch (e) {
      loadError.value = e;
    } finally {
      loading.value = false;
    }
  }

  /** Reloads whenever main says the manifest changed, and on a switch (main lists the active profile's files). */
  function listen(): () => void {
    const offChanged = api.on('library.changed', () => void load());
    const offSwitch = onProfileSwitch(profiles, () => void load());
    return () => {
      offChanged();
      offSwitch();
    };
  }

  async function run<T>(id: string, action: LibraryAction, call: () => Promise<T>): Promise<T | null> {
    busy.value = { ...busy.value, [id]: action };
    const { [id]: _cleared, ...rest } = actionErrors.value;
    actionErrors.value = rest;
    try {
      return await call();
    } catch (e) {
      actionErrors.value = { ...actionErrors.value, [id]: e };
      return null;
    } finally {
      const { [id]: _done, ...others } = busy.value;
      busy.value = others;
    }
  }

  /** Deletes the file from disk and the manifest (the view confirms first). */
  async function remove(id: string): Promise<boolean> {
    const next = await run(id, 'remove', () => api.library.remove({ id }));
    if (next) items.value = next;
    return next !== null;
  }

  /** Shows the file in the OS file manager. */
  async function reveal(id: string): Promise<boolean> {
    return (await run(id, 'reveal', () => api.library.reveal({ id }))) !== null;
  }

  /** Starts a native drag of the file (Electron only) so it can be dropped into a DAW. */
  async function startDrag(id: string): Promise<boolean> {
    const answer = await run(id, 'drag', () => api.library.startDrag({ id }));
    return answer?.started ?? false;
  }

  return {
    items,
    loaded,
    loading,
    loadError,
    actionErrors,
    busy,
    query,
    groups,
    projectQaTargets,
    load,
    listen,
    remove,
    reveal,
    startDrag,
  };
});

/** Case-insensitive match on project, deliverable name and path. */
export function filterItems(items: LibraryItem[], query: string): LibraryItem[] {
  const q = query.trim().toLowerCase();
  if (!q) return items;
  return items.filter((item) =>
    [item.projectTitle, item.deliverableName, item.relativePath, item.serviceSubCategory].some((text) =>
      text.toLowerCase().includes(q),
    ),
  );
}

/** Groups by project (newest download first in each group, groups by their newest file). */
export function groupByProject(items: LibraryItem[]): LibraryGroup[] {
  const map = new Map<string, LibraryGroup>();
  for (const item of [...items].sort((a, b) => b.downloadedAt.localeCompare(a.downloadedAt))) {
    let group = map.get(item.projectId);
    if (!group) {
      group = { projectId: item.projectId, projectTitle: item.projectTitle, items: [] };
      map.set(item.projectId, group);
    }
    group.items.push(item);
  }
  return [...map.values()];
}
