import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { isIpcError, type OutboxItem } from '../../../shared/ipc';
import { useApi } from '../bridge';
import { latestAnswer } from './support/latest-answer';
import { loadState } from './support/load-state';

/** The answer main gives a decision it kept in the outbox because the service could not be reached. */
export const isQueuedOffline = (error: unknown): boolean =>
  isIpcError(error) && error.type === 'QUEUED_OFFLINE';

/** What a queued decision will do, in the producer's words. */
export function decisionLabel(item: Pick<OutboxItem, 'decision'>): string {
  switch (item.decision.kind) {
    case 'approve':
      return 'Approve';
    case 'approveAll':
      return 'Approve all';
    case 'reject':
      return 'Reject';
    case 'revision':
      return 'Ask for a revision';
    case 'winner':
      return 'Select as winner';
    case 'cancel':
      return 'Cancel the project';
  }
}

/** How an item stands, in plain words. */
export const STATE_LABELS: Record<OutboxItem['state'], string> = {
  queued: 'Waiting for the service',
  sending: 'Sending…',
  sent: 'Sent',
  held: 'Held — decide again',
  failed: 'Not accepted',
};

/** The service status a decision leaves its take in: once the service shows it, the take is decided. */
const EFFECT: Partial<Record<OutboxItem['decision']['kind'], string>> = {
  approve: 'approved',
  reject: 'rejected',
  revision: 'revisionRequested',
  winner: 'winner',
};

/**
 * What a take's page says of its newest outbox item beside the service's status: one truth, queued *or* decided.
 * Nothing once the item went through, or once the service already shows its effect (the service's status says it);
 * a held or refused item is named as such, never "Queued".
 */
export function decisionBadge(
  item: Pick<OutboxItem, 'decision' | 'state'> | null,
  status: string | undefined,
): string | null {
  if (!item || item.state === 'sent') return null;
  if (status !== undefined && EFFECT[item.decision.kind] === status) return null;
  const label = decisionLabel(item);
  if (item.state === 'held') return `Held: ${label}`;
  if (item.state === 'failed') return `Not accepted: ${label}`;
  return `Queued: ${label}`;
}

/** Items that went through in `next` and had not in `previous` (a page showing their take reads it again). */
export function newlySent(previous: readonly OutboxItem[], next: readonly OutboxItem[]): OutboxItem[] {
  const before = new Map(previous.map((i) => [i.id, i.state]));
  return next.filter((i) => i.state === 'sent' && before.get(i.id) !== 'sent');
}

/**
 * The active profile's outbox (kept in main, per profile): decisions made while the service was unreachable,
 * in the order they will be sent, and how each went.
 */
export const useOutboxStore = defineStore('outbox', () => {
  const api = useApi();
  const items = ref<OutboxItem[]>([]);
  const { loadError, run: runLoad } = loadState();
  const busy = ref<string | null>(null);
  const actionError = ref<unknown>(null);

  const pending = computed(() => items.value.filter((i) => i.state === 'queued' || i.state === 'sending'));
  const needsAttention = computed(() =>
    items.value.filter((i) => i.state === 'held' || i.state === 'failed'),
  );
  /** The sidebar's count: what waits or needs the producer. */
  const count = computed(() => pending.value.length + needsAttention.value.length);

  /** The newest item about a deliverable (or, for approve all and cancel, its project). */
  function latestFor(target: { deliverableId?: string; projectId?: string }): OutboxItem | null {
    for (let i = items.value.length - 1; i >= 0; i--) {
      const d = items.value[i]!.decision;
      if ('deliverableId' in d ? d.deliverableId === target.deliverableId : d.projectId === target.projectId)
        return items.value[i]!;
    }
    return null;
  }

  /**
   * Main sends `outbox.changed` after every change, so an event is never older than the store. A list read that was
   * asked before an event arrived may be: its answer is dropped, or it would show "Sending…" until the next change
   * (minutes, after a backoff).
   */
  const reads = latestAnswer();
  function fresh(list: OutboxItem[], asked: () => boolean): void {
    if (asked()) items.value = list;
  }

  async function load(): Promise<void> {
    const asked = reads.current();
    await runLoad(async () => fresh(await api.outbox.list(), asked));
  }

  async function act(id: string, call: () => Promise<OutboxItem[]>): Promise<void> {
    busy.value = id;
    actionError.value = null;
    const asked = reads.current();
    try {
      fresh(await call(), asked);
    } catch (error) {
      actionError.value = error;
    } finally {
      busy.value = null;
    }
  }
  const discard = (id: string) => act(id, () => api.outbox.discard({ id }));
  const retry = (id: string) => act(id, () => api.outbox.retry({ id }));
  const sendNow = () => act('send', () => api.outbox.send());

  /** Follows main's changes (sending, sent, conflicts, profile switches); returns the disposer. */
  function listen(): () => void {
    return api.on('outbox.changed', (next) => {
      reads.drop();
      items.value = next;
    });
  }

  return {
    items,
    loadError,
    busy,
    actionError,
    pending,
    needsAttention,
    count,
    latestFor,
    load,
    discard,
    retry,
    sendNow,
    listen,
  };
});
