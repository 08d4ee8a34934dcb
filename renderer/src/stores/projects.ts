import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch } from 'vue';
import type {
  CancelProjectResponse,
  Deliverable,
  DeliverableSummary,
  Project,
  ProjectListItem,
  QuoteResponse,
  Read,
} from '../../../shared/api';
import { pageMayContinue } from '../../../shared/api/paging';
import { serviceTime } from '../../../shared/api/schemas';
import type {
  DownloadJob,
  ProjectDownloadSelection,
  RefreshedRead,
  ReviewSnapshot,
} from '../../../shared/ipc';
import { REVIEW_STATES, reviewStateOf, type ReviewCounts, type ReviewState } from '../../../shared/review';
import { useApi } from '../bridge';
import { useProfilesStore } from './profiles';
import { matchesSearch, orderProjects, type ProjectSort } from './project-list-order';

/** Filters of the projects list (docs/service.md#projects: GET /projects query). */
export interface ProjectFilters {
  titleQuery: string;
  category: string;
}

/** Rows asked per request (a service may send fewer: no maximum page size is documented). */
export const PROJECTS_PAGE_SIZE = 200;
/** A listing stops after this many rows: what the virtual list is measured with (10,000 in its budget test). */
export const PROJECTS_MAX_ROWS = 20_000;
/** Up to this many rows a refresh reads the whole list again; a longer one is refreshed from its first page. */
export const PROJECTS_FULL_REFRESH_ROWS = 1_000;

/**
 * When a project was ordered, as an instant: the service may write its dates zoned ("…+02:00"), with `Z`, with a
 * space or without a zone, so their text does not sort. Undated ones go last.
 */
function createdAt(project: ProjectListItem): number {
  const time = serviceTime(project.created);
  return Number.isFinite(time) ? time : -Infinity;
}

/**
 * A failure that means the service did not answer (as opposed to an answer saying no); NOT_LOADED_OFFLINE: it did
 * not, and main had nothing loaded for this read either.
 */
export function isUnreachable(error: unknown): boolean {
  const e = error as { type?: unknown; status?: unknown } | null;
  if (e?.type === 'NETWORK_UNREACHABLE' || e?.type === 'TIMEOUT' || e?.type === 'NOT_LOADED_OFFLINE')
    return true;
  return typeof e?.status === 'number' && e.status >= 502 && e.status <= 504;
}

/** A project row with where it stands for review. */
export interface ReviewRow {
  project: ProjectListItem;
  counts: ReviewCounts | null;
  state: ReviewState;
  /** Counts kept from an earlier run, as of this time, until read again. */
  asOf?: string;
}

