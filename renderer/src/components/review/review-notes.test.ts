import { describe, expect, it } from 'vitest';
import type { Deliverable } from '../../../../shared/api';
import { noteMarkers, winnerMessage } from './review-notes';

describe('noteMarkers', () => {
  it('marks the notes behind earlier versions on the version they were about, and the draft only when given', () => {
    const versions = [
      { number: 1, instructions: null },
      { number: 2, instructions: 'Slower at [0:02.1]' },
    ];
    expect(noteMarkers(versions, null)).toEqual([
      expect.objectContaining({ id: 'v1-0', seconds: 2.1, tone: 'earlier', label: 'v1 0:02.1' }),
    ]);
    const withDraft = noteMarkers(versions, 'Again at [0:05.0]');
    expect(withDraft.map((m) => [m.id, m.tone])).toEqual([
      ['v1-0', 'earlier'],
      ['draft-0', 'draft'],
    ]);
  });
});

describe('winnerMessage', () => {
  const entry = (id: string, status: string) =>
    ({ id, status, serviceSubCategory: 'voice_over' }) as unknown as Deliverable;

  it('counts the other entries still in review when the list is known', () => {
    const own = entry('a', 'reviewable');
    const text = winnerMessage(own, [own, entry('b', 'reviewable'), entry('c', 'rejected')]);
    expect(text).toMatch(/^The 1 other entry still in review becomes rejected \(no replacement/);
  });

  it('says it in general when the list is not known, and plainly when no other entry waits', () => {
    expect(winnerMessage(entry('a', 'reviewable'), null)).toMatch(/^The other entries still in review/);
    expect(winnerMessage(entry('a', 'reviewable'), [])).toMatch(
      /^No other entry is still in review\. A contest/,
    );
  });
});
