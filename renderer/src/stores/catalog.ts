import { defineStore } from 'pinia';
import { ref, shallowRef, type Ref } from 'vue';
import type { AttributeValue, Category, Track } from '../../../shared/api';
import { useApi } from '../bridge';

/** Categories, attribute values and music tracks: reference data, fetched once per profile and cached. */
export const useCatalogStore = defineStore('catalog', () => {
  const api = useApi();
  const categories = shallowRef<Category[]>([]);
  const categoriesError = ref<unknown>(null);
  const values = shallowRef<Record<string, AttributeValue[]>>({});
  const valueErrors = shallowRef<Record<string, unknown>>({});
  const tracks = shallowRef<Track[] | null>(null);
  const tracksError = ref<unknown>(null);
  const inflight = new Map<string, Promise<unknown>>();

  function once<T>(key: string, load: () => Promise<T>): Promise<T> {
    const running = inflight.get(key) as Promise<T> | undefined;
    if (running) return running;
    const promise = load().finally(() => inflight.delete(key));
    inflight.set(key, promise);
    return promise;
  }

  /** Fetches into `into` once at a time; a failure lands in `failed` and leaves what was there. */
  function fetchInto<T>(
    key: string,
    into: Ref<T>,
    failed: Ref<unknown>,
    fetch: () => Promise<T>,
  ): Promise<T> {
    return once(key, async () => {
      failed.value = null;
      try {
        into.value = await fetch();
      } catch (error) {
        failed.value = error;
      }
      return into.value;
    });
  }

  async function loadCategories(): Promise<Category[]> {
    if (categories.value.length) return categories.value;
    return fetchInto('categories', categories, categoriesError, () => api.catalog.categories());
  }

  /** Options for one attribute (language, genderAndAge, purpose, voicePerspective...) of a category. */
  async function loadValues(categoryId: string, attributeId: string): Promise<AttributeValue[]> {
    const key = `${categoryId}/${attributeId}`;
    const cached = values.value[key];
    if (cached) return cached;
    return once(key, async () => {
      try {
        const list = await api.catalog.attributeValues({ categoryId, attributeId });
        values.value = { ...values.value, [key]: list };
        const { [key]: _dropped, ...rest } = valueErrors.value;
        valueErrors.value = rest;
        return list;
      } catch (error) {
        valueErrors.value = { ...valueErrors.value, [key]: error };
        return [];
      }
    });
  }

  function valuesOf(categoryId: string, attributeId: string): AttributeValue[] | undefined {
    return values.value[`${categoryId}/${attributeId}`];
  }

  function errorOf(categoryId: string, attributeId: string): unknown {
    return valueErrors.value[`${categoryId}/${attributeId}`] ?? null;
  }

  async function loadTracks(): Promise<Track[]> {
    if (tracks.value) return tracks.value;
    return (await fetchInto('tracks', tracks, tracksError, () => api.catalog.tracks())) ?? [];
  }

  /** A playable URL for a service-hosted file (proxied by main). */
  async function playableUrl(url: string): Promise<string> {
    return (await api.media.remoteUrl({ url })).url;
  }

  /** Reference data differs per account: drop it when the profile changes. */
  function reset(): void {
    categories.value = [];
    values.value = {};
    valueErrors.value = {};
    tracks.value = null;
  }

  return {
    categories,
    categoriesError,
    tracks,
    tracksError,
    loadCategories,
    loadValues,
    valuesOf,
    errorOf,
    loadTracks,
    playableUrl,
    reset,
  };
});