/** What one profile's list looked like when it was last shown: restored when the producer switches back. */
interface SavedList {
  filters: ProjectFilters;
  rows: ProjectListItem[];
  complete: boolean;
  unreadable: number;
  read: boolean;
}

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

  // --- list ------------------------------------------------------------------------------------
  // The list is read page after page until a short or empty page, and counts what arrived: `total` of the
  // service counts every project of the account, not the matches of a search, and a service may keep to a
  // smaller page than asked (shared/api/paging.ts). So no row is ever a placeholder for one that may not exist.
  const filters = ref<ProjectFilters>({ titleQuery: '', category: '' });
  /** The rows that arrived for the current filters, in the service's order, each project once. */
  const rows = shallowRef<ProjectListItem[]>([]);
  /** How many rows arrived; null until the first page of the current filters answered. */
  const total = ref<number | null>(null);
  /** The last page arrived (a short or empty one): `total` is the whole list. */
  const listComplete = ref(false);
  /** Projects the service sent that could not be read (skipped by main); the list says so in one line. */
  const listUnreadable = ref(0);
  const listError = ref<unknown>(null);
  /** The rows shown came from what main loaded earlier (its read mirror), read at this ISO time; null: fresh. */
  const listAsOf = ref<string | null>(null);
  const listLoading = ref(false);
  /** Bumped on every filter change or refresh so late answers for old filters are dropped. */
  let generation = 0;
  /**
   * Words looked for in the titles, scripts and notes of the rows that arrived: the service's own filter
   * (`titleQuery`) reads titles only, so this one is answered here, over the whole list.
   */
  const search = ref('');
  /** The column the list is sorted by; null keeps the service's order (newest first). */
  const sort = ref<ProjectSort | null>(null);
  /** Rows as the list shows them: the search applied, in the order asked. */
  function shownRows(base: readonly ProjectListItem[]): readonly ProjectListItem[] {
    return orderProjects(base, search.value, sort.value);
  }

  const loadedCount = computed(() => rows.value.length);

  /** The project at a list index, or null past the rows that arrived. */
  function rowAt(index: number): ProjectListItem | null {
    return rows.value[index] ?? null;
  }

  function listQuery(page: number, fresh = false) {
    return {
      page,
      pageSize: PROJECTS_PAGE_SIZE,
      ...(filters.value.titleQuery ? { titleQuery: filters.value.titleQuery } : {}),
      ...(filters.value.category ? { category: filters.value.category } : {}),
      ...(fresh ? { fresh } : {}),
    };
  }

  /**
   * The pages of the current read as the service gave them: those main answered first from what was loaded
   * (`asOf`) arrive later as `read.refreshed`. Once every page read is the service's, they replace the rows shown
   * in one step; until then a fresh row replaces its stale one in place (no reorder, no shrinking list).
   */
  let freshPages = new Map<number, ProjectListItem[]>();
  /** How many pages the current read asked for; null while it goes on. */
  let pagesRead: number | null = null;
  /** Rows on the first page of the current read: the service's page size when it keeps to fewer than asked. */
  let readFirstPageRows = 0;

  /**
   * Reads the pages of the current filters in turn. `progressive`: each page shows as it arrives (a new search);
   * otherwise the rows shown are replaced once the last page arrived (a refresh: no shrinking list meanwhile).
   * `fresh`: each page must be the service's (a refresh after a change was announced).
   */
  async function readPages(gen: number, progressive: boolean, fresh = false): Promise<void> {
    const collected: ProjectListItem[] = [];
    const ids = new Set<string>();
    let unreadable = 0;
    let firstPageRows = 0;
    let asOf: string | null = null;
    const publish = (complete: boolean) => {
      rows.value = collected.slice();
      total.value = collected.length;
      listUnreadable.value = unreadable;
      listComplete.value = complete;
      listAsOf.value = asOf;
    };
    freshPages = new Map();
    pagesRead = null;
    for (let page = 1; ; page++) {
      const response = await api.projects.list(listQuery(page, fresh));
      if (gen !== generation) return;
      const arrived = response.projects.length;
      if (page === 1) firstPageRows = readFirstPageRows = arrived;
      asOf ??= response.asOf ?? null;
      if (!response.asOf) freshPages.set(page, response.projects);
      const before = collected.length;
      // A project made between two reads shifts the pages by one: the repeated row is kept once.
      for (const project of response.projects) {
        if (ids.has(project.id)) continue;
        ids.add(project.id);
        collected.push(project);
      }
      unreadable += response.unreadable ?? 0;
      // A page of nothing new ends it too: a service that ignores `page` would otherwise be read forever.
      const more =
        pageMayContinue(arrived, PROJECTS_PAGE_SIZE, firstPageRows) &&
        collected.length > before &&
        collected.length < PROJECTS_MAX_ROWS;
      if (progressive || !more) publish(!more);
      listError.value = null;
      if (!more) {
        pagesRead = page;
        // The service's answers to the first pages may have come while the last ones were read.
        if (asOf) settleFreshList();
        return;
      }
    }
  }

  /** The service's answer to a page of the list shown: in place now, and the whole list once every page is. */
  function refreshedListPage(input: { page?: number; pageSize?: number }, fresh: readonly ProjectListItem[]) {
    if (listAsOf.value === null) return;
    freshPages.set(input.page ?? 1, fresh.slice());
    // Only rows the service tells differently are replaced: an unchanged page renders nothing again.
    const byId = new Map(fresh.map((project) => [project.id, project]));
    const changed = (row: ProjectListItem) => {
      const next = byId.get(row.id);
      return next !== undefined && JSON.stringify(next) !== JSON.stringify(row);
    };
    if (rows.value.some(changed))
      rows.value = rows.value.map((row) => (changed(row) ? byId.get(row.id)! : row));
    settleFreshList();
  }

  function settleFreshList(): void {
    if (pagesRead === null) return;
    const pages = Array.from({ length: pagesRead }, (_, i) => freshPages.get(i + 1));
    if (pages.some((page) => page === undefined)) return;
    const ids = new Set<string>();
    const whole = pages
      .flatMap((page) => page!)
      .filter((row) => !ids.has(row.id) && Boolean(ids.add(row.id)));
    // The same rows in the same order: the ones shown stay (nothing renders again).
    if (JSON.stringify(whole) !== JSON.stringify(rows.value)) rows.value = whole;
    total.value = rows.value.length;
    listAsOf.value = null;
    listError.value = null;
    // The service has more than was loaded: its further pages follow.
    const last = pages.at(-1)!;
    if (pageMayContinue(last.length, PROJECTS_PAGE_SIZE, readFirstPageRows)) void read(false, true);
  }

  /** Whether a read's input is the list shown (its filters, any page). */
  function isShownList(input: { titleQuery?: string; category?: string; pageSize?: number }): boolean {
    return (
      (input.titleQuery ?? '') === filters.value.titleQuery &&
      (input.category ?? '') === filters.value.category &&
      input.pageSize === PROJECTS_PAGE_SIZE
    );
  }

  const savedLists = new Map<string, SavedList>();
  const savedProjects = new Map<string, SavedProject>();
  const projectKey = (profile: string | null, id: string) => `${profile ?? ''}\n${id}`;

  // A switch files the list shown under the profile it belongs to and brings back the new one's own (or nothing).
  watch(profileId, (next, previous) => {
    // The first profile known: what loaded meanwhile is its own (main answers for the active profile).
    if (!previous) return;
    savedLists.set(previous, {
      filters: filters.value,
      rows: rows.value,
      complete: listComplete.value,
      unreadable: listUnreadable.value,
      read: total.value !== null,
    });
    const saved = next ? savedLists.get(next) : undefined;
    generation++; // answers on their way belong to the previous profile
    filters.value = saved?.filters ?? { titleQuery: '', category: '' };
    rows.value = saved?.rows ?? [];
    total.value = saved?.read ? saved.rows.length : null;
    listComplete.value = saved?.complete ?? false;
    listUnreadable.value = saved?.unreadable ?? 0;
    listError.value = null;
    listAsOf.value = null;
    listLoading.value = false;
    review.value = null;
    reviewGeneration++;
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

  /**
   * An answer from what was loaded (`asOf`) is shown as offline only while the service is known to be away: with
   * it answering, the service's own answer follows in a moment and replaces it in place (no offline note flashing).
   */
  const serviceAway = computed(() => profiles.connection === 'unreachable');

  /** The list shown is this profile's last-known one: its service did not answer the latest read. */
  const listOffline = computed(
    () => isUnreachable(listError.value) || (listAsOf.value !== null && serviceAway.value),
  );

  async function read(progressive: boolean, fresh = false): Promise<void> {
    const gen = ++generation;
    listLoading.value = true;
    try {
      await readPages(gen, progressive, fresh);
    } catch (error) {
      // What arrived stays (marked offline when the service did not answer); the count says what it is.
      if (gen === generation) listError.value = error;
    } finally {
      if (gen === generation) listLoading.value = false;
    }
  }

  /** Reads the list for the current filters: the first page replaces what is shown, the others follow it. */
  function loadList(): Promise<void> {
    return read(true);
  }

  /** New filters start from the first page; rows stay until the answer replaces them (no flash). */
  function setFilters(next: Partial<ProjectFilters>): Promise<void> {
    filters.value = { ...filters.value, ...next };
    return loadList();
  }

  /**
   * Reads the list again, e.g. when the watcher reports a new deliverable; the rows shown stay until it is whole.
   * A long list is refreshed from its first page only (new projects come first), so a delivery does not cost a
   * read of every page.
   */
  function refreshList(): Promise<void> {
    if (!listComplete.value || rows.value.length <= PROJECTS_FULL_REFRESH_ROWS) return read(false, true);
    return refreshFirstPage();
  }

  /** The first page's rows replace theirs in the list; projects new to it go on top. */
  async function refreshFirstPage(): Promise<void> {
    const gen = ++generation;
    listLoading.value = true;
    try {
      const response = await api.projects.list(listQuery(1, true));
      if (gen !== generation) return;
      const fresh = new Map(response.projects.map((project) => [project.id, project]));
      const known = new Set(rows.value.map((row) => row.id));
      const added = response.projects.filter((project) => !known.has(project.id));
      rows.value = [...added, ...rows.value.map((row) => fresh.get(row.id) ?? row)];
      total.value = rows.value.length;
      listAsOf.value = response.asOf ?? null;
      listError.value = null;
    } catch (error) {
      if (gen === generation) listError.value = error;
    } finally {
      if (gen === generation) listLoading.value = false;
    }
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
  /** The open project (or its takes) came from what main loaded earlier, read at this ISO time; null: fresh. */
  const currentAsOf = ref<string | null>(null);

  /** The open project was shown from an earlier read: its service did not answer the latest one. */
  const currentOffline = computed(
    () =>
      (isUnreachable(currentError.value) && current.value !== null) ||
      (currentAsOf.value !== null && serviceAway.value),
  );
  let projectGeneration = 0;
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
    const gen = ++projectGeneration;
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
    if ((profile !== null && profile !== profileId.value) || gen !== projectGeneration) return;
    if (project.status === 'fulfilled') current.value = project.value;
    else currentError.value = project.reason;
    readAt.project = project.status === 'fulfilled' ? (project.value.asOf ?? null) : null;
    readAt.takes = list.status === 'fulfilled' ? (list.value.asOf ?? null) : null;
    settleCurrentAsOf();
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

  /**
   * Several projects at once (the list's selection), one after another so a long selection does not flood the
   * service. Each project's outcome is kept: one that fails never stops the others, and the caller says which.
   */
  async function eachProject<T>(
    ids: readonly string[],
    run: (id: string) => Promise<T>,
  ): Promise<{ done: { id: string; value: T }[]; failed: { id: string; error: unknown }[] }> {
    const done: { id: string; value: T }[] = [];
    const failed: { id: string; error: unknown }[] = [];
    for (const id of ids) {
      try {
        done.push({ id, value: await run(id) });
      } catch (error) {
        failed.push({ id, error });
      }
    }
    return { done, failed };
  }

  /** Queues the files of each selected project (the remembered formats; rejected takes left out). */
  function downloadProjects(ids: readonly string[], selection: ProjectDownloadSelection = {}) {
    return eachProject(ids, (id) => downloadAll(id, selection));
  }

  /**
   * Approves, in each selected project, the takes ready for review as listed right now (what the confirmation
   * counted); a take that arrives later is not approved unheard. Statuses in the list follow the answers.
   */
  function approveProjects(ids: readonly string[]) {
    return eachProject(ids, async (projectId) => {
      // What the service lists now, not what was loaded: the producer decides on it.
      const listed = await api.deliverables.list({ projectId, fresh: true });
      const reviewable = listed.items.filter((d) => d.status === 'reviewable').map((d) => d.id);
      if (reviewable.length === 0) return [];
      const approved = await api.deliverables.approveAll({ projectId, heard: { projectId, reviewable } });
      const project = await api.projects.get({ id: projectId, fresh: true }).catch(() => null);
      if (project?.status !== undefined) patchListRow(projectId, { status: project.status });
      return approved;
    });
  }

  function patchListRow(id: string, patch: Partial<ProjectListItem>): void {
    const index = rows.value.findIndex((row) => row.id === id);
    if (index < 0) return;
    const next = rows.value.slice();
    next[index] = { ...next[index]!, ...patch };
    rows.value = next;
  }

  // What main answered from its read mirror is read again as soon as the service answers (main says so).
  watch(
    () => profiles.connection,
    (now, before) => {
      if (now !== 'reachable' || before === 'reachable') return;
      if (listAsOf.value !== null) void refreshList();
      if (currentAsOf.value !== null && current.value) void loadProject(current.value.id);
    },
  );

  // --- review status (issue 15, item 3) ----------------------------------------------------------
  /** What main knows of this profile's projects and their deliverables: no request of its own. */
  const review = shallowRef<ReviewSnapshot | null>(null);
  let reviewGeneration = 0;

  async function loadReview(): Promise<void> {
    const gen = ++reviewGeneration;
    try {
      const snapshot = await api.projects.review();
      // Only the active profile's index is ever shown.
      if (gen === reviewGeneration && !isOtherProfile(snapshot.profileId)) review.value = snapshot;
    } catch {
      // The index is local: failing to read it leaves the list without its review column, nothing worse.
    }
  }

  const reviewRows = computed<ReviewRow[]>(() =>
    (review.value?.projects ?? []).map(({ project, counts, asOf }) => ({
      project,
      counts,
      state: reviewStateOf(project.status, counts),
      ...(asOf ? { asOf } : {}),
    })),
  );
  const reviewById = computed(() => new Map(reviewRows.value.map((row) => [row.project.id, row])));
  /** Index rows within the title and category filters, so the counts and the list agree with the search. */
  const searchedReviewRows = computed(() => {
    const query = filters.value.titleQuery.toLowerCase();
    const category = filters.value.category;
    return reviewRows.value.filter(
      (row) =>
        (!query || row.project.title.toLowerCase().includes(query)) &&
        (!category || row.project.mainService === category) &&
        matchesSearch(row.project, search.value),
    );
  });
  /** How many projects are in each review state (of those main has seen), within the search. */
  const reviewCountsByState = computed(() => {
    const counts = Object.fromEntries(REVIEW_STATES.map(({ state }) => [state, 0])) as Record<
      ReviewState,
      number
    >;
    for (const row of searchedReviewRows.value) counts[row.state] = (counts[row.state] ?? 0) + 1;
    return counts;
  });

  /** Projects in one review state, newest first, within the title and category filters. */
  function rowsInState(state: ReviewState): ProjectListItem[] {
    return searchedReviewRows.value
      .filter((row) => row.state === state)
      .map((row) => row.project)
      .sort((a, b) => createdAt(b) - createdAt(a));
  }

  /** An event about another profile than the one shown (before the profiles are known, none is). */
  const isOtherProfile = (id: string) => profileId.value !== null && id !== profileId.value;

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
      timer = setTimeout(() => void loadReview(), 150);
    });
    // The service's answer behind a page main gave from what was loaded.
    const offRefreshed = api.on('read.refreshed', (read) => {
      if (read.channel !== 'projects.list' || read.profileId !== profileId.value) return;
      if (isShownList(read.input ?? {})) refreshedListPage(read.input ?? {}, read.value.projects);
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
    profileId,
    listOffline,
    listAsOf,
    currentOffline,
    currentAsOf,
    review,
    reviewRows,
    reviewById,
    reviewCountsByState,
    rowsInState,
    loadReview,
    landing,
    settleLanding,
    decided,
    filters,
    search,
    sort,
    shownRows,
    total,
    rows,
    listComplete,
    loadedCount,
    listUnreadable,
    listError,
    listLoading,
    rowAt,
    loadList,
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
    downloadProjects,
    approveProjects,
    listenList,
    listenProject,
  };
});
