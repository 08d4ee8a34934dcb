import { computed, ref, shallowRef } from 'vue';
import type { ProjectListItem } from '../../../shared/api';
import { pageMayContinue } from '../../../shared/api/paging';
import type { ClientApi } from '../../../shared/ipc';
import { orderProjects, type ActivityOf, type ProjectSort } from './project-list-order';
import { isUnreachable } from './service-reach';
import { whenFresh } from './support/fresh-answer';
import { latestAnswer } from './support/latest-answer';

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

/** What one profile's list looked like when it was last shown: restored when the producer switches back. */
export interface SavedList {
  filters: ProjectFilters;
  rows: ProjectListItem[];
  complete: boolean;
  unreadable: number;
  read: boolean;
}

/**
 * The projects list of the projects store: its rows read page after page, the search and column sort answered
 * over them, and a refresh that never shows a shrinking list. A part of `useProjectsStore`, which files the list
 * per profile with `saveList` and `restoreList`.
 */
export function createProjectList(api: ClientApi, activityOf: ActivityOf, serviceAway: () => boolean) {
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
  /** Every filter change or refresh is the latest read: late answers for old filters are dropped. */
  const reads = latestAnswer();
  /**
   * Words looked for in the titles, scripts and notes of the rows that arrived: the service's own filter
   * (`titleQuery`) reads titles only, so this one is answered here, over the whole list.
   */
  const search = ref('');
  /** The column the list is sorted by; null keeps the service's order (newest first). */
  const sort = ref<ProjectSort | null>(null);
  /** Rows as the list shows them: the search applied, in the order asked. */
  function shownRows(base: readonly ProjectListItem[]): readonly ProjectListItem[] {
    return orderProjects(base, search.value, sort.value, activityOf);
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
  async function readPages(isLatest: () => boolean, progressive: boolean, fresh = false): Promise<void> {
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
      if (!isLatest()) return;
      const arrived = response.projects.length;
      if (page === 1) firstPageRows = readFirstPageRows = arrived;
      asOf ??= response.asOf ?? null;
      if (!response.asOf) freshPages.set(page, response.projects);
      else followUp(page, isLatest);
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

  /**
   * A page answered from what was loaded: the service's own answer is asked for too. It may also come as
   * `read.refreshed` (main asks the service behind every loaded answer, and joins this read to that request); the
   * pull does not depend on the screen listening before main's answer lands.
   */
  function followUp(page: number, isLatest: () => boolean): void {
    const input = listQuery(page);
    whenFresh(api.projects.list({ ...input, fresh: true }), isLatest, (answer) =>
      refreshedListPage(input, answer.projects),
    );
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

  /**
   * The list shown is this profile's last-known one: its service did not answer the latest read. An answer from
   * what was loaded counts only while the service is known to be away (else the service's follows in a moment).
   */
  const listOffline = computed(
    () => isUnreachable(listError.value) || (listAsOf.value !== null && serviceAway()),
  );

  async function read(progressive: boolean, fresh = false): Promise<void> {
    const isLatest = reads.next();
    listLoading.value = true;
    try {
      await readPages(isLatest, progressive, fresh);
    } catch (error) {
      // What arrived stays (marked offline when the service did not answer); the count says what it is.
      if (isLatest()) listError.value = error;
    } finally {
      if (isLatest()) listLoading.value = false;
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
    const isLatest = reads.next();
    listLoading.value = true;
    try {
      const response = await api.projects.list(listQuery(1, true));
      if (!isLatest()) return;
      const fresh = new Map(response.projects.map((project) => [project.id, project]));
      const known = new Set(rows.value.map((row) => row.id));
      const added = response.projects.filter((project) => !known.has(project.id));
      rows.value = [...added, ...rows.value.map((row) => fresh.get(row.id) ?? row)];
      total.value = rows.value.length;
      listAsOf.value = response.asOf ?? null;
      listError.value = null;
    } catch (error) {
      if (isLatest()) listError.value = error;
    } finally {
      if (isLatest()) listLoading.value = false;
    }
  }

  function patchListRow(id: string, patch: Partial<ProjectListItem>): void {
    const index = rows.value.findIndex((row) => row.id === id);
    if (index < 0) return;
    const next = rows.value.slice();
    next[index] = { ...next[index]!, ...patch };
    rows.value = next;
  }

  /** The list as shown now, to be filed under its profile. */
  function saveList(): SavedList {
    return {
      filters: filters.value,
      rows: rows.value,
      complete: listComplete.value,
      unreadable: listUnreadable.value,
      read: total.value !== null,
    };
  }

  /** Another profile's list (or nothing yet): answers on their way belong to the previous profile. */
  function restoreList(saved: SavedList | undefined): void {
    reads.drop();
    filters.value = saved?.filters ?? { titleQuery: '', category: '' };
    rows.value = saved?.rows ?? [];
    total.value = saved?.read ? saved.rows.length : null;
    listComplete.value = saved?.complete ?? false;
    listUnreadable.value = saved?.unreadable ?? 0;
    listError.value = null;
    listAsOf.value = null;
    listLoading.value = false;
  }

  return {
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
    listAsOf,
    listLoading,
    listOffline,
    rowAt,
    loadList,
    setFilters,
    refreshList,
    refreshedListPage,
    isShownList,
    patchListRow,
    saveList,
    restoreList,
  };
}
