import { describe, expect, it } from 'vitest';
import type { DeliverableReadyEvent } from '../../../shared/ipc';
import type { Toast } from '../stores/notifications';
import { showReadyToasts } from './use-ready-toasts';

const ready = (deliverableId: string, deliverableName: string, projectId = 'p1'): DeliverableReadyEvent => ({
  profileId: 'sandbox',
  projectId,
  projectTitle: projectId === 'p1' ? 'Spring promo' : 'Jingle',
  deliverableId,
  deliverableName,
  serviceSubCategory: 'voice_over',
});

function harness() {
  const listeners = new Map<string, (payload: unknown) => void>();
  const api = {
    on: (event: string, fn: (payload: unknown) => void) => {
      listeners.set(event, fn);
      return () => listeners.delete(event);
    },
  } as unknown as Parameters<typeof showReadyToasts>[0];
  const toasts: Array<Omit<Toast, 'id'>> = [];
  const off = showReadyToasts(api, (t) => toasts.push(t));
  const emit = (event: string, payload: unknown) => listeners.get(event)?.(payload);
  const endTurn = () =>
    emit('watcher.status', { watching: 1, lastPollAt: null, nextPollInMs: 1, failing: false });
  return { toasts, emit, endTurn, off, listeners };
}

describe('showReadyToasts', () => {
  it('a batch of deliveries is one toast that says how many and where, not one per take', () => {
    const { toasts, emit, endTurn } = harness();
    emit('deliverable.ready', ready('a', '1'));
    emit('deliverable.ready', ready('b', '2'));
    emit('deliverable.ready', ready('c', '1', 'p2'));
    expect(toasts).toEqual([]);
    endTurn();
    expect(toasts).toEqual([
      {
        kind: 'info',
        title: '3 takes ready for review',
        detail: 'Spring promo (2) · Jingle (1)',
        to: '/projects',
      },
    ]);
  });

  it('a lone take is named by what it is and leads to its review', () => {
    const { toasts, emit, endTurn } = harness();
    emit('deliverable.ready', ready('a', '1'));
    endTurn();
    expect(toasts).toEqual([
      {
        kind: 'info',
        title: 'Ready for review',
        detail: 'Spring promo: Voice over · part 1',
        to: '/review/a?projectId=p1',
      },
    ]);
  });

  it('stops listening when disposed', () => {
    const { off, listeners } = harness();
    off();
    expect(listeners.size).toBe(0);
  });
});
