import { defineStore } from 'pinia';
import { ref } from 'vue';

/** A short-lived message in the corner (e.g. "Deliverable ready"), announced to screen readers. */
export interface Toast {
  id: number;
  kind: 'info' | 'success' | 'error';
  title: string;
  detail?: string;
  /** Optional in-app link, e.g. the project page. */
  to?: string;
}

/** In-app toasts; desktop notifications are main's job. */
export const useNotificationsStore = defineStore('notifications', () => {
  const toasts = ref<Toast[]>([]);
  let nextId = 1;
  const timers = new Map<number, ReturnType<typeof setTimeout>>();

  /** Shows a toast for `ms` (0 keeps it until dismissed). */
  function push(toast: Omit<Toast, 'id'>, ms = 6000): number {
    const id = nextId++;
    toasts.value = [...toasts.value.slice(-3), { ...toast, id }];
    if (ms > 0)
      timers.set(
        id,
        setTimeout(() => dismiss(id), ms),
      );
    return id;
  }

  function dismiss(id: number): void {
    const timer = timers.get(id);
    if (timer) clearTimeout(timer);
    timers.delete(id);
    toasts.value = toasts.value.filter((t) => t.id !== id);
  }

  return { toasts, push, dismiss };
});
