import { defineStore } from 'pinia';
import { computed, ref, shallowRef, triggerRef } from 'vue';
import type {
  CancelProjectResponse,
  Deliverable,
  DeliverableSummary,
  Project,
  ProjectListItem,
  QuoteResponse,
  Read,
} from '../../../shared/api';
import type { DownloadJob, ProjectDownloadSelection } from '../../../shared/ipc';
import { useApi } from '../bridge';

/** Filters of the projects list (spec: GET /projects query). */
export interface ProjectFilters {
  titleQuery: string;
  category: string;
}

/** Rows per request: large enough that 10,000 projects need few round trips, within the contract's 500. */
export const PROJECTS_PAGE_SIZE = 200;

/** Projects list (paged on demand for the virtual list) and the open project with its deliverables. */
export const useProjectsStore = defineStore('projects', () => {
  const api = useApi();

  // --- list ------------------------------------------------------------------------------------
  const filters = ref<ProjectFilters>({ titleQuery: '', category: '' });
  /** null until the first page of the current filters answered. */
  const total = ref<number | null>(null);
  const pages = shallowRef(new Map<number, ProjectListItem[]>());
  /** Per loaded page: projects the service sent that could not be read (skipped by main). */
  const pagesUnreadable = shallowRef(new Map<number, number>());
  const pending = new Set<number>();
  const listError = ref<unknown>(null);
  const listLoading = ref(false);
  /** Bumped on every filter change or refresh so late answers for old filters are dropped. */
  let generation = 0;

  /** Projects of the loaded pages that could not be read; the list says so in one line. */
  const listUnreadable = computed(() => {
    let n = 0;
    for (const count of pagesUnreadable.value.values()) n += count;
    return n;
  });

  const loadedCount = computed(() => {
    let n = 0;
    for (const rows of pages.value.values()) n += rows.length;
    return n;
  });

  /** The project at a list index, or null while its page is on its way. */
  function rowAt(index: number): ProjectListItem | null {
    const page = Math.floor(index / PROJECTS_PAGE_SIZE) + 1;
    return pages.value.get(page)?.[index % PROJECTS_PAGE_SIZE] ?? null;
  }

  async function fetchPage(page: number, gen: number): Promise<void> {
    if (pending.has(page)) return;
    pending.add(page);
    try {
      const response = await api.projects.list({
        page,
        pageSize: PROJECTS_PAGE_SIZE,
        ...(filters.value.titleQuery ? { titleQuery: filters.value.titleQuery } : {}),
        ...(filters.value.category ? { category: filters.value.category } : {}),
      });
      if (gen !== generation) return;
      total.value = response.total;
      pages.value.set(page, response.projects);
      triggerRef(pages);
      pagesUnreadable.value = new Map(pagesUnreadable.value).set(page, response.unreadable ?? 0);
      listError.value = null;
    } catch (error) {
      if (gen === generation) listError.value = error;
    } finally {
      pending.delete(page);
    }
  }

  /** Loads the first page for the current filters, replacing what is shown only when it arrives. */
  async function loadList(): Promise<void> {
    const gen = ++generation;
    pending.clear();
    listLoading.value = true;
    try {
      const response = await api.projects.list({
        page: 1,
        pageSize: PROJECTS_PAGE_SIZE,
        ...(filters.value.titleQuery ? { titleQuery: filters.value.titleQuery } : {}),
        ...(filters.value.category ? { category: filters.value.category } : {}),
      });
      if (gen !== generation) return;
      pages.value = new Map([[1, response.projects]]);
      pagesUnreadable.value = new Map([[1, response.unreadable ?? 0]]);
      total.value = response.total;
      listError.value = null;
    } catch (error) {
      if (gen === generation) listError.value = error;
    } finally {
      if (gen === generation) listLoading.value = false;
    }
  }

  /** Makes sure the rows [start, end] are loaded (the virtual list calls this as it scrolls). */
  function ensureRange(start: number, end: number): void {
    if (total.value === null) return;
    const last = Math.min(end, total.value - 1);
    const first = Math.floor(Math.max(0, start) / PROJECTS_PAGE_SIZE) + 1;
    const lastPage = Math.floor(Math.max(0, last) / PROJECTS_PAGE_SIZE) + 1;
    for (let page = first; page <= lastPage; page++) {
      if (!pages.value.has(page)) void fetchPage(page, generation);
    }
  }

  /** New filters start from the first page; rows stay until the answer replaces them (no flash). */
  function setFilters(next: Partial<ProjectFilters>): Promise<void> {
    filters.value = { ...filters.value, ...next };
    return loadList();
  }

  /** Reloads the pages already seen, e.g. when the watcher reports a new deliverable. */
  async function refreshList(): Promise<void> {
    const seen = [...pages.value.keys()];
    await loadList();
    const gen = generation;
    await Promise.all(seen.filter((page) => page !== 1).map((page) => fetchPage(page, gen)));
  }

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

  async function loadProject(id: string): Promise<void> {
    if (current.value?.id !== id) {
      current.value = null;
      deliverables.value = [];
      deliverablesUnreadable.value = 0;
    }
    currentLoading.value = true;
    deliverablesLoading.value = true;
    currentError.value = null;
    deliverablesError.value = null;
    const [project, list] = await Promise.allSettled([
      api.projects.get({ id }),
      api.deliverables.list({ projectId: id }),
    ]);
    if (project.status === 'fulfilled') current.value = project.value;
    else currentError.value = project.reason;
    if (list.status === 'fulfilled') {
      deliverables.value = list.value.items;
      deliverablesUnreadable.value = list.value.unreadable;
    } else deliverablesError.value = list.reason;
    currentLoading.value = false;
    deliverablesLoading.value = false;
  }

  /** Cancels the project (spec: PUT /projects/{id}); the caller shows the error where the button is. */
  async function cancel(id: string, reason: string, reasonCode: string): Promise<CancelProjectResponse> {
    const result = await api.projects.cancel({ id, reason, reasonCode });
    if (current.value?.id === id) {
      current.value = {
        ...current.value,
        status: result.status,
        services: current.value.services.map((s) => ({ ...s, status: 'canceled' })),
      };
    }
    patchListRow(id, { status: result.status });
    return result;
  }

  /** Approves every pending deliverable; the answer's statuses are merged into the list shown. */
  async function approveAll(projectId: string): Promise<DeliverableSummary[]> {
    const approved = await api.deliverables.approveAll({ projectId });
    const byId = new Map(approved.map((d) => [d.id, d]));
    deliverables.value = deliverables.value.map((d) => {
      const next = byId.get(d.id);
      return next ? { ...d, status: next.status } : d;
    });
    return approved;
  }

  /** Price for a project body as it stands (spec: POST /quote). */
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

  function patchListRow(id: string, patch: Partial<ProjectListItem>): void {
    for (const rows of pages.value.values()) {
      const index = rows.findIndex((row) => row.id === id);
      if (index >= 0) {
        rows[index] = { ...rows[index]!, ...patch };
        triggerRef(pages);
        return;
      }
    }
  }

  /** Watcher events refresh the list while it is shown; the caller flushes the disposer. */
  function listenList(): () => void {
    return api.on('deliverable.ready', () => void refreshList());
  }

  /** Watcher events for the open project reload it (and its deliverables). */
  function listenProject(id: string): () => void {
    return api.on('deliverable.ready', (event) => {
      if (event.projectId === id) void loadProject(id);
    });
  }

  return {
    filters,
    total,
    pages,
    loadedCount,
    listUnreadable,
    listError,
    listLoading,
    rowAt,
    loadList,
    ensureRange,
    setFilters,
    refreshList,
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
