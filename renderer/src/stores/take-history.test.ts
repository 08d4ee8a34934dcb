import { describe, expect, it } from 'vitest';
import { historyLabel, historyOf, takeKey, takesOf } from './take-history';

const d = (id: string, name: string, status: string, serviceSubCategory = 'voice_over') => ({
  id,
  name,
  status,
  serviceSubCategory,
  urls: {},
});

describe('takesOf', () => {
  it('numbers the takes of one name and links a rejected take to its replacement', () => {
    const takes = takesOf([
      d('a', '1', 'approved'),
      d('b', '2', 'rejected'),
      d('c', '3', 'reviewable'),
      d('s', '2', 'reviewable', 'scriptwriting'),
      d('b2', '2', 'approved'),
    ]);
    expect(takes.get('b')).toMatchObject({ take: 1, takes: 2, replaces: null });
    expect(takes.get('b')!.replacedBy!.id).toBe('b2');
    expect(takes.get('b2')).toMatchObject({ take: 2, takes: 2, replacedBy: null });
    expect(takes.get('b2')!.replaces!.id).toBe('b');
    expect(takes.get('a')).toMatchObject({ take: 1, takes: 1, replaces: null, replacedBy: null });
    // Another service with the same name is another deliverable, not a take.
    expect(takes.get('s')).toMatchObject({ take: 1, takes: 1 });
  });

  it('a take that was not rejected is not "replaced" (contest entries by several pros)', () => {
    const takes = takesOf([d('x', 'Entry 1 (Ana)', 'rejected'), d('y', 'Entry 1 (Bo)', 'reviewable')]);
    expect(takeKey(d('x', 'Entry 1 (Ana)', 'rejected'))).toBe(takeKey(d('y', 'Entry 1 (Bo)', 'reviewable')));
    expect(takes.get('x')!.replacedBy!.id).toBe('y');
    const kept = takesOf([d('x', '1', 'approved'), d('y', '1', 'reviewable')]);
    expect(kept.get('x')!.replacedBy).toBeNull();
    expect(kept.get('y')!.replaces).toBeNull();
  });
});

describe('historyOf', () => {
  const versions = [
    { created: '2026-11-20T10:00:00', instructions: null },
    { created: '2026-11-21T09:00:00', instructions: 'Slower at [0:02.1]', requested: '2026-11-20T12:00:00' },
  ];

  it.each([
    [
      'reviewable after a revision',
      { versions, status: 'reviewable', statusChanged: null },
      [
        ['delivered', '2026-11-20T10:00:00', 'Version 1 delivered'],
        ['revisionRequested', '2026-11-20T12:00:00', 'Revision of version 1 requested'],
        ['revised', '2026-11-21T09:00:00', 'Version 2 delivered (revised)'],
      ],
    ],
    [
      'approved',
      { versions, status: 'approved', statusChanged: '2026-11-22T08:00:00' },
      [
        ['delivered', '2026-11-20T10:00:00', 'Version 1 delivered'],
        ['revisionRequested', '2026-11-20T12:00:00', 'Revision of version 1 requested'],
        ['revised', '2026-11-21T09:00:00', 'Version 2 delivered (revised)'],
        ['approved', '2026-11-22T08:00:00', 'Version 2 approved'],
      ],
    ],
    [
      'rejected and replaced, no dates from the service',
      {
        versions: [{ created: '2026-11-20T10:00:00' }],
        status: 'rejected',
        statusChanged: null,
        replacedBy: { take: 2, id: 'b2', delivered: '2026-11-23T10:00:00' },
      },
      [
        ['delivered', '2026-11-20T10:00:00', 'Version 1 delivered'],
        ['rejected', null, 'Version 1 rejected'],
        ['replacedBy', '2026-11-23T10:00:00', 'Replaced by take 2'],
      ],
    ],
    [
      'a replacement with a revision pending',
      {
        versions: [{ created: '2026-11-23T10:00:00' }],
        status: 'revisionRequested',
        statusChanged: '2026-11-23T11:00:00',
        pendingInstructions: 'Warmer',
        replaces: { take: 1, id: 'b' },
      },
      [
        ['replaces', '2026-11-23T10:00:00', 'Replaces take 1, which was rejected'],
        ['delivered', '2026-11-23T10:00:00', 'Version 1 delivered'],
        ['revisionRequested', '2026-11-23T11:00:00', 'Revision of version 1 requested'],
      ],
    ],
  ])('%s', (_name, input, expected) => {
    const events = historyOf(input);
    expect(events.map((e) => [e.kind, e.at, historyLabel(e)])).toEqual(expected);
  });

  it('keeps the instructions with the revision they asked for', () => {
    const events = historyOf({ versions, status: 'reviewable', statusChanged: null });
    expect(events.find((e) => e.kind === 'revisionRequested')?.text).toBe('Slower at [0:02.1]');
  });
});
