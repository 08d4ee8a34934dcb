import { defineStore } from 'pinia';
import { computed, ref, watch } from 'vue';
import type {
  CancelProjectResponse,
  Deliverable,
  DeliverableSummary,
  Project,
  QuoteResponse,
  Read,
} from '../../../shared/api';
import type { DownloadJob, ProjectDownloadSelection, RefreshedRead } from '../../../shared/ipc';
import { useApi } from '../bridge';
import { useProfilesStore } from './profiles';
import { createProjectList, type SavedList } from './projects-list';
import { createProjectsBulk } from './projects-bulk';
import { createReviewIndex } from './projects-review-index';
import { isUnreachable } from './service-reach';
import { whenFresh } from './support/fresh-answer';
import { latestAnswer } from './support/latest-answer';

// Kept here for the callers that import them from the store.
export { isUnreachable } from './service-reach';
export type { ReviewRow } from './projects-review-index';
export {
  PROJECTS_FULL_REFRESH_ROWS,
  PROJECTS_MAX_ROWS,
  PROJECTS_PAGE_SIZE,
  type ProjectFilters,
} from './projects-list';

/** The open project as last read, per profile and project: shown (marked offline) when a reload fails. */
interface SavedProject {
  project: Read<Project>;
  deliverables: Deliverable[];
  unreadable: number;
}

/**
 * Projects list (paged on demand for the virtual list), the open project with its deliverables, and where each
 * project stands for review. Everything is kept per profile: a switch, or a service that does not answer, never
 * shows another account's projects (issue 15, item 1).
 */
