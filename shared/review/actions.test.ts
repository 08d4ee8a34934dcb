import { describe, expect, it } from 'vitest';
import { deliverableActions, projectActions } from './actions';

const d = (status: string) => ({ status });

// The state table of docs/service.md#transitions, with the live statuses, one row per case.
describe('deliverableActions', () => {
  it.each([
    // project status, fulfillment, deliverable status, siblings, allowed
    ['paid', 'speedy', 'reviewable', [], ['approve', 'reject', 'revision']],
    ['paid', 'speedy', 'approved', [], ['reject', 'revision']],
    ['paid', 'speedy', 'revisionRequested', [], ['reject']],
    ['paid', 'speedy', 'rejected', [], []],
    ['paid', 'speedy', 'unassigned', [], []],
    ['paid', 'speedy', 'assigned', [], []],
    ['completed', 'speedy', 'approved', [], ['reject', 'revision']],
    ['canceled', 'speedy', 'reviewable', [], []],
    ['canceled', 'speedy', 'approved', [], []],
    ['paid', 'contest', 'reviewable', [d('reviewable')], ['approve', 'reject', 'revision', 'winner']],
    ['paid', 'contest', 'reviewable', [d('winner')], ['approve', 'reject', 'revision']],
    ['paid', 'contest', 'winner', [d('winner')], ['reject', 'revision']],
    ['paid', 'contest', 'approved', [], ['reject', 'revision']],
    ['paid', 'booking', 'reviewable', [], ['approve', 'reject', 'revision']],
  ] as const)(
    '%s %s project, %s deliverable -> %j',
    (status, fulfillmentType, deliverable, siblings, allowed) => {
      const actions = deliverableActions({ status, fulfillmentType }, d(deliverable), siblings);
      expect([...actions].sort()).toEqual([...allowed].sort());
    },
  );

  it('without the project, the deliverable alone decides (never a winner: the contest is not known)', () => {
    expect([...deliverableActions(null, d('reviewable'))].sort()).toEqual(['approve', 'reject', 'revision']);
  });
});

describe('projectActions', () => {
  it.each([
    ['paid', [d('reviewable'), d('approved')], ['approveAll', 'cancel']],
    ['paid', [d('assigned'), d('revisionRequested')], ['cancel']],
    ['paid', [], ['cancel']],
    ['pendingPayment', [], ['cancel']],
    ['pendingInternalReview', [], ['cancel']],
    ['completed', [d('approved'), d('approved')], []],
    ['completed', [d('approved'), d('reviewable')], ['approveAll']],
    ['canceled', [d('rejected')], []],
    ['canceled', [d('reviewable')], []],
  ] as const)('%s with %j -> %j', (status, deliverables, allowed) => {
    expect([...projectActions({ status }, deliverables)].sort()).toEqual([...allowed].sort());
  });

  it('never offers "Approve all" on a contest: its entries compete for one winner', () => {
    const entries = [d('reviewable'), d('reviewable'), d('reviewable')];
    expect([...projectActions({ status: 'paid', fulfillmentType: 'contest' }, entries)]).toEqual(['cancel']);
  });
});
