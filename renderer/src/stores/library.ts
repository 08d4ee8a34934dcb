import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { LibraryItem, ProjectQaTarget } from '../../../shared/ipc';
import { useApi } from '../bridge';
import { onProfileSwitch, useProfilesStore } from './profiles';
import { loadState } from './support/load-state';
import { rowActions } from './support/row-actions';

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
  const { loaded, loading, loadError, run: runLoad } = loadState();
  /** Action in flight per item id, and the error of the last action per item id, shown on that item's row. */
  const rows = rowActions<LibraryAction>();
  const { busy, errors: actionErrors } = rows;
  /** Each project's remembered QA target, by project id. */
  const projectQaTargets = ref<Record<string, ProjectQaTarget>>({});
  /** Text filter over project title, deliverable name and path. */
  const query = ref('');
  /** Only the takes a client can be handed: approved (or contest winners) and not replaced by a later version. */
  const approvedOnly = ref(false);

  const groups = computed(() => {
    const shown = approvedOnly.value
      ? items.value.filter((item) => isApprovedTake(takeStateOf(item, items.value)))
      : items.value;
    return groupByProject(filterItems(shown, query.value));
  });

  async function load(): Promise<void> {
    // Targets are a nicety: without them files are checked against the Settings default.
    void api.qa.targets().then(
      (targets) => void (projectQaTargets.value = targets),
      () => undefined,
    );
    await runLoad(async () => {
      items.value = await api.library.list();
    });
  }

  /** Reloads whenever main says the manifest changed, and on a switch (main lists the active profile's files). */
  function listen(): () => void {
    const offChanged = api.on('library.changed', () => void load());
    // A decision or a delivery changes a take's status, which each row says.
    const offReview = api.on('projects.reviewChanged', () => void load());
    const offSwitch = onProfileSwitch(profiles, () => void load());
    return () => {
      offChanged();
      offReview();
      offSwitch();
    };
  }

  const run = rows.run;

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
    approvedOnly,
    groups,
    projectQaTargets,
    load,
    listen,
    remove,
    reveal,
    startDrag,
  };
});

/** Where a file's take stands, in the producer's words: its status, or replaced by a later version on disk. */
export interface TakeState {
  /** `approved`, `winner`, `rejected`, `replaced`, another service status, or `unknown` (never read). */
  state: string;
  /** "Approved", "Replaced by v3", "Not checked yet"… */
  text: string;
}

const TAKE_WORDS: Record<string, string> = {
  approved: 'Approved',
  winner: 'Contest winner',
  rejected: 'Rejected',
  reviewable: 'Ready for review',
  revisionRequested: 'Revision requested',
};

/**
 * A file of version n is replaced once a later version of the same take is in the library; otherwise it says the
 * take's status as Takedesk last read it (offline too).
 */
export function takeStateOf(item: LibraryItem, all: readonly LibraryItem[]): TakeState {
  const later = all
    .filter((other) => other.deliverableId === item.deliverableId && other.version > item.version)
    .reduce((max, other) => Math.max(max, other.version), 0);
  if (later) return { state: 'replaced', text: `Replaced by v${later}` };
  const status = item.takeStatus;
  if (!status) return { state: 'unknown', text: 'Status not read yet' };
  const spaced = status.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return { state: status, text: TAKE_WORDS[status] ?? spaced.charAt(0).toUpperCase() + spaced.slice(1) };
}

/** A take a client can be handed. */
export const isApprovedTake = (take: TakeState) => take.state === 'approved' || take.state === 'winner';

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