export const useProjectsStore = defineStore('projects', () => {
  const api = useApi();
  const profiles = useProfilesStore();
  /** The profile whose data the store shows; null until the profiles are known. */
  const profileId = computed(() => profiles.state?.activeId ?? null);
  /** An event about another profile than the one shown (before the profiles are known, none is). */
  const isOtherProfile = (id: string) => profileId.value !== null && id !== profileId.value;
  // The list sorts by the latest activity main's index has seen (read when the list is arranged, not now).
  /**
   * An answer from what was loaded (`asOf`) is shown as offline only while the service is known to be away: with
   * it answering, the service's own answer follows in a moment and replaces it in place (no offline note flashing).
   */
  const serviceAway = computed(() => profiles.connection === 'unreachable');
  const projectList = createProjectList(
    api,
    (project) => reviewIndex.reviewById.value.get(project.id)?.lastActivity,
    () => serviceAway.value,
  );
  const { listAsOf, patchListRow, refreshList } = projectList;
  const reviewIndex = createReviewIndex(api, projectList, isOtherProfile);

  const savedLists = new Map<string, SavedList>();
  const savedProjects = new Map<string, SavedProject>();
  const projectKey = (profile: string | null, id: string) => `${profile ?? ''}\n${id}`;

  // A switch files the list shown under the profile it belongs to and brings back the new one's own (or nothing).
  watch(profileId, (next, previous) => {
    // The first profile known: what loaded meanwhile is its own (main answers for the active profile).
    if (!previous) return;
    savedLists.set(previous, projectList.saveList());
    projectList.restoreList(next ? savedLists.get(next) : undefined);
    reviewIndex.forget();
    const open = current.value && next ? savedProjects.get(projectKey(next, current.value.id)) : undefined;
    current.value = open?.project ?? null;
    deliverables.value = open?.deliverables ?? [];
    deliverablesUnreadable.value = open?.unreadable ?? 0;
    currentError.value = null;
    currentAsOf.value = null;
    readAt.project = null;
    readAt.takes = null;
    deliverablesError.value = null;
  });

  // --- one project -----------------------------------------------------------------------------
  const current = ref<Read<Project> | null>(null);
  const currentError = ref<unknown>(null);
  const currentLoading = ref(false);
  const deliverables = ref<Deliverable[]>([]);
  /** Deliverables the service listed that could not be read (skipped by main). */
  const deliverablesUnreadable = ref(0);
  /** Items of the open project (its services and deliverables) that could not be read. */
  const currentUnreadable = computed(() => (current.value?.unreadable ?? 0) + deliverablesUnreadable.value);
  const deliverablesError = ref<unknown>(null);
  const deliverablesLoading = ref(false);
  /** The open project (or its takes) came from what main loaded earlier, read at this ISO time; null: fresh. */
  const currentAsOf = ref<string | null>(null);

  /** The open project was shown from an earlier read: its service did not answer the latest one. */
  const currentOffline = computed(
    () =>
      (isUnreachable(currentError.value) && current.value !== null) ||
      (currentAsOf.value !== null && serviceAway.value),
  );
  /** The latest load of a project: a later one (or another project) makes earlier answers stale. */
  const projectLoads = latestAnswer();
  /** When the open project's answer and its takes' were read, when they came from what was loaded. */
  const readAt = { project: null as string | null, takes: null as string | null };
  // The oldest read shown says how old the page is.
  const settleCurrentAsOf = () => {
    currentAsOf.value =
      [readAt.project, readAt.takes].filter((t): t is string => t !== null).sort()[0] ?? null;
  };
  const saveCurrent = () => {
    if (current.value)
      savedProjects.set(projectKey(profileId.value, current.value.id), {
        project: current.value,
        deliverables: deliverables.value,
        unreadable: deliverablesUnreadable.value,
      });
  };

  /** `fresh`: the service's answer, not what was loaded (after the producer's own decision on the project). */
  async function loadProject(id: string, fresh = false): Promise<void> {
    const profile = profileId.value;
    const isLatest = projectLoads.next();
    if (current.value?.id !== id) {
      const saved = savedProjects.get(projectKey(profile, id));
      current.value = saved?.project ?? null;
      deliverables.value = saved?.deliverables ?? [];
      deliverablesUnreadable.value = saved?.unreadable ?? 0;
    }
    currentLoading.value = true;
    deliverablesLoading.value = true;
    currentError.value = null;
    deliverablesError.value = null;
    const [project, list] = await Promise.allSettled([
      api.projects.get(fresh ? { id, fresh } : { id }),
      api.deliverables.list(fresh ? { projectId: id, fresh } : { projectId: id }),
    ]);
    // Another profile (or a later load) took over meanwhile: this answer is not what the screen shows. Asked
    // before the profiles were known, it is the active profile's (main answers for that one).
    if ((profile !== null && profile !== profileId.value) || !isLatest()) return;
    if (project.status === 'fulfilled') current.value = project.value;
    else currentError.value = project.reason;
    readAt.project = project.status === 'fulfilled' ? (project.value.asOf ?? null) : null;
    readAt.takes = list.status === 'fulfilled' ? (list.value.asOf ?? null) : null;
    settleCurrentAsOf();
    // Answered from what was loaded: the service's own answers are asked for too (they may also come as
    // `read.refreshed`; the pull does not depend on the page listening before main's answer lands).
    const asked = profileId.value;
    const stillShown = () => asked !== null && isLatest();
    if (readAt.project !== null)
      whenFresh(api.projects.get({ id, fresh: true }), stillShown, (value) =>
        refreshedProject(id, { profileId: asked!, channel: 'projects.get', input: { id }, value }),
      );
    if (readAt.takes !== null)
      whenFresh(api.deliverables.list({ projectId: id, fresh: true }), stillShown, (value) =>
        refreshedProject(id, {
          profileId: asked!,
          channel: 'deliverables.list',
          input: { projectId: id },
          value,
        }),
      );
    if (list.status === 'fulfilled') {
      deliverables.value = list.value.items;
      deliverablesUnreadable.value = list.value.unreadable;
    } else deliverablesError.value = list.reason;
    if (current.value?.id === id) saveCurrent();
    if (current.value?.id === id && current.value.status !== undefined)
      patchListRow(id, { status: current.value.status });
    currentLoading.value = false;
    deliverablesLoading.value = false;
  }

  /**
   * Cancels the project (docs/service.md#projects: PUT /projects/{id}); the caller shows the error where the
   * button is. The answer's
   * status shows at once; the project and its deliverables are then read again (pending ones became rejected).
   */
  async function cancel(id: string, reason: string, reasonCode: string): Promise<CancelProjectResponse> {
    const result = await api.projects.cancel({ id, reason, reasonCode });
    if (current.value?.id === id) current.value = { ...current.value, status: result.status };
    patchListRow(id, { status: result.status });
    await loadProject(id, true);
    return result;
  }

  /**
   * Approves every pending deliverable: the answer's statuses show at once, then the project is read again (it
   * becomes completed once everything is approved; docs/service.md#transitions), so nothing says "Paid" until
   * a reload.
   */
  async function approveAll(projectId: string): Promise<DeliverableSummary[]> {
    // What the producer had in front of them: a take that arrives later is not approved unheard.
    const reviewable = deliverables.value.filter((d) => d.status === 'reviewable').map((d) => d.id);
    const approved = await api.deliverables.approveAll({ projectId, heard: { projectId, reviewable } });
    const byId = new Map(approved.map((d) => [d.id, d]));
    deliverables.value = deliverables.value.map((d) => {
      const next = byId.get(d.id);
      return next ? { ...d, status: next.status } : d;
    });
    await loadProject(projectId, true);
    return approved;
  }

  /** A decision taken elsewhere (the review screen) on one of this project's deliverables: read it again. */
  function decided(projectId: string): Promise<void> {
    return loadProject(projectId, true);
  }

  /** Price for a project body as it stands (docs/service.md#quote). */
  function quote(body: Record<string, unknown>): Promise<QuoteResponse> {
    return api.projects.quote({ body });
  }

  /** Creates the project; the new one goes to the top of the list when the list next loads. */
  async function create(body: Record<string, unknown>): Promise<Project> {
    const project = await api.projects.create({ body });
    current.value = project;
    deliverables.value = [];
    deliverablesUnreadable.value = 0;
    return project;
  }

  /** After a lost create answer: the newest project with this title, if the service has one. */
  function findRecent(title: string): Promise<Project | null> {
    return api.projects.findRecent({ title });
  }

  /** Queues the files of a project the selection asks for (rejected takes only when included). */
  function downloadAll(projectId: string, selection: ProjectDownloadSelection = {}): Promise<DownloadJob[]> {
    return api.downloads.startProject({
      projectId,
      ...(selection.formats ? { formats: [...selection.formats] } : {}),
      ...(selection.includeRejected ? { includeRejected: true } : {}),
    });
  }

  const bulk = createProjectsBulk(api, downloadAll, patchListRow);

  // What main answered from its read mirror is read again as soon as the service answers (main says so).
  watch(
    () => profiles.connection,
    (now, before) => {
      if (now !== 'reachable' || before === 'reachable') return;
      if (listAsOf.value !== null) void refreshList();
      if (currentAsOf.value !== null && current.value) void loadProject(current.value.id);
    },
  );

  /** The app opens on what needs the producer, once per session (App decides; a nav click settles it). */
  const landing = ref<'pending' | 'settled'>('pending');
  function settleLanding(): void {
    landing.value = 'settled';
  }

  /** Watcher events and review-index changes refresh the list while it is shown; the caller flushes the disposer. */
  function listenList(): () => void {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const offReady = api.on('deliverable.ready', (event) => {
      if (isOtherProfile(event.profileId)) return;
      void refreshList();
    });
    // Bursts (a listing of many projects) become one read of the index.
    const offReview = api.on('projects.reviewChanged', (event) => {
      if (isOtherProfile(event.profileId)) return;
      clearTimeout(timer);
      timer = setTimeout(() => void reviewIndex.loadReview(), 150);
    });
    // The service's answer behind a page main gave from what was loaded.
    const offRefreshed = api.on('read.refreshed', (read) => {
      if (read.channel !== 'projects.list' || read.profileId !== profileId.value) return;
      if (projectList.isShownList(read.input ?? {}))
        projectList.refreshedListPage(read.input ?? {}, read.value.projects);
    });
    return () => {
      clearTimeout(timer);
      offReady();
      offReview();
      offRefreshed();
    };
  }

  /** The service's answer behind the open project's, or its takes', that main gave from what was loaded. */
  function refreshedProject(id: string, read: RefreshedRead): void {
    if (read.profileId !== profileId.value || current.value?.id !== id) return;
    if (read.channel === 'projects.get' && read.input.id === id && readAt.project !== null) {
      current.value = read.value;
      readAt.project = null;
      if (read.value.status !== undefined) patchListRow(id, { status: read.value.status });
    } else if (read.channel === 'deliverables.list' && read.input.projectId === id && readAt.takes !== null) {
      deliverables.value = read.value.items;
      deliverablesUnreadable.value = read.value.unreadable;
      readAt.takes = null;
    } else return;
    settleCurrentAsOf();
    saveCurrent();
  }

  /** Watcher events for the open project reload it (and its deliverables); the service's answers replace loaded ones. */
  function listenProject(id: string): () => void {
    const offReady = api.on('deliverable.ready', (event) => {
      if (event.projectId === id && !isOtherProfile(event.profileId)) void loadProject(id, true);
    });
    const offRefreshed = api.on('read.refreshed', (read) => refreshedProject(id, read));
    return () => {
      offReady();
      offRefreshed();
    };
  }

  return {
    ...projectList,
    ...reviewIndex,
    ...bulk,
    profileId,
    currentOffline,
    currentAsOf,
    landing,
    settleLanding,
    decided,
    current,
    currentError,
    currentLoading,
    deliverables,
    deliverablesError,
    deliverablesLoading,
    deliverablesUnreadable,
    currentUnreadable,
    loadProject,
    cancel,
    approveAll,
    quote,
    create,
    findRecent,
    downloadAll,
    listenList,
    listenProject,
  };
});
