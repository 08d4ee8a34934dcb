import { computed, shallowRef, type Ref } from 'vue';
import type { ProjectListItem } from '../../../shared/api';
import { serviceTime } from '../../../shared/api/schemas';
import type { ReviewSnapshot } from '../../../shared/ipc';
import { REVIEW_STATES, reviewStateOf, type ReviewCounts, type ReviewState } from '../../../shared/review';
import type { ClientApi } from '../../../shared/ipc';
import type { ProjectFilters } from './projects-list';
import { matchesSearch } from './project-list-order';

/** A project row with where it stands for review. */
export interface ReviewRow {
  project: ProjectListItem;
  counts: ReviewCounts | null;
  state: ReviewState;
  /** Counts kept from an earlier run, as of this time, until read again. */
  asOf?: string;
  /** The newest activity the app has seen on the project (ISO); absent when it has seen none. */
  lastActivity?: string;
}

/**
 * When a project was ordered, as an instant: the service may write its dates zoned ("…+02:00"), with `Z`, with a
 * space or without a zone, so their text does not sort. Undated ones go last.
 */
function createdAt(project: ProjectListItem): number {
  const time = serviceTime(project.created);
  return Number.isFinite(time) ? time : -Infinity;
}

/**
 * Where each project stands for review, from main's index (no request to the service), within the list's filters
 * and search. A part of `useProjectsStore`; `forget` drops it when another profile becomes active.
 */
export function createReviewIndex(
  api: ClientApi,
  list: { filters: Ref<ProjectFilters>; search: Ref<string> },
  isOtherProfile: (profileId: string) => boolean,
) {
  const { filters, search } = list;
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
    (review.value?.projects ?? []).map(({ project, counts, asOf, lastActivity }) => ({
      project,
      counts,
      state: reviewStateOf(project.status, counts),
      ...(asOf ? { asOf } : {}),
      ...(lastActivity ? { lastActivity } : {}),
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

  /** Another profile is active: its index is read afresh, and an answer on its way is dropped. */
  function forget(): void {
    review.value = null;
    reviewGeneration++;
  }

  return { review, reviewRows, reviewById, reviewCountsByState, rowsInState, loadReview, forget };
}
