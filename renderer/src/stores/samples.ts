import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { SearchResponse } from '../../../shared/api';
import { isLiveAccount, type AccountKind } from '../../../shared/api/account-kind';
import { searchCurrenciesFor } from '../../../shared/api/live-values';
import { findPurpose } from '../../../shared/catalogue/purposes';
import { isIpcError } from '../../../shared/ipc/api';
import { useApi } from '../bridge';
import { latestAnswer } from './support/latest-answer';
import { useProfilesStore } from './profiles';

/** Every search filter of the spec; empty strings and nulls are left out of the request. */
export interface SampleFilters {
  categoryId: string;
  currency: string;
  language: string;
  genderAndAge: string;
  purpose: string;
  turnAroundTimeDays: number | null;
  minimumPrice: number | null;
  maximumPrice: number | null;
  units: number | null;
  unitType: string;
}

export function defaultSampleFilters(): SampleFilters {
  return {
    categoryId: 'voice_over',
    currency: 'USD',
    language: '',
    genderAndAge: '',
    purpose: '',
    turnAroundTimeDays: null,
    minimumPrice: null,
    maximumPrice: null,
    units: null,
    unitType: 'units',
  };
}

/**
 * The search's `purpose`: the docs type it as a number. A numeric id goes as a number; on the sandbox a purpose of
 * its catalogue goes as its numeric id; a live account's purpose with no numeric id is left out (the view says so).
 */
export function searchPurpose(purpose: string, kind: AccountKind | undefined): number | undefined {
  const id = purpose.trim();
  if (!id) return undefined;
  if (/^\d+$/.test(id)) return Number(id);
  return isLiveAccount(kind) ? undefined : findPurpose(id)?.numericId;
}

/**
 * The `samples.search` input for filters and a page: only what the producer set, and for a live account only
 * documented values (a sandbox currency kept in the filters becomes the documented USD).
 */
export function searchInput(
  filters: SampleFilters,
  page: number,
  pageSize: number,
  kind: AccountKind | undefined,
) {
  const num = (v: number | null) => (v === null || Number.isNaN(v) ? undefined : v);
  const text = (v: string) => (v.trim() ? v.trim() : undefined);
  const currencies = searchCurrenciesFor(kind);
  const input = {
    categoryId: filters.categoryId,
    currency: currencies.includes(filters.currency) ? filters.currency : 'USD',
    page,
    pageSize,
    language: text(filters.language),
    genderAndAge: text(filters.genderAndAge),
    purpose: searchPurpose(filters.purpose, kind),
    turnAroundTimeDays: num(filters.turnAroundTimeDays),
    minimumPrice: num(filters.minimumPrice),
    maximumPrice: num(filters.maximumPrice),
    units: num(filters.units),
    unitType: text(filters.unitType),
  };
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as typeof input;
}

/** Sample search: filters, the page shown, and errors split into "no results" and real failures. */
export const useSamplesStore = defineStore('samples', () => {
  const api = useApi();
  const profiles = useProfilesStore();
  const filters = ref<SampleFilters>(defaultSampleFilters());
  const pageSize = ref(20);
  const result = shallowRef<SearchResponse | null>(null);
  const loading = ref(false);
  const error = ref<unknown>(null);
  /** SEARCH_NOT_RESULTS is an answer, not a failure: the list is simply empty. */
  const noResults = ref(false);
  const searched = ref(false);
  const searches = latestAnswer();

  async function search(page = 1): Promise<void> {
    const isLatest = searches.next();
    loading.value = true;
    error.value = null;
    try {
      const answer = await api.samples.search(
        searchInput(filters.value, page, pageSize.value, profiles.activeKind),
      );
      if (!isLatest()) return;
      result.value = answer;
      noResults.value = answer.samples.length === 0;
    } catch (e) {
      if (!isLatest()) return;
      if (isIpcError(e) && e.type === 'SEARCH_NOT_RESULTS') {
        noResults.value = true;
        result.value = null;
      } else {
        error.value = e;
      }
    } finally {
      if (isLatest()) {
        loading.value = false;
        searched.value = true;
      }
    }
  }

  function reset(): void {
    filters.value = defaultSampleFilters();
    result.value = null;
    error.value = null;
    noResults.value = false;
    searched.value = false;
  }

  return { filters, pageSize, result, loading, error, noResults, searched, search, reset };
});
