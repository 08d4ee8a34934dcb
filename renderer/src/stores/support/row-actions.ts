import { ref, type Ref } from 'vue';

/**
 * Per-row busy and error bookkeeping: which action runs on which row (by id), and the last failure of each row,
 * shown on that row. An action clears its row's error when it starts; the row stops being busy when it ends.
 */
export interface RowActions<A extends string> {
  /** Action in flight per row id. */
  busy: Ref<Record<string, A>>;
  /** Error of the last action per row id. */
  errors: Ref<Record<string, unknown>>;
  /** Runs `call` for row `id`; its answer, or null when it failed (the error is then in `errors`). */
  run<T>(id: string, action: A, call: () => Promise<T>): Promise<T | null>;
}

/** A copy of `record` without `key` (a new object, so watchers of the record see the change). */
function without<V>(record: Record<string, V>, key: string): Record<string, V> {
  const { [key]: _dropped, ...rest } = record;
  return rest;
}

export function rowActions<A extends string>(): RowActions<A> {
  const busy = ref({}) as Ref<Record<string, A>>;
  const errors = ref<Record<string, unknown>>({});
  async function run<T>(id: string, action: A, call: () => Promise<T>): Promise<T | null> {
    busy.value = { ...busy.value, [id]: action };
    errors.value = without(errors.value, id);
    try {
      return await call();
    } catch (e) {
      errors.value = { ...errors.value, [id]: e };
      return null;
    } finally {
      busy.value = without(busy.value, id);
    }
  }
  return { busy, errors, run };
}
