import { describe, expect, it } from 'vitest';
import { reviewCounts, reviewStateOf, reviewSummaryText } from './review-status';

const take = (status: string, name = '1', serviceSubCategory = 'voice_over') => ({
  status,
  name,
  serviceSubCategory,
});

describe('reviewCounts / reviewStateOf / reviewSummaryText', () => {
  it.each([
    ['paid', [take('reviewable'), take('reviewable', '2')], 'needs-review', '2 ready for review'],
    ['paid', [take('reviewable'), take('approved', '2')], 'needs-review', '1 ready for review · 1 approved'],
    ['paid', [take('revisionRequested'), take('approved', '2')], 'in-revision', '1 in revision · 1 approved'],
    ['paid', [take('unassigned'), take('assigned', '2')], 'waiting', '2 takes to come'],
    ['paid', [take('assigned')], 'waiting', '1 take to come'],
    // A rejected take waits for its replacement, which carries the same service and name.
    ['paid', [take('rejected')], 'waiting', '1 take to come'],
    ['paid', [take('rejected'), take('reviewable')], 'needs-review', '1 ready for review'],
    ['paid', [take('approved'), take('winner', '2')], 'approved', 'All approved'],
    ['completed', [take('approved')], 'approved', 'All approved'],
    // A decided contest: the losing entries (rejected, or never delivered) are not replaced and wait for nothing.
    [
      'paid',
      [take('winner', 'Entry 1'), take('rejected', 'Entry 2'), take('assigned', 'Entry 3')],
      'approved',
      'All approved',
    ],
    ['paid', [], 'waiting', 'Waiting for delivery'],
    ['canceled', [take('rejected')], 'canceled', 'Canceled'],
  ] as const)('%s with %j -> %s, "%s"', (status, deliverables, state, text) => {
    const counts = reviewCounts(deliverables);
    expect(reviewStateOf(status, counts)).toBe(state);
    expect(reviewSummaryText(status, counts)).toBe(text);
  });

  it('a project whose deliverables were never read is unknown, not "waiting"', () => {
    expect(reviewStateOf('paid', null)).toBe('unknown');
    expect(reviewSummaryText('paid', null)).toBe('Not checked yet');
    expect(reviewStateOf('completed', null)).toBe('approved');
    expect(reviewSummaryText('completed', null)).toBe('All approved');
  });

  it('counts each status once', () => {
    expect(
      reviewCounts([
        take('reviewable'),
        take('revisionRequested', '2'),
        take('approved', '3'),
        take('assigned', '4'),
      ]),
    ).toEqual({ ready: 1, inRevision: 1, approved: 1, waiting: 1 });
  });
});
