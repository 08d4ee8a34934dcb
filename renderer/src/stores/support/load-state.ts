import { ref, shallowRef, type Ref, type ShallowRef } from 'vue';

/**
 * The state of a store's `load()`: under way, its failure (kept for the screen, never thrown) and whether it ever
 * succeeded (a screen shows its skeleton only before the first answer, not on every reload).
 */
export interface LoadState {
  loading: Ref<boolean>;
  loadError: ShallowRef<unknown>;
  loaded: Ref<boolean>;
  /** Runs one load: clears the last error, keeps a failure in `loadError`; true when it went through. */
  run(call: () => Promise<void>): Promise<boolean>;
}

export function loadState(): LoadState {
  const loading = ref(false);
  const loadError = shallowRef<unknown>(null);
  const loaded = ref(false);
  async function run(call: () => Promise<void>): Promise<boolean> {
    loading.value = true;
    loadError.value = null;
    try {
      await call();
      loaded.value = true;
      return true;
    } catch (e) {
      loadError.value = e;
      return false;
    } finally {
      loading.value = false;
    }
  }
  return { loading, loadError, loaded, run };
}
