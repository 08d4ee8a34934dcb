// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { OutboxItem } from '../../../shared/ipc';
import { createFakeApi, withApi } from './fake-api.test-util';
import { decisionBadge, newlySent, useOutboxStore } from './outbox';

const item = (state: OutboxItem['state'], patch: Partial<OutboxItem> = {}): OutboxItem => ({
  id: 'o1',
  profileId: 'studio',
  decision: { kind: 'approve', deliverableId: 'd1' },
  heard: { version: 1, status: 'reviewable', projectId: 'p1' },
  subject: '“1” in Spring promo',
  state,
  unconfirmed: false,
  queuedAt: '2026-11-26T10:00:00.000Z',
  sentAt: state === 'sent' ? '2026-11-26T10:05:00.000Z' : null,
  nextAttemptAt: null,
  outcome: state === 'sent' ? 'Approved.' : null,
  conflict: null,
  ...patch,
});

describe('outbox store', () => {
  it('a list answer asked before an event does not put back the older state ("Sending…" for minutes)', async () => {
    let answer!: (items: OutboxItem[]) => void;
    const f = createFakeApi({
      'outbox.list': () => new Promise<OutboxItem[]>((resolve) => (answer = resolve)),
    });
    const outbox = withApi(f.api, () => useOutboxStore());
    outbox.listen();
    const loading = outbox.load();
    await Promise.resolve();
    // Main read the list while the decision was on its way; the event that it went through arrives first.
    f.emit('outbox.changed', [item('sent')]);
    answer([item('sending')]);
    await loading;
    expect(outbox.items.map((i) => i.state)).toEqual(['sent']);
    // With no event meanwhile, a read is taken as it is.
    const again = outbox.load();
    await Promise.resolve();
    answer([item('sent'), item('queued', { id: 'o2' })]);
    await again;
    expect(outbox.items.map((i) => i.state)).toEqual(['sent', 'queued']);
  });
});

describe('one truth on a take: queued or decided', () => {
  it('says queued only while the service does not show the decision', () => {
    expect(decisionBadge(item('queued'), 'reviewable')).toBe('Queued: Approve');
    expect(decisionBadge(item('sending'), 'reviewable')).toBe('Queued: Approve');
    // The service already shows it (sent, or the page read the take first): its status says it, nothing else.
    expect(decisionBadge(item('sending'), 'approved')).toBeNull();
    expect(decisionBadge(item('sent'), 'approved')).toBeNull();
    expect(decisionBadge(item('sent'), 'reviewable')).toBeNull();
    const revision = { kind: 'revision' as const, deliverableId: 'd1', instructions: 'Warmer' };
    expect(decisionBadge(item('queued', { decision: revision }), 'revisionRequested')).toBeNull();
    // Held (approved elsewhere meanwhile) or refused: named as such, never "Queued".
    expect(decisionBadge(item('held'), 'approved')).toBeNull();
    expect(decisionBadge(item('held', { decision: revision }), 'approved')).toBe('Held: Ask for a revision');
    expect(decisionBadge(item('failed'), 'reviewable')).toBe('Not accepted: Approve');
  });

  it('tells which items just went through', () => {
    const before = [item('sending'), item('sent', { id: 'o2' })];
    expect(newlySent(before, [item('sent'), item('sent', { id: 'o2' })]).map((i) => i.id)).toEqual(['o1']);
    expect(newlySent([], [item('sent', { id: 'o3' })]).map((i) => i.id)).toEqual(['o3']);
    expect(newlySent(before, before)).toEqual([]);
  });
});
